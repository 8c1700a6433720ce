// Glyph outlines at a size: HarfBuzz's quadratic and cubic contours flattened into closed rings in
// pixels (origin on the baseline, y down), cached per font and size, bounded by bytes. A label
// unites its glyphs' rings and grows its halo from that union (plan.ts).
import type { RingSet } from '../../backends/cpu/rasterize.js';
import { type Clipper, inflateRings } from '../../geometry/clipper.js';
import { emptyBox, growBox } from '../../geometry/measure.js';
import { ByteLru } from '../../util/byte-lru.js';
import { CLOSE, CUBIC, LINE, MOVE, QUAD, type TextFont } from './font.js';

/** Rings of one glyph (or its halo) in pixels from its origin, y down, with their box. */
export interface GlyphRings extends RingSet {
  /** [x0, y0, x1, y1] of every vertex, pixels from the origin. */
  box: [number, number, number, number];
  byteLength: number;
}

/**
 * Largest gap between a curve and the chords that replace it, pixels: with it the fill is FreeType's
 * exact covered area within 2/255 (witness.test.ts); 0.02 px would cost up to 7/255 on small text.
 */
export const FLATNESS = 0.005;
/** Bytes of sized glyph rings (outlines and halos) kept per font. */
const RINGS_CACHE_BYTES = 16 * 1024 * 1024;

const caches = new WeakMap<TextFont, ByteLru<GlyphRings>>();

function cacheOf(font: TextFont): ByteLru<GlyphRings> {
  let c = caches.get(font);
  if (!c) caches.set(font, (c = new ByteLru<GlyphRings>(RINGS_CACHE_BYTES)));
  return c;
}

const EMPTY: GlyphRings = { coords: new Float64Array(0), starts: new Int32Array(1), count: 0, box: [0, 0, 0, 0], byteLength: 64 };

/** Build a GlyphRings from ring arrays (EMPTY when they hold no vertex). */
const ringSet = (rings: ArrayLike<number>[]): GlyphRings => (rings.some((r) => r.length) ? packRings(rings) : EMPTY);

/** Rings packed into one coordinate array, with their box and bytes (glyphs here, a label's united shape in plan.ts). */
export function packRings(rings: readonly ArrayLike<number>[]): GlyphRings {
  let n = 0;
  for (const r of rings) n += r.length;
  const coords = new Float64Array(n);
  const starts = new Int32Array(rings.length + 1);
  const box = emptyBox();
  let at = 0;
  rings.forEach((r, k) => {
    starts[k] = at;
    coords.set(r, at);
    growBox(box, r);
    at += r.length;
  });
  starts[rings.length] = at;
  return { coords, starts, count: rings.length, box, byteLength: 96 + coords.byteLength + starts.byteLength };
}

/**
 * Flatten path commands (font units, y up) at `scale` pixels per unit into rings (pixels, y down).
 * A quadratic's chords stray at most |p0 - 2 p1 + p2| / (8 n^2) from it, a cubic's
 * 3 max(|p0 - 2 p1 + p2|, |p1 - 2 p2 + p3|) / (4 n^2): n is the fewest segments within FLATNESS.
 */
export function flatten(cmds: Float32Array, scale: number): number[][] {
  const rings: number[][] = [];
  let ring: number[] = [];
  let x = 0;
  let y = 0;
  const end = () => {
    // A closing vertex equal to the first is implied by the rasterizers.
    if (ring.length >= 4 && ring[0] === ring[ring.length - 2] && ring[1] === ring[ring.length - 1]) ring.length -= 2;
    if (ring.length >= 6) rings.push(ring);
    ring = [];
  };
  for (let i = 0; i < cmds.length; ) {
    const op = cmds[i++]!;
    if (op === MOVE) {
      end();
      x = cmds[i++]! * scale;
      y = -cmds[i++]! * scale;
      ring.push(x, y);
    } else if (op === LINE) {
      x = cmds[i++]! * scale;
      y = -cmds[i++]! * scale;
      ring.push(x, y);
    } else if (op === QUAD) {
      const cx = cmds[i++]! * scale;
      const cy = -cmds[i++]! * scale;
      const ex = cmds[i++]! * scale;
      const ey = -cmds[i++]! * scale;
      const dd = Math.hypot(x - 2 * cx + ex, y - 2 * cy + ey);
      const n = Math.max(1, Math.ceil(Math.sqrt(dd / (8 * FLATNESS))));
      for (let k = 1; k <= n; k++) {
        const t = k / n;
        const u = 1 - t;
        ring.push(u * u * x + 2 * u * t * cx + t * t * ex, u * u * y + 2 * u * t * cy + t * t * ey);
      }
      x = ex;
      y = ey;
    } else if (op === CUBIC) {
      const c1x = cmds[i++]! * scale;
      const c1y = -cmds[i++]! * scale;
      const c2x = cmds[i++]! * scale;
      const c2y = -cmds[i++]! * scale;
      const ex = cmds[i++]! * scale;
      const ey = -cmds[i++]! * scale;
      const dd = Math.max(Math.hypot(x - 2 * c1x + c2x, y - 2 * c1y + c2y), Math.hypot(c1x - 2 * c2x + ex, c1y - 2 * c2y + ey));
      const n = Math.max(1, Math.ceil(Math.sqrt((3 * dd) / (4 * FLATNESS))));
      for (let k = 1; k <= n; k++) {
        const t = k / n;
        const u = 1 - t;
        const a = u * u * u;
        const b = 3 * u * u * t;
        const c = 3 * u * t * t;
        const d = t * t * t;
        ring.push(a * x + b * c1x + c * c2x + d * ex, a * y + b * c1y + c * c2y + d * ey);
      }
      x = ex;
      y = ey;
    } else if (op === CLOSE) {
      end();
    } else {
      throw new Error(`unknown outline command ${op}`);
    }
  }
  end();
  return rings;
}

/** Glyph `gid` of `font` at `size` px (the em), flattened (cached). */
export function glyphRings(font: TextFont, gid: number, size: number): GlyphRings {
  const cache = cacheOf(font);
  const key = `${gid}|${size}`;
  let r = cache.get(key);
  if (!r) {
    r = ringSet(flatten(font.outline(gid), size / font.upem));
    cache.set(key, r);
  }
  return r;
}

/** Glyph `gid` at `size` grown by `width` px with round joins: its halo alone (cached; line labels sum their glyphs' halos). */
export function haloRings(clipper: Clipper, font: TextFont, gid: number, size: number, width: number): GlyphRings {
  const cache = cacheOf(font);
  const key = `${gid}|${size}|h${width}`;
  let r = cache.get(key);
  if (!r) {
    const g = glyphRings(font, gid, size);
    const rings: Float64Array[] = [];
    for (let k = 0; k < g.count; k++) rings.push(g.coords.subarray(g.starts[k]!, g.starts[k + 1]!));
    r = g.count && width > 0 ? ringSet(inflateRings(clipper, rings, width)) : g;
    cache.set(key, r);
  }
  return r;
}
