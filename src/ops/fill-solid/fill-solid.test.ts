// fill-solid: CPU/GPU parity on seeded random inputs (the CPU backend is the reference; tolerances in tests/gpu/harness.ts).
import {
  featuresStyle,
  gpuTest,
  checkParity,
  PARITY_WINDOW,
  randomSource,
  randomColor,
  rng,
  GEOMETRY_TOL,
  RASTER_TOL,
  GPU,
  diffRasters,
} from '../../../tests/gpu/harness.js';
import { CpuBackend, Renderer } from '../../index.js';
import { triangulationCounts } from '../../backends/gpu/triangles.js';

describe('CPU/GPU parity', () => {
  const W = PARITY_WINDOW;

  gpuTest('fill-solid: random polygons with holes, per-feature colour and alpha, antialias on and off', async () => {
    for (const [seed, antialias] of [
      [11, true],
      [12, true],
      [13, false],
    ] as const) {
      const r = rng(seed);
      const style = featuresStyle(randomSource(seed, { polygons: 14 }), 'fill-solid', {
        antialias,
        'fill-expr': ['match', ['get', 'k'], 0, randomColor(r), 1, randomColor(r), randomColor(r)],
        'fill-alpha': 0.4 + 0.6 * r(),
      });
      await checkParity(`fill-solid seed ${seed}`, style, W, GEOMETRY_TOL);
    }
  });

  gpuTest('one features node filled twice (one fill blurred: another canvas) and the tile rendered again: triangulations reused, the CPU pixels', async () => {
    const style = {
      output: 'out',
      sources: randomSource(21, { polygons: 14 }),
      nodes: {
        f: { op: 'features' },
        shape: { op: 'fill-solid', features: '@f', fill: '#10304a' },
        shadow: { op: 'blur', input: '@shape', sigma: 2 },
        land: { op: 'fill-solid', features: '@f', fill: '#f3efe2', 'fill-alpha': 0.8 },
        out: { op: 'blend', base: '@shadow', over: '@land' },
      },
    };
    const renderer = Renderer.create(style);
    const cpu = (await renderer.renderWindow(W, renderer.params({}), { backend: new CpuBackend() })).raster;
    const before = triangulationCounts.reused;
    for (let i = 0; i < 2; i++) {
      const { raster } = await renderer.renderWindow(W, renderer.params({}), { backend: GPU! });
      const d = diffRasters(cpu, raster);
      expect({ withinFloat: d.maxFloat <= RASTER_TOL, within8bit: d.max8 <= 2 }).toEqual({ withinFloat: true, within8bit: true });
    }
    // The land's polygons in the first render, both fills' in the second.
    expect(triangulationCounts.reused - before).toBeGreaterThan(0);
  });
});
