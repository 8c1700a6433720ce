// dash: dash/gap lengths along polylines (across vertices), phase (positive, negative, wrapping),
// cut flags, zero gap and zero dash, pass-through of polygons and points, the dash bound.
import { dash } from './index.js';
import { lineLength } from '../../geometry/lines.js';
import { group, runOp, sq } from '../../../tests/helpers/geometry.js';

const dashes = async (node: Record<string, unknown>, line: number[], cut = 0) => {
  const out = await runOp(dash, node, { features: [group({ lines: [Float64Array.from(line)], cutEnds: cut ? Uint8Array.of(cut) : undefined })] });
  return out.groups[0]
    ? { lines: out.groups[0].lines.map((l) => Array.from(l)), cuts: out.groups[0].cutEnds ? Array.from(out.groups[0].cutEnds) : undefined }
    : { lines: [], cuts: undefined };
};

describe('dash', () => {
  test('a straight line: dashes of dash-px every dash-px + gap-px from the start', async () => {
    const { lines } = await dashes({ 'dash-px': 4, 'gap-px': 2 }, [0, 0, 20, 0]);
    expect(lines).toEqual([
      [0, 0, 4, 0],
      [6, 0, 10, 0],
      [12, 0, 16, 0],
      [18, 0, 20, 0],
    ]);
  });

  test('phase shifts the pattern back along the line (stroke-dashoffset); negative shifts it forward', async () => {
    expect((await dashes({ 'dash-px': 4, 'gap-px': 2, 'phase-px': 1 }, [0, 0, 12, 0])).lines).toEqual([
      [0, 0, 3, 0],
      [5, 0, 9, 0],
      [11, 0, 12, 0],
    ]);
    expect((await dashes({ 'dash-px': 4, 'gap-px': 2, 'phase-px': -1 }, [0, 0, 12, 0])).lines).toEqual([
      [1, 0, 5, 0],
      [7, 0, 11, 0],
    ]);
    // A phase of a whole period changes nothing.
    expect((await dashes({ 'dash-px': 4, 'gap-px': 2, 'phase-px': 12 }, [0, 0, 20, 0])).lines).toEqual(
      (await dashes({ 'dash-px': 4, 'gap-px': 2 }, [0, 0, 20, 0])).lines,
    );
  });

  test('dashes turn corners: each dash keeps its length along the line', async () => {
    const { lines } = await dashes({ 'dash-px': 5, 'gap-px': 3 }, [0, 0, 3, 0, 3, 10]);
    expect(lines[0]).toEqual([0, 0, 3, 0, 3, 2]);
    expect(lines.map((l) => lineLength(l))).toEqual([5, 5]);
    expect(lines[1]).toEqual([3, 5, 3, 10]);
  });

  test('ends made by clipping stay cuts; ends made by dashing are real ends', async () => {
    const { cuts } = await dashes({ 'dash-px': 4, 'gap-px': 2 }, [0, 0, 20, 0], 3);
    expect(cuts).toEqual([1, 0, 0, 2]);
  });

  test('gap 0 keeps the line whole; dash 0 removes it; polygons and points pass through', async () => {
    expect((await dashes({ 'dash-px': 4, 'gap-px': 0 }, [0, 0, 20, 0])).lines).toEqual([[0, 0, 20, 0]]);
    const g = group({ polygons: [[sq(0, 0, 5)]], points: Float64Array.of(1, 1), lines: [Float64Array.of(0, 0, 9, 0)] });
    const out = await runOp(dash, { 'dash-px': 0, 'gap-px': 3 }, { features: [g] });
    expect(out.groups[0]!.lines).toEqual([]);
    expect(out.groups[0]!.polygons).toBe(g.polygons);
    expect(out.groups[0]!.points).toBe(g.points);
  });

  test('total dashed length matches the pattern over a long wiggly line', async () => {
    const pts: number[] = [];
    for (let i = 0; i <= 200; i++) pts.push(i * 3, 10 * Math.sin(i / 7));
    const L = lineLength(pts);
    const { lines } = await dashes({ 'dash-px': 7, 'gap-px': 5 }, pts);
    const on = lines.reduce((s, l) => s + lineLength(l), 0);
    expect(Math.abs(on - (L * 7) / 12)).toBeLessThan(7);
  });

  test('more dashes than the bound is an error, not a hang', async () => {
    await expect(dashes({ 'dash-px': 0.0001, 'gap-px': 0.0001 }, [0, 0, 1e3, 0])).rejects.toThrow(/dashes in one canvas/);
  });
});
