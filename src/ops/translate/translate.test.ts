// translate: every vertex moves by (dx, dy); clip flags travel with the geometry; the pad reaches
// as far as the move, so what moves into a tile is sampled (the seam invariant over the golden
// case `geom-translate` checks the mosaic).
import { translate } from './index.js';
import { group, runOp, sq } from '../../../tests/helpers/geometry.js';

describe('translate', () => {
  test('polygons, lines and points move by (dx, dy); flags and properties are kept', async () => {
    const cuts = [[Uint8Array.of(0, 1, 0, 0)]];
    const g = group({
      id: 7,
      properties: { k: 1 },
      polygons: [[sq(0, 0, 10)]],
      polygonCuts: cuts,
      lines: [Float64Array.of(1, 2, 3, 4)],
      cutEnds: Uint8Array.of(1),
      points: Float64Array.of(5, 6),
    });
    const out = (await runOp(translate, { dx: 2.5, dy: -1 }, { features: [g] })).groups[0]!;
    expect(Array.from(out.polygons[0]![0]!)).toEqual([2.5, -1, 12.5, -1, 12.5, 9, 2.5, 9]);
    expect(Array.from(out.lines[0]!)).toEqual([3.5, 1, 5.5, 3]);
    expect(Array.from(out.points)).toEqual([7.5, 5]);
    expect(out.polygonCuts).toBe(cuts);
    expect(Array.from(out.cutEnds!)).toEqual([1]);
    expect(out.id).toBe(7);
    expect(out.properties).toEqual({ k: 1 });
    // The input is untouched.
    expect(Array.from(g.points)).toEqual([5, 6]);
  });

  test('no move hands the groups on as they are', async () => {
    const g = group({ points: Float64Array.of(1, 1) });
    expect((await runOp(translate, {}, { features: [g] })).groups[0]).toBe(g);
  });

  test('the pad is the larger |dx|, |dy| bound, rounded up', () => {
    expect(translate.pad!((f) => ({ dx: -3.2, dy: 1 })[f], 'features', { op: 'translate' })).toBe(4);
    expect(translate.pad!(() => undefined, 'features', { op: 'translate' })).toBe(0);
  });
});
