// bbox: the box of every input vertex (polygons, lines and points pooled), hand cases.
import { bbox } from './index.js';
import { group, ringArea, runOp, sq } from '../../../tests/helpers/geometry.js';

describe('bbox', () => {
  test('one rectangle over every vertex of every group, clockwise on screen', async () => {
    const out = await runOp(
      bbox,
      {},
      { features: [group({ polygons: [[sq(10, 20, 5)]] }), group({ lines: [Float64Array.of(-3, 40, 0, 41)] }), group({ points: Float64Array.of(50, 22) })] },
    );
    expect(out.groups).toHaveLength(1);
    expect(Array.from(out.groups[0]!.polygons[0]![0]!)).toEqual([-3, 20, 50, 20, 50, 41, -3, 41]);
    expect(ringArea(out.groups[0]!.polygons[0]![0]!)).toBeGreaterThan(0);
  });

  test('no vertices, or a box without area, gives no feature', async () => {
    expect((await runOp(bbox, {}, { features: [] })).groups).toEqual([]);
    expect((await runOp(bbox, {}, { features: [group({ points: Float64Array.of(1, 1, 1, 5) })] })).groups).toEqual([]);
  });
});
