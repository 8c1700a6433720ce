// visitLineParts leaves out a line whose box lies more than a pixel outside the canvas (dash and
// stroke-solid's MapLibre lines walk whole features this way). The reference is the full walk:
// with a `snap` callback the shortcut is off (a snap may move vertices), so a no-op snap gives
// every line's conversion and Liang-Barsky walk. The parts must come out the same, bit for bit.
import { lineBox, visitLineParts, type LinePart, type WholeFeature } from './whole.js';
import { rng } from '../../tests/helpers/random.js';

const parts = (w: WholeFeature, canvas: Parameters<typeof visitLineParts>[1], snap?: (l: Float64Array) => void) => {
  const out: { line: number[]; s0: number; cut: number; clip: number[] }[] = [];
  visitLineParts(w, canvas, 32, (p: LinePart, clip) => out.push({ line: Array.from(p.line), s0: p.s0, cut: p.cut, clip: [...clip] }), [0, 0], snap);
  return out;
};

describe('visitLineParts: lines boxed off the canvas are skipped, the parts unchanged', () => {
  test('random lines around canvases (zooms 0-16, across ±180°, owned pieces, edges within a pixel)', () => {
    const r = rng(11);
    let seen = 0;
    let skipped = 0;
    for (let t = 0; t < 1500; t++) {
      const z = Math.floor(r() * 17);
      const W = 256 * 2 ** z;
      const canvas = { z, tileSize: 256, x0: Math.floor((r() * 1.2 - 0.1) * W), y0: Math.floor(r() * W * 0.9), width: 258, height: 258 };
      const lines: Float64Array[] = [];
      for (let k = 0; k < 6; k++) {
        // Lines near the canvas in world pixels: some inside, some wholly beside it, some ending
        // within a pixel of the grown edge (x0 - 32 - 1 .. x0 - 32 + 1).
        const n = 1 + Math.floor(r() * 12);
        const cx = canvas.x0 + (r() * 3 - 1) * 300,
          cy = canvas.y0 + (r() * 3 - 1) * 300;
        const l = new Float64Array(n * 2);
        for (let i = 0; i < n; i++) {
          l[i * 2] = (cx + (r() - 0.5) * 200) / W;
          l[i * 2 + 1] = (cy + (r() - 0.5) * 200) / W;
        }
        if (k === 5) {
          const edge = canvas.x0 - 32 + (r() * 2 - 1) * (r() < 0.5 ? 1 : 1e-9 * W);
          for (let i = 0; i < n; i++) l[i * 2] = Math.min(l[i * 2]!, edge / W);
        }
        lines.push(l);
      }
      const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
      for (const l of lines)
        for (let i = 0; i < l.length; i += 2) {
          box[0] = Math.min(box[0], l[i]!);
          box[1] = Math.min(box[1], l[i + 1]!);
          box[2] = Math.max(box[2], l[i]!);
          box[3] = Math.max(box[3], l[i + 1]!);
        }
      const w: WholeFeature = { properties: {}, polygons: [], lines, points: new Float64Array(0), box };
      if (t % 3 === 0) w.owner = [box[0] + (box[2] - box[0]) * r() * 0.5, box[1], box[2], box[3] - (box[3] - box[1]) * r() * 0.5];
      const fast = parts(w, canvas);
      const full = parts(w, canvas, () => {});
      expect(fast).toEqual(full);
      seen += full.length;
      for (const l of lines) {
        const b = lineBox(l)!;
        if (b[2] * W < canvas.x0 - 33 || b[0] * W > canvas.x0 + 258 + 33 || b[3] * W < canvas.y0 - 33 || b[1] * W > canvas.y0 + 258 + 33) skipped++;
      }
    }
    expect(seen).toBeGreaterThan(1000);
    expect(skipped).toBeGreaterThan(1000);
  });

  test('a NaN vertex gives no box (the line is always walked)', () => {
    expect(lineBox(Float64Array.of(0, 0, Number.NaN, 1))).toBeNull();
    expect(lineBox(Float64Array.of(0.25, 0.5, 0.75, 0.125))).toEqual([0.25, 0.125, 0.75, 0.5]);
  });
});
