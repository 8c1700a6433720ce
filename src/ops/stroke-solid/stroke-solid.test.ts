// stroke-solid: CPU/GPU parity on seeded random inputs (the CPU backend is the reference; tolerances in tests/gpu/harness.ts).
import { featuresStyle, gpuTest, checkParity, PARITY_WINDOW, randomSource, randomColor, rng, GEOMETRY_TOL } from '../../../tests/gpu/harness.js';

describe('CPU/GPU parity', () => {
  const W = PARITY_WINDOW;

  gpuTest('stroke-solid: every join and cap, random widths and offsets', async () => {
    const joins = ['miter', 'round', 'bevel'];
    const caps = ['butt', 'round', 'square'];
    for (let i = 0; i < 3; i++) {
      const seed = 20 + i;
      const r = rng(seed);
      const style = featuresStyle(randomSource(seed, { polygons: 3, lines: 8 }), 'stroke-solid', {
        join: joins[i],
        cap: caps[i],
        'miter-limit': 1 + 3 * r(),
        width: 0.5 + 7 * r(),
        offset: i === 2 ? 1.5 * r() : 0,
        'color-expr': ['match', ['get', 'k'], 0, randomColor(r), 1, randomColor(r), randomColor(r)],
        opacity: 0.5 + 0.5 * r(),
      });
      await checkParity(`stroke-solid ${joins[i]}/${caps[i]}`, style, W, GEOMETRY_TOL);
    }
  });
});
