// centroid: closed forms (rectangles, an L-shape, a square ring with an off-centre hole, polylines
// weighted by length), include-lines / include-polygons, and that it is not the vertex mean.
import { centroid } from './index.js';
import { group, runOp, sq } from '../../../tests/helpers/geometry.js';

const pointsOf = async (node: Record<string, unknown>, g: ReturnType<typeof group>) =>
  Array.from((await runOp(centroid, node, { features: [g] })).groups[0]?.points ?? []);

describe('centroid', () => {
  test('L-shape: the area-weighted mean of its two rectangles, not the vertex mean', async () => {
    // L = [0,30]x[0,10] ∪ [0,10]x[10,40]: areas 300 at (15, 5) and 300 at (5, 25) -> (10, 15).
    const L = Float64Array.of(0, 0, 30, 0, 30, 10, 10, 10, 10, 40, 0, 40);
    const [x, y] = await pointsOf({}, group({ polygons: [[L]] }));
    expect(x).toBeCloseTo(10, 10);
    expect(y).toBeCloseTo(15, 10);
    // The vertex mean (turf's centroid) would be (13.33, 16.67).
    expect(Math.abs(x! - 80 / 6)).toBeGreaterThan(3);
  });

  test('square ring with an off-centre hole: (A c - a h) / (A - a)', async () => {
    const hole = Float64Array.of(50, 50, 50, 80, 80, 80, 80, 50); // [50,80]², counter-clockwise
    const [x, y] = await pointsOf({}, group({ polygons: [[sq(0, 0, 100), hole]] }));
    const c = (10000 * 50 - 900 * 65) / (10000 - 900);
    expect(x).toBeCloseTo(c, 10);
    expect(y).toBeCloseTo(c, 10);
  });

  test('a feature of several polygons gives one point, their area-weighted centroid, at world-pixel coordinates', async () => {
    const X = 1e7; // large world coordinates (z16) keep their precision
    const [x, y] = await pointsOf({}, group({ polygons: [[sq(X, X, 10)], [sq(X + 100, X, 20)]] }));
    expect(x).toBeCloseTo((100 * (X + 5) + 400 * (X + 110)) / 500, 6);
    expect(y).toBeCloseTo((100 * (X + 5) + 400 * (X + 10)) / 500, 6);
  });

  test('polylines: length-weighted over every segment of every line', async () => {
    // Segment of length 10 centred (5, 0) and one of length 30 centred (0, 25) -> (1.25, 18.75).
    const [x, y] = await pointsOf({}, group({ lines: [Float64Array.of(0, 0, 10, 0), Float64Array.of(0, 10, 0, 40)] }));
    expect(x).toBeCloseTo(1.25, 10);
    expect(y).toBeCloseTo(18.75, 10);
  });

  test('include-lines / include-polygons; points pass through; properties kept', async () => {
    const g = group({ polygons: [[sq(0, 0, 2)]], lines: [Float64Array.of(10, 10, 20, 10)], points: Float64Array.of(7, 7), properties: { k: 1 } });
    expect(await pointsOf({}, g)).toEqual([7, 7, 1, 1, 15, 10]);
    expect(await pointsOf({ 'include-lines': false }, g)).toEqual([7, 7, 1, 1]);
    expect(await pointsOf({ 'include-polygons': false }, g)).toEqual([7, 7, 15, 10]);
    const none = await runOp(centroid, { 'include-lines': false, 'include-polygons': false }, { features: [group({ lines: [Float64Array.of(0, 0, 1, 0)] })] });
    expect(none.groups).toEqual([]);
    expect((await runOp(centroid, {}, { features: [g] })).groups[0]!.properties).toEqual({ k: 1 });
  });
});
