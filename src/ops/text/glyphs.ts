// Glyph outlines at a size: HarfBuzz's quadratic and cubic contours flattened into closed rings in
// pixels (origin on the baseline, y down), cached per font and size, bounded by bytes; each glyph's
// own overlapping contours united once (SizedGlyphs.solid), its halo grown from that union. A label
// unites only its glyphs that overlap each other (plan.ts).
import type { RingSet } from '../../backends/cpu/rasterize.js';
import { ringArea } from '../../geometry/clip.js';
import { type Clipper, inflateRings, unionRings } from '../../geometry/clipper.js';
import { emptyBox, growBox } from '../../geometry/measure.js';
import { ByteLru } from '../../util/byte-lru.js';
import { CLOSE, CUBIC, LINE, MOVE, QUAD, type TextFont } from './font.js';

/** Rings of one glyph (or its halo) in pixels from its origin, y down, with their box. */
export interface GlyphRings extends RingSet {
  /** [x0, y0, x1, y1] of every vertex, pixels from the origin. */
  box: [number, number, number, number];
  /** [x0, y0, x1, y1] of each ring's vertices (ring k at 4 k): the text kernel skips rings off the canvas. */
  ringBoxes: Float64Array;
  byteLength: number;
}

/**
 * Largest gap between a curve and the chords that replace it, pixels: with it the fill is FreeType's
 * exact covered area within 2/255 (witness.test.ts); 0.02 px would cost up to 7/255 on small text.
 */
export const FLATNESS = 0.005;
/** Bytes of sized glyph rings (outlines and halos) kept per font. */
const RINGS_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * A font's glyphs at one size (outlines) or one size and halo width, by glyph id: one entry of the
 * font's cache for all of them, so a label looks its glyphs up by number, not by a string key per
 * glyph. Entries are set again with the grown byte count as glyphs are added (the cache counts an
 * entry's bytes as they were when it was set).
 */
interface GlyphTable {
  rings: (GlyphRings | undefined)[];
  /** Outlines with their own overlapping contours united (SizedGlyphs.solid): the rings' own object where none overlaps. */
  solid: (GlyphRings | undefined)[];
  bytes: number;
}
interface TableEntry {
  table: GlyphTable;
  byteLength: number;
}

const caches = new WeakMap<TextFont, ByteLru<TableEntry>>();

function cacheOf(font: TextFont): ByteLru<TableEntry> {
  let c = caches.get(font);
  if (!c) caches.set(font, (c = new ByteLru<TableEntry>(RINGS_CACHE_BYTES)));
  return c;
}

/**
 * The rings of `font`'s glyphs at `size` px (the em), or their halos grown by `width` px with round
 * joins (width > 0; `clipper` needed then), by glyph id, computed on first use and cached per font
 * (RINGS_CACHE_BYTES, least recently used size out first).
 */
export class SizedGlyphs {
  private readonly cache: ByteLru<TableEntry>;
  private readonly key: string;
  private readonly table: GlyphTable;
  constructor(
    private readonly font: TextFont,
    private readonly size: number,
    private readonly width = 0,
    private readonly clipper?: Clipper,
  ) {
    this.cache = cacheOf(font);
    this.key = width > 0 ? `${size}|h${width}` : `${size}`;
    let e = this.cache.get(this.key);
    if (!e) {
      e = { table: { rings: [], solid: [], bytes: 64 }, byteLength: 64 };
      this.cache.set(this.key, e);
    }
    this.table = e.table;
  }

  /** Glyph `gid`'s rings (outline, or halo when width > 0). */
  get(gid: number): GlyphRings {
    const hit = this.table.rings[gid];
    return hit ?? this.compute(gid);
  }

  /**
   * Glyph `gid`'s outline (width 0; `clipper` needed) as rings that do not overlap one another: its
   * own rings where none does (a contour and its holes: almost every glyph of a static font; 379 of
   * DejaVu Sans's first 396), else their union (non-zero: an accent drawn over its letter), found
   * once per glyph and size. A label unites only the glyphs that overlap each other (plan.ts).
   */
  solid(gid: number): GlyphRings {
    const t = this.table;
    const hit = t.solid[gid];
    if (hit) return hit;
    const r = this.get(gid);
    let out = r;
    if (r.count > 1) {
      const rings: Float64Array[] = [];
      for (let k = 0; k < r.count; k++) rings.push(r.coords.subarray(r.starts[k]!, r.starts[k + 1]!));
      const united = unionRings(this.clipper!, rings);
      if (!sameRegion(rings, united)) {
        out = ringSet(united);
        t.bytes += out.byteLength;
        this.cache.set(this.key, { table: t, byteLength: t.bytes });
      }
    }
    t.solid[gid] = out;
    return out;
  }

  private compute(gid: number): GlyphRings {
    let r: GlyphRings;
    if (this.width > 0) {
      const g = new SizedGlyphs(this.font, this.size).get(gid);
      const rings: Float64Array[] = [];
      for (let k = 0; k < g.count; k++) rings.push(g.coords.subarray(g.starts[k]!, g.starts[k + 1]!));
      r = g.count ? ringSet(inflateRings(this.clipper!, rings, this.width)) : g;
    } else r = ringSet(flatten(this.font.outline(gid), this.size / this.font.upem));
    const t = this.table;
    t.rings[gid] = r;
    t.bytes += r.byteLength + 16;
    this.cache.set(this.key, { table: t, byteLength: t.bytes });
    return r;
  }
}

/**
 * Whether `united` (Clipper's non-zero union of `rings`) is `rings` again up to its rounding: as many
 * rings, covering the same area. Overlapping contours lose the overlap's area (or, a hole reaching
 * out of its contour, gain it) and crossing ones split: the margin, 1e-4 px times the outline's
 * length, is twice what rounding the vertices to 1e-4 px can change.
 */
function sameRegion(rings: Float64Array[], united: Float64Array[]): boolean {
  if (united.length !== rings.length) return false;
  let a = 0;
  let length = 0;
  for (const r of rings) {
    a += ringArea(r);
    for (let i = 0, n = r.length; i < n; i += 2) {
      const j = (i + 2) % n;
      length += Math.hypot(r[j]! - r[i]!, r[j + 1]! - r[i + 1]!);
    }
  }
  let b = 0;
  for (const r of united) b += ringArea(r);
  return Math.abs(Math.abs(a) - Math.abs(b)) <= 1e-4 * length;
}

const EMPTY: GlyphRings = {
  coords: new Float64Array(0),
  starts: new Int32Array(1),
  count: 0,
  box: [0, 0, 0, 0],
  ringBoxes: new Float64Array(0),
  byteLength: 64,
};

/** Build a GlyphRings from ring arrays (EMPTY when they hold no vertex). */
const ringSet = (rings: ArrayLike<number>[]): GlyphRings => (rings.some((r) => r.length) ? packRings(rings) : EMPTY);

/** Rings packed into one coordinate array, with their box, each ring's box and bytes (glyphs here, a label's united shape in plan.ts). */
export function packRings(rings: readonly ArrayLike<number>[]): GlyphRings {
  let n = 0;
  for (const r of rings) n += r.length;
  const coords = new Float64Array(n);
  const starts = new Int32Array(rings.length + 1);
  let at = 0;
  rings.forEach((r, k) => {
    starts[k] = at;
    coords.set(r, at);
    at += r.length;
  });
  starts[rings.length] = at;
  return ringsOf(coords, starts, rings.length);
}

/**
 * Rings added one by one into one packed GlyphRings (packRings' layout, boxes as ringsOf finds
 * them), without an array per ring: built in scratch buffers kept between labels (one packer at a
 * time: done() before the next is made), copied out once.
 */
export class RingPacker {
  private static coords = new Float64Array(4096);
  private static boxes = new Float64Array(256);
  private static starts = new Int32Array(65);
  private at = 0;
  private count = 0;

  private room(points: number): void {
    const P = RingPacker;
    if (this.at + points * 2 > P.coords.length) {
      const c = new Float64Array(Math.max(P.coords.length * 2, this.at + points * 2));
      c.set(P.coords.subarray(0, this.at));
      P.coords = c;
    }
    if ((this.count + 1) * 4 > P.boxes.length) {
      const b = new Float64Array(P.boxes.length * 2);
      b.set(P.boxes.subarray(0, this.count * 4));
      P.boxes = b;
      const s = new Int32Array(P.starts.length * 2);
      s.set(P.starts.subarray(0, this.count + 1));
      P.starts = s;
    }
  }

  /** A ring of n points: x at src[at + stride i], y right after; its box found while it is copied (growBox's). */
  readonly add = (src: Float64Array, at: number, n: number, stride: number): void => {
    this.room(n);
    const P = RingPacker;
    const c = P.coords;
    let o = this.at;
    P.starts[this.count] = o;
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (let i = 0, q = at; i < n; i++, q += stride, o += 2) {
      const x = src[q]!;
      const y = src[q + 1]!;
      c[o] = x;
      c[o + 1] = y;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    this.box(x0, y0, x1, y1);
    this.at = o;
  };

  /** Ring k of `set` as it is, with its box (set.ringBoxes). */
  ringOf(set: GlyphRings, k: number): void {
    const from = set.starts[k]!;
    const to = set.starts[k + 1]!;
    this.room((to - from) >> 1);
    const P = RingPacker;
    P.starts[this.count] = this.at;
    P.coords.set(set.coords.subarray(from, to), this.at);
    this.at += to - from;
    const b = set.ringBoxes;
    this.box(b[k * 4]!, b[k * 4 + 1]!, b[k * 4 + 2]!, b[k * 4 + 3]!);
  }

  private box(x0: number, y0: number, x1: number, y1: number): void {
    const b = RingPacker.boxes;
    const k = this.count * 4;
    b[k] = x0;
    b[k + 1] = y0;
    b[k + 2] = x1;
    b[k + 3] = y1;
    this.count++;
  }

  /** The rings added, packed (new arrays: the scratch buffers serve the next packer). */
  done(): GlyphRings {
    const P = RingPacker;
    const starts = P.starts.slice(0, this.count + 1);
    starts[this.count] = this.at;
    return ringsWithBoxes(P.coords.slice(0, this.at), starts, this.count, P.boxes.slice(0, this.count * 4));
  }
}

/**
 * A GlyphRings over packed rings: the box of every vertex and of each ring's (min and max are
 * exact, so the whole box is growBox's over all the coordinates, ring by ring or at once).
 */
export function ringsOf(coords: Float64Array, starts: Int32Array, count: number): GlyphRings {
  const ringBoxes = new Float64Array(count * 4);
  const rb = emptyBox();
  for (let k = 0; k < count; k++) {
    rb[0] = rb[1] = Infinity;
    rb[2] = rb[3] = -Infinity;
    growBox(rb, coords, starts[k]!, starts[k + 1]!);
    ringBoxes.set(rb, k * 4);
  }
  return ringsWithBoxes(coords, starts, count, ringBoxes);
}

/** A GlyphRings over packed rings whose boxes are known (`ringBoxes`, ring k at 4 k, growBox's of its vertices): ringsOf without reading the coordinates again. */
export function ringsWithBoxes(coords: Float64Array, starts: Int32Array, count: number, ringBoxes: Float64Array): GlyphRings {
  const box = emptyBox();
  for (let k = 0; k < count * 4; k += 4) {
    if (ringBoxes[k]! < box[0]) box[0] = ringBoxes[k]!;
    if (ringBoxes[k + 1]! < box[1]) box[1] = ringBoxes[k + 1]!;
    if (ringBoxes[k + 2]! > box[2]) box[2] = ringBoxes[k + 2]!;
    if (ringBoxes[k + 3]! > box[3]) box[3] = ringBoxes[k + 3]!;
  }
  return { coords, starts, count, box, ringBoxes, byteLength: 96 + coords.byteLength + starts.byteLength + ringBoxes.byteLength };
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
  return new SizedGlyphs(font, size).get(gid);
}

/** Glyph `gid` at `size` grown by `width` px with round joins: its halo alone (cached; line labels sum their glyphs' halos). */
export function haloRings(clipper: Clipper, font: TextFont, gid: number, size: number, width: number): GlyphRings {
  return new SizedGlyphs(font, size, width, clipper).get(gid);
}
