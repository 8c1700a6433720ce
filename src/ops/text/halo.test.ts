// A point label's halo is the union of its glyphs' own halos moved to their pens (plan.ts
// pointLabelRings). Witness: Clipper2 itself, uniting the label's outline and growing it by the halo
// width in one offset (inflateRings: UnionSelfD, then InflatePathsD, round joins): both must cover the same region, up to Clipper's
// 1e-4 px rounding of the vertices (their symmetric difference, Clipper2's xor on the same grid).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { boolean, inflateRings, loadClipper } from '../../geometry/clipper.js';
import { loadTextFont } from './font.js';
import { layoutPoint } from './layout.js';
import { pointLabelRings } from './plan.js';
import { FontStack } from './shape.js';

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
    const file = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
    const stack = new FontStack([await loadTextFont('dejavu', new Uint8Array(readFileSync(file)))]);
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
});
