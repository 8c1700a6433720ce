// circles: CPU/GPU parity on seeded random inputs (the CPU backend is the reference; tolerances in tests/gpu/harness.ts).
import { featuresStyle, gpuTest, checkParity, PARITY_WINDOW, randomSource, randomColor, rng, GEOMETRY_TOL } from '../../../tests/gpu/harness.js';

describe('CPU/GPU parity', () => {
  const W = PARITY_WINDOW;

  gpuTest('circles: random radii, stroke rings, per-feature paint', async () => {
    for (const seed of [31, 32]) {
      const r = rng(seed);
      const style = featuresStyle(randomSource(seed, { points: 50 }), 'circles', {
        'radius-expr': ['*', 12 * r() + 1, ['get', 'v']],
        'radius-max': 14,
        'stroke-width': 2.5 * r(),
        'stroke-color': randomColor(r),
        'color-expr': ['match', ['get', 'k'], 0, randomColor(r), 1, randomColor(r), randomColor(r)],
        opacity: 0.5 + 0.5 * r(),
      });
      await checkParity(`circles seed ${seed}`, style, W, GEOMETRY_TOL);
    }
  });
});
