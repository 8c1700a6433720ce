// Clipping of flat coordinate arrays to an axis-aligned rectangle.

export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Two scratch arrays the passes of clipRing ping-pong between (grown as needed; one clip at a time). */
let clipSrc = new Float64Array(2048);
let clipDst = new Float64Array(2048);
/** Scratch past this many values is not kept between calls (a huge ring's arrays are dropped). */
const CLIP_SCRATCH_KEEP = 1 << 20;

/**
 * Sutherland–Hodgman clip of a closed ring (flat [x,y,...], not repeating the first point) to a
 * rectangle: x >= x0, x <= x1, y >= y0, y <= y1 in that order, each edge's crossing at
 * a + (b - a) * t. The passes run in two reused Float64Arrays (they were number[]s grown by push:
 * ~1 MB of garbage per uncached world tile, issue 25); same points in the same order.
 */
export function clipRing(ring: ArrayLike<number>, r: Rect): Float64Array {
  const c = clipRingScratch(ring, r);
  return c.out.slice(0, c.length);
}

/** clipRingScratch's answer, reused (valid until the next clip). */
const ringClip = { out: clipSrc, length: 0 };

/**
 * clipRing's passes with the clipped ring left in a scratch array: its first `length` values,
 * valid until the next clip (the caller copies them where they are kept: src/sources/sample.ts
 * writes them into one buffer per sampled canvas instead of an array per ring).
 */
export function clipRingScratch(ring: ArrayLike<number>, r: Rect): { readonly out: Float64Array; readonly length: number } {
  let len = ring.length;
  // Drop an explicit closing point.
  if (len >= 4 && ring[0] === ring[len - 2] && ring[1] === ring[len - 1]) len -= 2;
  // Each pass at most doubles the points (a crossing per edge of the ring).
  let src = clipSrc.length >= len ? clipSrc : new Float64Array(len);
  for (let i = 0; i < len; i++) src[i] = ring[i]!;
  let dst = clipDst;
  let m = len;
  for (let e = 0; e < 4 && m > 0; e++) {
    if (dst.length < 2 * m) dst = new Float64Array(2 * m);
    m = clipPass(src, m >> 1, dst, e < 2 ? 0 : 1, e === 0 ? r.x0 : e === 1 ? r.x1 : e === 2 ? r.y0 : r.y1, e & 1 ? -1 : 1);
    const t = src;
    src = dst;
    dst = t;
  }
  // Keep the larger scratch arrays for the next clip, unless a huge ring made them (the answer
  // still reads this one's).
  if (src.length <= CLIP_SCRATCH_KEEP && dst.length <= CLIP_SCRATCH_KEEP) {
    clipSrc = src;
    clipDst = dst;
  }
  ringClip.out = src;
  ringClip.length = m;
  return ringClip;
}

/** One Sutherland–Hodgman pass of `n` points against `axis` (0 x, 1 y) on the side `(p - v) * sign >= 0`: values written to `dst`. */
function clipPass(src: Float64Array, n: number, dst: Float64Array, axis: 0 | 1, v: number, sign: number): number {
  let m = 0;
  let ax = src[2 * n - 2]!;
  let ay = src[2 * n - 1]!;
  let aIn = ((axis === 0 ? ax : ay) - v) * sign >= 0;
  for (let i = 0; i < 2 * n; i += 2) {
    const bx = src[i]!;
    const by = src[i + 1]!;
    const b = axis === 0 ? bx : by;
    const bIn = (b - v) * sign >= 0;
    if (aIn !== bIn) {
      const a = axis === 0 ? ax : ay;
      const t = (v - a) / (b - a);
      dst[m++] = ax + (bx - ax) * t;
      dst[m++] = ay + (by - ay) * t;
    }
    if (bIn) {
      dst[m++] = bx;
      dst[m++] = by;
    }
    ax = bx;
    ay = by;
    aIn = bIn;
  }
  return m;
}

/**
 * Line end flags (FeatureGroup.cutEnds): the start / end was made by clipping (no cap is drawn
 * there), and for such an end, the side of the clip rectangle it lies on: a vertical side
 * (x = the end's x) or a horizontal one (y = the end's y). Strokes use the side to end the piece
 * exactly on the cut line (src/geometry/stroke.ts, Stroker.line), so the pieces of a line split
 * between source tiles meet along the tile edge. Producers that do not know the side set only
 * CUT_START / CUT_END.
 */
export const CUT_START = 1;
export const CUT_END = 2;
export const CUT_START_X = 4;
export const CUT_END_X = 8;
export const CUT_START_Y = 16;
export const CUT_END_Y = 32;
/** The flags of the start (CUT_START and its side), and of the end. */
export const CUT_START_BITS = CUT_START | CUT_START_X | CUT_START_Y;
export const CUT_END_BITS = CUT_END | CUT_END_X | CUT_END_Y;

/** The cut line of a line end from its flags: 0 none or unknown, 1 vertical (x = the end's x), 2 horizontal. */
export function cutAxis(cut: number, end: boolean): 0 | 1 | 2 {
  if (end) return (cut & CUT_END) === 0 ? 0 : cut & CUT_END_X ? 1 : cut & CUT_END_Y ? 2 : 0;
  return (cut & CUT_START) === 0 ? 0 : cut & CUT_START_X ? 1 : cut & CUT_START_Y ? 2 : 0;
}

/** The scratch array clipLine collects a piece in (grown as needed; one clip at a time). */
let pieceBuf = new Float64Array(1024);

/** Liang–Barsky's span of one segment: [t0, t1, k0, k1] (segmentSpan writes it; scratch, so a segment allocates nothing). */
export const span = new Float64Array(4);

/**
 * Clips segment (ax, ay) + t (dx, dy), t in [0, 1], to the rectangle: false when it is rejected,
 * else its span [t0, t1] in `span` with k0 / k1, the side (0 x0, 1 x1, 2 y0, 3 y1) that set each
 * (-1: none). The four sides are written out, in the order x0, x1, y0, y1, on purpose: one
 * helper per side, its span in module variables, made clipLine ~30% slower (CPU, A/B).
 */
export function segmentSpan(ax: number, ay: number, dx: number, dy: number, x0: number, y0: number, x1: number, y1: number): boolean {
  // Liang–Barsky; k0 / k1: the side (0 x0, 1 x1, 2 y0, 3 y1) that set t0 / t1. Per side k with
  // p = (-dx, dx, -dy, dy)[k], q = (ax - x0, x1 - ax, ay - y0, y1 - ay)[k]: parallel (p = 0) and
  // outside it (q < 0), or lying on a max side (q = 0 for x1, y1: a segment on the edge two
  // tiles share is the lower tile's, their rects meet there), rejects the segment; else t = q / p
  // raises t0 (p < 0) or lowers t1 (p > 0).
  let t0 = 0;
  let t1 = 1;
  let k0 = -1;
  let k1 = -1;
  let reject = false;
  let p = -dx;
  let q = ax - x0;
  let t: number;
  if (p === 0) {
    if (q < 0) reject = true;
  } else {
    t = q / p;
    if (p < 0) {
      if (t > t0) {
        t0 = t;
        k0 = 0;
      }
    } else if (t < t1) {
      t1 = t;
      k1 = 0;
    }
  }
  p = dx;
  q = x1 - ax;
  if (p === 0) {
    if (q < 0 || q === 0) reject = true;
  } else {
    t = q / p;
    if (p < 0) {
      if (t > t0) {
        t0 = t;
        k0 = 1;
      }
    } else if (t < t1) {
      t1 = t;
      k1 = 1;
    }
  }
  p = -dy;
  q = ay - y0;
  if (p === 0) {
    if (q < 0) reject = true;
  } else {
    t = q / p;
    if (p < 0) {
      if (t > t0) {
        t0 = t;
        k0 = 2;
      }
    } else if (t < t1) {
      t1 = t;
      k1 = 2;
    }
  }
  p = dy;
  q = y1 - ay;
  if (p === 0) {
    if (q < 0 || q === 0) reject = true;
  } else {
    t = q / p;
    if (p < 0) {
      if (t > t0) {
        t0 = t;
        k0 = 3;
      }
    } else if (t < t1) {
      t1 = t;
      k1 = 3;
    }
  }
  span[0] = t0;
  span[1] = t1;
  span[2] = k0;
  span[3] = k1;
  return !(reject || t0 > t1);
}

/**
 * Clip a polyline to a rectangle. Returns the pieces inside, with flags (CUT_START, CUT_END and
 * the side each cut lies on: CUT_START_X... above); a cut end lies exactly on its side.
 * Liang–Barsky per segment (segmentSpan: the four sides written out, no p / q arrays), and the piece
 * collected in a reused Float64Array (it was two arrays per segment and a number[] grown by push:
 * most of the garbage of sampling vector tiles, issue 25); the same points and flags, bit for bit,
 * as the plain loop kept in clip.test.ts.
 */
export function clipLine(line: ArrayLike<number>, r: Rect, length = line.length): { line: Float64Array; cut: number }[] {
  const out: { line: Float64Array; cut: number }[] = [];
  const x0 = r.x0,
    y0 = r.y0,
    x1 = r.x1,
    y1 = r.y1;
  // A piece holds at most one point per input point (its start, then one per segment).
  const cur = pieceBuf.length >= length ? pieceBuf : (pieceBuf = new Float64Array(length));
  let m = 0;
  let curCut = 0;
  const n = length / 2;
  for (let i = 0; i < n - 1; i++) {
    const ax = line[i * 2]!;
    const ay = line[i * 2 + 1]!;
    const bx = line[i * 2 + 2]!;
    const by = line[i * 2 + 3]!;
    const dx = bx - ax;
    const dy = by - ay;
    if (m !== 0 && bx > x0 && bx < x1 && by > y0 && by < y1 && ax > x0 && ax < x1 && ay > y0 && ay < y1) {
      // Both ends strictly inside, the piece going on: every side's q is > 0, so no side rejects
      // or cuts (t0 stays 0, t1 stays 1: p > 0 has q > p, q / p >= 1), and the end is a + d 1.
      cur[m++] = ax + dx;
      cur[m++] = ay + dy;
      continue;
    }
    if (!segmentSpan(ax, ay, dx, dy, x0, y0, x1, y1)) {
      // The last point was on the boundary and the line leaves from there: the end's side flag
      // (x side, y side) from where that point lies.
      if (m) {
        const x = cur[m - 2]!,
          y = cur[m - 1]!;
        if (m >= 4) out.push({ line: cur.slice(0, m), cut: curCut | CUT_END | (x === x0 || x === x1 ? CUT_END_X : y === y0 || y === y1 ? CUT_END_Y : 0) });
        m = 0;
        curCut = 0;
      }
      continue;
    }
    const t0 = span[0]!,
      t1 = span[1]!,
      k0 = span[2]!,
      k1 = span[3]!;
    let sx = ax + dx * t0;
    let sy = ay + dy * t0;
    let ex = ax + dx * t1;
    let ey = ay + dy * t1;
    // Cut points exactly on their side, so the pieces of neighbouring rectangles meet there.
    if (k0 >= 0) {
      if (k0 < 2) sx = k0 === 0 ? x0 : x1;
      else sy = k0 === 2 ? y0 : y1;
    }
    if (k1 >= 0 && t1 < 1) {
      if (k1 < 2) ex = k1 === 0 ? x0 : x1;
      else ey = k1 === 2 ? y0 : y1;
    }
    if (m === 0) {
      cur[m++] = sx;
      cur[m++] = sy;
      if (t0 > 0) curCut = CUT_START | (k0 < 2 ? CUT_START_X : CUT_START_Y);
      else curCut = ax >= x0 && ax <= x1 && ay >= y0 && ay <= y1 ? 0 : CUT_START;
    }
    cur[m++] = ex;
    cur[m++] = ey;
    if (t1 < 1) {
      if (m >= 4) out.push({ line: cur.slice(0, m), cut: curCut | CUT_END | (k1 < 2 ? CUT_END_X : CUT_END_Y) });
      m = 0;
      curCut = 0;
    }
  }
  if (m >= 4) out.push({ line: cur.slice(0, m), cut: curCut });
  // A huge line's scratch is not kept.
  if (pieceBuf.length > 1 << 20) pieceBuf = new Float64Array(1024);
  return out;
}

/** Shoelace area with y down: positive for rings clockwise on screen. */
export function ringArea(ring: ArrayLike<number>): number {
  let s = 0;
  const n = ring.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) s += ring[j * 2]! * ring[i * 2 + 1]! - ring[i * 2]! * ring[j * 2 + 1]!;
  return s / 2;
}

export function reverseRing(ring: Float64Array): Float64Array {
  const n = ring.length / 2;
  const out = new Float64Array(ring.length);
  for (let i = 0; i < n; i++) {
    out[i * 2] = ring[(n - 1 - i) * 2]!;
    out[i * 2 + 1] = ring[(n - 1 - i) * 2 + 1]!;
  }
  return out;
}

/** Group rings into polygons by winding (positive = exterior), forcing the orientation convention. */
export function classifyRings(rings: Float64Array[]): Float64Array[][] {
  const polys: Float64Array[][] = [];
  let current: Float64Array[] | undefined;
  for (const ring of rings) {
    if (ring.length < 6) continue;
    const a = ringArea(ring);
    if (a === 0) continue;
    if (a > 0 || !current) {
      current = [a > 0 ? ring : reverseRing(ring)];
      polys.push(current);
    } else {
      current.push(ring);
    }
  }
  return polys;
}
