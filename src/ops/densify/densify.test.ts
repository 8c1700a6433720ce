// densify: no segment longer than the target, original vertices kept in order, rings densified on
// their closing edge, clip flags carried to sub-edges, the vertex bound.
import { densify } from './index.js';
import { group, runOp, sq } from '../../../tests/helpers/geometry.js';
import { rng } from '../../../tests/helpers/random.js';

const segs = (c: Float64Array, closed: boolean) => {
  const n = c.length / 2;
  const out: number[] = [];
  for (let i = 0; i < (closed ? n : n - 1); i++) {
    const j = (i + 1) % n;
    out.push(Math.hypot(c[j * 2]! - c[i * 2]!, c[j * 2 + 1]! - c[i * 2 + 1]!));
  }
  return out;
};

describe('densify', () => {
  test('random polylines and rings: every segment <= target, original vertices kept in order, minimal count', async () => {
    const next = rng(5);
    for (let t = 0; t < 50; t++) {
      const pts: number[] = [];
      for (let i = 0; i < 3 + Math.floor(next() * 8); i++) pts.push(next() * 100, next() * 100);
      const line = Float64Array.from(pts);
      const target = 0.5 + next() * 10;
      const out = (await runOp(densify, { 'target-px': target }, { features: [group({ lines: [line], polygons: [[line]] })] })).groups[0]!;
      for (const [c, closed] of [
        [out.lines[0]!, false],
        [out.polygons[0]![0]!, true],
      ] as const) {
        expect(Math.max(...segs(c, closed))).toBeLessThanOrEqual(target + 1e-9);
        // The originals appear in order.
        let k = 0;
        for (let i = 0; i < c.length && k < line.length; i += 2) if (c[i] === line[k] && c[i + 1] === line[k + 1]) k += 2;
        expect(k).toBe(line.length);
        // Minimal: each original segment is cut into ceil(len / target) pieces.
        const expected = segs(line, closed).reduce((s, l) => s + Math.max(1, Math.ceil(l / target)), 0);
        expect(segs(c, closed).length).toBe(expected);
      }
    }
  });

  test('a square ring densified to 2.5 px: 4 vertices per side, clip flags carried over', async () => {
    const g = group({ polygons: [[sq(0, 0, 10)]], polygonCuts: [[Uint8Array.of(0, 1, 0, 0)]], points: Float64Array.of(3, 3) });
    const out = (await runOp(densify, { 'target-px': 2.5 }, { features: [g] })).groups[0]!;
    const r = out.polygons[0]![0]!;
    expect(r.length / 2).toBe(16);
    expect(Array.from(r.slice(0, 10))).toEqual([0, 0, 2.5, 0, 5, 0, 7.5, 0, 10, 0]);
    expect(Array.from(out.polygonCuts![0]![0]!)).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(Array.from(out.points)).toEqual([3, 3]);
  });

  test('target 0 leaves the geometry as it is; the vertex bound is an error', async () => {
    const g = group({ lines: [Float64Array.of(0, 0, 10, 0)] });
    expect((await runOp(densify, { 'target-px': 0 }, { features: [g] })).groups[0]).toBe(g);
    await expect(runOp(densify, { 'target-px': 1e-6 }, { features: [g] })).rejects.toThrow(/vertices in one canvas/);
  });
});
