// A point label's halo is the union of its glyphs' own halos moved to their pens (plan.ts
// pointLabelRings). Witness: Clipper2 itself, uniting the label's outline and growing it by the halo
// width in one offset (inflateRings: UnionSelfD, then InflatePathsD, round joins): both must cover the same region, up to Clipper's
// 1e-4 px rounding of the vertices (their symmetric difference, Clipper2's xor on the same grid).
// A label's outline unites only the glyphs that overlap (each glyph's own rings made
// non-overlapping once: SizedGlyphs.solid). Witness: Clipper2's union of every glyph's raw rings.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { boolean, inflateRings, loadClipper, unionRings } from '../../geometry/clipper.js';
import { loadTextFont } from './font.js';
import { glyphRings, SizedGlyphs } from './glyphs.js';
import { layoutPoint } from './layout.js';
import { lineLabelRings, pointLabelRings } from './plan.js';
import { FontStack } from './shape.js';

/** DejaVu Sans alone as a font list. */
async function dejavu(): Promise<FontStack> {
  const file = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
  return new FontStack([await loadTextFont('dejavu', new Uint8Array(readFileSync(file)))]);
}

/** Area of polygons given as [exterior, ...holes] (treePolygons' form). */
const polygonsArea = (polys: Float64Array[][]): number => polys.reduce((s, p) => s + Math.abs(p.reduce((t, r) => t + ringArea2(r) / 2, 0)), 0);
/** Area of rings under the non-zero rule when they do not overlap (a union's output). */
const ringsArea = (rings: Float64Array[]): number => rings.reduce((s, r) => s + ringArea2(r) / 2, 0);
function ringArea2(r: ArrayLike<number>): number {
  let a = 0;
  for (let i = 0; i < r.length; i += 2) {
    const j = (i + 2) % r.length;
    a += r[i]! * r[j + 1]! - r[j]! * r[i + 1]!;
  }
  return a;
}
/** Clipper2's xor at 1e-4 px (the module's boolean works at 1e-2: the rings are scaled by 100 first). */
const scaled = (rings: Float64Array[]) => rings.map((r) => r.map((v) => v * 100));

describe("a point label's halo", () => {
  test('covers the region Clipper2 grows from the united outline (DejaVu Sans 6-16 px, halo 1-3 px)', async () => {
    const m = await loadClipper();
    const stack = await dejavu();
    const texts = ['aeobgdpqAB&@%8', 'United Arab Emirates', 'Kyrgyzstan', 'Trinidad and Tobago'];
    let cases = 0;
    for (const text of texts) {
      for (const size of [6, 8, 10, 12, 16]) {
        // max-width 70 wraps the longer names onto two lines, as the world example does.
        const layout = layoutPoint(stack, text, {
          size,
          maxWidth: 70,
          lineHeight: 1.2,
          letterSpacing: 0,
          justify: 'center',
          anchor: 'center',
          offsetX: 0,
          offsetY: 0,
        });
        const outline = pointLabelRings(m, stack, layout, size, 0);
        expect(outline.length).toBeGreaterThan(0);
        for (const d of [1, 1.5, 2, 3]) {
          const halo = pointLabelRings(m, stack, layout, size, d);
          const grown = inflateRings(m, outline, d);
          const a = ringsArea(halo);
          const b = ringsArea(grown);
          expect(Math.abs(a - b)).toBeLessThan(1e-5 * b);
          const xor = polygonsArea(boolean(m, 'xor', scaled(halo), scaled(grown))) / 1e4;
          expect(xor).toBeLessThan(5e-5 * b);
          cases++;
        }
      }
    }
    expect(cases).toBe(80);
  });

  test("outline: the region Clipper2 unites from every glyph's own rings, in rings that do not overlap (overlapping glyphs too)", async () => {
    const m = await loadClipper();
    const stack = await dejavu();
    let cases = 0;
    // Negative letter spacing pushes the glyphs into one another; Å, Ä, é carry accents.
    for (const text of ['aeobgdpqAB&@%8', 'Åland Ärzte café', 'Kyrgyzstan']) {
      for (const size of [8, 12, 24]) {
        for (const letterSpacing of [0, -size / 3]) {
          const layout = layoutPoint(stack, text, {
            size,
            maxWidth: 0,
            lineHeight: 1.2,
            letterSpacing,
            justify: 'center',
            anchor: 'center',
            offsetX: 0,
            offsetY: 0,
          });
          const raw: Float64Array[] = [];
          for (let i = 0; i < layout.gids.length; i++) {
            const g = glyphRings(stack.fonts[layout.fonts[i]!]!, layout.gids[i]!, size);
            for (let k = 0; k < g.count; k++) raw.push(g.coords.slice(g.starts[k]!, g.starts[k + 1]!).map((v, j) => v + (j % 2 ? layout.y[i]! : layout.x[i]!)));
          }
          const witness = unionRings(m, raw);
          const outline = pointLabelRings(m, stack, layout, size, 0);
          const b = ringsArea(witness);
          // Rings that do not overlap: their signed areas add up to the region's area.
          expect(Math.abs(Math.abs(ringsArea(outline)) - Math.abs(b))).toBeLessThan(1e-5 * Math.abs(b));
          const xor = polygonsArea(boolean(m, 'xor', scaled(outline), scaled(witness))) / 1e4;
          expect(xor).toBeLessThan(5e-5 * Math.abs(b));
          cases++;
        }
      }
    }
    expect(cases).toBe(18);
  });

  test("a glyph's solid outline: its own rings where none overlaps, else their union", async () => {
    const m = await loadClipper();
    const stack = await dejavu();
    const font = stack.fonts[0]!;
    const gid = (ch: string) => stack.shape(ch).gids[0]!;
    const sized = new SizedGlyphs(font, 16, 0, m);
    // 'o' and 'B': a contour and its holes, as they are.
    for (const ch of ['o', 'B', 'l']) expect(sized.solid(gid(ch))).toBe(sized.get(gid(ch)));
    // Glyphs whose contours overlap (DejaVu Sans draws some accented letters that way): united.
    let united = 0;
    for (let g = 0; g < 400; g++) {
      const r = sized.get(g);
      const s = sized.solid(g);
      if (s === r) continue;
      united++;
      const rings = (x: typeof r) => Array.from({ length: x.count }, (_, k) => x.coords.slice(x.starts[k]!, x.starts[k + 1]!));
      const witness = unionRings(m, rings(r));
      expect(Math.abs(ringsArea(rings(s)) - ringsArea(witness))).toBeLessThan(1e-9);
      // Not the same rings again: contours that split or merge, or an overlap's area lost.
      expect(s.count !== r.count || Math.abs(Math.abs(ringsArea(rings(s))) - Math.abs(ringsArea(rings(r)))) > 1e-3).toBe(true);
    }
    expect(united).toBeGreaterThan(0);
  });

  test("a line label's outline: glyphs turned along a curve united where their turned boxes overlap, the region Clipper2 unites", async () => {
    const m = await loadClipper();
    const stack = await dejavu();
    let cases = 0;
    let apart = 0;
    for (const text of ['Kyrgyzstan café', 'Åland Ärzte']) {
      const line = stack.shape(text);
      const n = line.gids.length;
      for (const size of [10, 16]) {
        // Pens along a straight 45-degree line and along a tight arc, glyphs spaced by their
        // advances times `squeeze` (below 1 pushes them into each other).
        for (const [radius, squeeze] of [
          [Infinity, 1],
          [Infinity, 0.6],
          [3 * size, 1],
          [2 * size, 0.7],
        ] as const) {
          const x = new Float64Array(n);
          const y = new Float64Array(n);
          const cos = new Float64Array(n);
          const sin = new Float64Array(n);
          let s = 0;
          for (let i = 0; i < n; i++) {
            const t = radius === Infinity ? Math.PI / 4 : s / radius;
            x[i] = radius === Infinity ? 100 + s * Math.SQRT1_2 : 100 + radius * Math.sin(t);
            y[i] = radius === Infinity ? 100 + s * Math.SQRT1_2 : 100 - radius * Math.cos(t);
            cos[i] = Math.cos(t);
            sin[i] = Math.sin(t);
            s += line.advance[i]! * size * squeeze;
          }
          const g = { fonts: line.fonts, gids: line.gids, x, y, cos, sin };
          const raw: Float64Array[] = [];
          for (let i = 0; i < n; i++) {
            const r = glyphRings(stack.fonts[line.fonts[i]!]!, line.gids[i]!, size);
            for (let k = 0; k < r.count; k++) {
              const ring = r.coords.slice(r.starts[k]!, r.starts[k + 1]!);
              for (let j = 0; j < ring.length; j += 2) {
                const [u, v] = [ring[j]!, ring[j + 1]!];
                ring[j] = x[i]! + cos[i]! * u - sin[i]! * v;
                ring[j + 1] = y[i]! + sin[i]! * u + cos[i]! * v;
              }
              raw.push(ring);
            }
          }
          const witness = unionRings(m, raw);
          const out = lineLabelRings(m, stack, g, size, 0)!;
          const rings = Array.from({ length: out.count }, (_, k) => out.coords.slice(out.starts[k]!, out.starts[k + 1]!));
          const b = ringsArea(witness);
          expect(Math.abs(Math.abs(ringsArea(rings)) - Math.abs(b))).toBeLessThan(1e-5 * Math.abs(b));
          const xor = polygonsArea(boolean(m, 'xor', scaled(rings), scaled(witness))) / 1e4;
          expect(xor).toBeLessThan(5e-5 * Math.abs(b));
          // Rings copied as they are (no union) keep the glyphs' own vertex counts.
          if (out.starts[out.count] === raw.reduce((t, r) => t + r.length, 0)) apart++;
          cases++;
        }
      }
    }
    expect(cases).toBe(16);
    expect(apart).toBeGreaterThan(0);
    expect(apart).toBeLessThan(cases);
  });
});
