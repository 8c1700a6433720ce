// boundary: rings become closed polylines (holes included), clipped edges are not boundary,
// lines and points pass through with their cut flags.
import { boundary } from './index.js';
import { CUT_END, CUT_END_X, CUT_START, CUT_START_X, CUT_START_Y, CUT_END_Y } from '../../geometry/clip.js';
import { group, runOp, sq } from '../../../tests/helpers/geometry.js';

describe('boundary', () => {
  test('exterior and hole become closed polylines; lines and points pass through', async () => {
    const hole = Float64Array.of(3, 3, 3, 6, 6, 6, 6, 3);
    const g = group({ polygons: [[sq(0, 0, 10), hole]], lines: [Float64Array.of(20, 20, 30, 30)], cutEnds: Uint8Array.of(2), points: Float64Array.of(1, 2) });
    const out = (await runOp(boundary, {}, { features: [g] })).groups[0]!;
    expect(out.polygons).toEqual([]);
    expect(out.lines.map((l) => Array.from(l))).toEqual([
      [20, 20, 30, 30],
      [0, 0, 10, 0, 10, 10, 0, 10, 0, 0],
      [3, 3, 3, 6, 6, 6, 6, 3, 3, 3],
    ]);
    expect(Array.from(out.cutEnds!)).toEqual([2, 0, 0]);
    expect(Array.from(out.points)).toEqual([1, 2]);
  });

  test('edges made by clipping break the ring; the ends there are cuts', async () => {
    // A square clipped on its right side: edge 1 (10,0)->(10,10) lies on the clip rectangle.
    const g = group({ polygons: [[sq(0, 0, 10)]], polygonCuts: [[Uint8Array.of(0, 1, 0, 0)]] });
    const out = (await runOp(boundary, {}, { features: [g] })).groups[0]!;
    expect(out.lines.map((l) => Array.from(l))).toEqual([[10, 10, 0, 10, 0, 0, 10, 0]]);
    // Both ends are cuts on the vertical clipped edge (the stroke ends them on its line).
    expect(Array.from(out.cutEnds!)).toEqual([CUT_START | CUT_START_X | CUT_END | CUT_END_X]);
    // Two clipped edges: two pieces.
    const two = (await runOp(boundary, {}, { features: [group({ polygons: [[sq(0, 0, 10)]], polygonCuts: [[Uint8Array.of(1, 0, 1, 0)]] })] })).groups[0]!;
    expect(two.lines.map((l) => Array.from(l))).toEqual([
      [0, 10, 0, 0],
      [10, 0, 10, 10],
    ]);
    expect(Array.from(two.cutEnds!)).toEqual([CUT_START | CUT_START_Y | CUT_END | CUT_END_Y, CUT_START | CUT_START_Y | CUT_END | CUT_END_Y]);
  });
});
