// solid: CPU/GPU parity on seeded random inputs (the CPU backend is the reference; tolerances in tests/gpu/harness.ts).
import { gpuTest, checkParity, PARITY_WINDOW, randomColor, rng, GEOMETRY_TOL } from '../../../tests/gpu/harness.js';

describe('CPU/GPU parity', () => {
  const W = PARITY_WINDOW;

  gpuTest('solid', async () => {
    const r = rng(1);
    for (let i = 0; i < 3; i++) {
      const style = { output: 'out', nodes: { out: { op: 'solid', color: randomColor(r, 0) } } };
      await checkParity(`solid ${i}`, style, W, GEOMETRY_TOL);
    }
  });
});
