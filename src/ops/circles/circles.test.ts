// circles: CPU/GPU parity on seeded random inputs (the CPU backend is the reference; tolerances in tests/gpu/harness.ts).
import { featuresStyle, gpuTest, checkParity, PARITY_WINDOW, randomSource, randomColor, rng, GEOMETRY_TOL } from '../../../tests/gpu/harness.js';
import { withVertices } from './plan.js';
import { CUT_END, CUT_END_Y } from '../../geometry/clip.js';
import { group } from '../../../tests/helpers/geometry.js';

describe('vertices: a circle at every vertex (MapLibre circle_bucket.ts)', () => {
  test("points, line vertices but cut ends, ring vertices with the ring's closing point, no vertex made by clipping", () => {
    const g = group({
      points: Float64Array.of(1, 2),
      lines: [Float64Array.of(10, 10, 20, 10, 30, 0)],
      cutEnds: Uint8Array.of(CUT_END | CUT_END_Y),
      // A square ring [50,60]^2 open (no repeated point): 4 vertices and the first again.
      polygons: [[Float64Array.of(50, 50, 60, 50, 60, 60, 50, 60)], [Float64Array.of(0, 100, 10, 100, 10, 110, 0, 110, 0, 100)]],
      // The second polygon's edge 1 (10,100)-(10,110) was made by clipping: both its ends are left out.
      polygonCuts: [[undefined], [Uint8Array.of(0, 1, 0, 0)]],
    });
    expect(Array.from(withVertices(g))).toEqual([1, 2, 10, 10, 20, 10, 50, 50, 60, 50, 60, 60, 50, 60, 50, 50, 0, 100, 0, 110, 0, 100]);
  });
});

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
