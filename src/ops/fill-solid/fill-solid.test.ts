// fill-solid: CPU/GPU parity on seeded random inputs (the CPU backend is the reference; tolerances in tests/gpu/harness.ts).
import { gpuTest, checkParity, PARITY_WINDOW, randomSource, randomColor, rng, GEOMETRY_TOL } from '../../../tests/gpu/harness.js';

describe('CPU/GPU parity', () => {
  const W = PARITY_WINDOW;

  gpuTest('fill-solid: random polygons with holes, per-feature colour and alpha, antialias on and off', async () => {
    for (const [seed, antialias] of [
      [11, true],
      [12, true],
      [13, false],
    ] as const) {
      const r = rng(seed);
      const style = {
        output: 'out',
        sources: randomSource(seed, { polygons: 14 }),
        nodes: {
          f: { op: 'features' },
          out: {
            op: 'fill-solid',
            features: '@f',
            antialias,
            'fill-expr': ['match', ['get', 'k'], 0, randomColor(r), 1, randomColor(r), randomColor(r)],
            'fill-alpha': 0.4 + 0.6 * r(),
          },
        },
      };
      await checkParity(`fill-solid seed ${seed}`, style, W, GEOMETRY_TOL);
    }
  });
});
