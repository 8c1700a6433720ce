// The holes a halo fills whole, left out of its offset (halo.ts). Witness: Clipper2 itself: the halo
// grown from the rings kept covers the same region as the halo grown from every ring (their
// symmetric difference, Clipper2's xor, has no area above 1e-6 px^2), for glyphs of DejaVu Sans at
// sizes 6 to 16 px and halo widths 1 to 3 px.
import { boolean, inflateUnited, loadClipper, unionRings } from '../../geometry/clipper.js';
import { ringArea } from '../../geometry/clip.js';
import { flatten } from './glyphs.js';
import { haloRings, HOLE_MARGIN } from './halo.js';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadTextFont } from './font.js';
import { FontStack } from './shape.js';

/** An axis-aligned rectangle ring, clockwise on screen (positive) or a hole (negative). */
const rect = (x0: number, y0: number, x1: number, y1: number, hole = false) =>
  hole ? Float64Array.of(x0, y0, x0, y1, x1, y1, x1, y0) : Float64Array.of(x0, y0, x1, y0, x1, y1, x0, y1);

describe('halo rings', () => {
  test('a hole narrower than twice the halo width less the margin goes; a wider one, or one near another ring, stays', () => {
    const outer = rect(0, 0, 20, 20);
    expect(ringArea(outer)).toBeGreaterThan(0);
    const narrow = rect(5, 5, 7.8, 15, true); // 2.8 px wide
    expect(ringArea(narrow)).toBeLessThan(0);
    expect(haloRings([outer, narrow], 1.5)).toEqual([outer]);
    expect(haloRings([outer, narrow], 1.4 + HOLE_MARGIN)).toEqual([outer, narrow]);
    const wide = rect(5, 5, 9, 15, true);
    expect(haloRings([outer, wide], 1.5)).toEqual([outer, wide]);
    // Another ring 0.02 px from the hole: kept (its tangle could reach that ring's halo edges).
    const island = rect(7.82, 8, 9, 9);
    expect(haloRings([outer, narrow, island], 1.5)).toEqual([outer, narrow, island]);
    const rings = [outer, wide];
    expect(haloRings(rings, 1)).toBe(rings);
  });

  test('the halo covers the same region without the holes it fills (Clipper2 xor), DejaVu Sans 6-16 px, halo 1-3 px', async () => {
    const m = await loadClipper();
    const file = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
    const stack = new FontStack([await loadTextFont('dejavu', new Uint8Array(readFileSync(file)))]);
    const font = stack.primary;
    const line = stack.shape('aeobgdpqAB&@%8');
    let dropped = 0;
    for (const size of [6, 8, 10, 12, 16]) {
      const rings: Float64Array[] = [];
      let pen = 0;
      for (let i = 0; i < line.gids.length; i++) {
        for (const r of flatten(font.outline(line.gids[i]!), size / font.upem)) {
          const f = Float64Array.from(r);
          for (let k = 0; k < f.length; k += 2) f[k] = f[k]! + pen;
          rings.push(f);
        }
        pen += line.advance[i]! * size;
      }
      const united = unionRings(m, rings);
      for (const d of [1, 1.5, 2, 3]) {
        const kept = haloRings(united, d);
        dropped += united.length - kept.length;
        const all = inflateUnited(m, united, d);
        const less = inflateUnited(m, kept, d);
        const xor = boolean(m, 'xor', all, less);
        const area = xor.reduce((s, p) => s + p.reduce((t, r) => t + Math.abs(ringArea(r)), 0), 0);
        expect(area).toBeLessThan(1e-6);
      }
    }
    expect(dropped).toBeGreaterThan(20);
  });
});
