// convex-hull: hulls against monotone-convex-hull-2d (an independent robust hull) on random
// point sets, hand cases (collinear, duplicate, degenerate).
import monotoneHull from 'monotone-convex-hull-2d';
import { convexHullOp } from './index.js';
import { group, ringArea, runOp } from '../../../tests/helpers/geometry.js';
import { rng } from '../../../tests/helpers/random.js';

const vertexSet = (ring: Float64Array) => {
  const out: string[] = [];
  for (let i = 0; i < ring.length; i += 2) out.push(`${ring[i]},${ring[i + 1]}`);
  return out.sort();
};

describe('convex-hull', () => {
  test('same vertices as monotone-convex-hull-2d on 200 random point sets, pooled from polygons, lines and points', async () => {
    const next = rng(77);
    for (let t = 0; t < 200; t++) {
      const pts: [number, number][] = [];
      const n = 3 + Math.floor(next() * 60);
      // Integer-ish coordinates make collinear and duplicate points common.
      for (let i = 0; i < n; i++) pts.push([Math.round(next() * 40), Math.round(next() * 40)]);
      const k = Math.floor(n / 3);
      const g = group({
        polygons: [[Float64Array.from(pts.slice(0, k).flat())]],
        lines: [Float64Array.from(pts.slice(k, 2 * k).flat())],
        points: Float64Array.from(pts.slice(2 * k).flat()),
      });
      const out = await runOp(convexHullOp, {}, { features: [g] });
      const ref = (monotoneHull(pts) as number[]).map((i) => `${pts[i]![0]},${pts[i]![1]}`);
      const refSet = [...new Set(ref)].sort();
      if (refSet.length < 3) {
        expect(out.groups).toEqual([]);
        continue;
      }
      const ring = out.groups[0]!.polygons[0]![0]!;
      expect(vertexSet(ring)).toEqual(refSet);
      expect(ringArea(ring)).toBeGreaterThan(0);
    }
  });

  test('hand cases: a square with interior and edge points; collinear points give nothing', async () => {
    const g = group({ points: Float64Array.of(0, 0, 10, 0, 10, 10, 0, 10, 5, 5, 5, 0, 0, 5, 10, 10) });
    const out = await runOp(convexHullOp, {}, { features: [g] });
    expect(vertexSet(out.groups[0]!.polygons[0]![0]!)).toEqual(['0,0', '0,10', '10,0', '10,10']);
    expect(ringArea(out.groups[0]!.polygons[0]![0]!)).toBe(100);
    expect((await runOp(convexHullOp, {}, { features: [group({ lines: [Float64Array.of(0, 0, 1, 1, 2, 2, 5, 5)] })] })).groups).toEqual([]);
    expect((await runOp(convexHullOp, {}, { features: [] })).groups).toEqual([]);
  });
});
