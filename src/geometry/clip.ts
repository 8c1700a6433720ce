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
  const out = src.slice(0, m);
  // Keep the larger scratch arrays for the next clip, unless a huge ring made them.
  if (src.length <= CLIP_SCRATCH_KEEP && dst.length <= CLIP_SCRATCH_KEEP) {
    clipSrc = src;
    clipDst = dst;
  }
  return out;
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

/**
 * Clip a polyline to a rectangle. Returns the pieces inside, with flags (CUT_START, CUT_END and
 * the side each cut lies on: CUT_START_X... above); a cut end lies exactly on its side.
 */
export function clipLine(line: ArrayLike<number>, r: Rect): { line: Float64Array; cut: number }[] {
  const out: { line: Float64Array; cut: number }[] = [];
  let cur: number[] = [];
  let curCut = 0;
  const n = line.length / 2;
  const inside = (x: number, y: number) => x >= r.x0 && x <= r.x1 && y >= r.y0 && y <= r.y1;
  // The side flags (x side, y side) of a point on the rectangle's boundary, else none.
  const sideOf = (x: number, y: number, xBit: number, yBit: number) => (x === r.x0 || x === r.x1 ? xBit : y === r.y0 || y === r.y1 ? yBit : 0);
  const flush = (endCut: number) => {
    if (cur.length >= 4) out.push({ line: new Float64Array(cur), cut: curCut | endCut });
    cur = [];
    curCut = 0;
  };
  for (let i = 0; i < n - 1; i++) {
    const ax = line[i * 2]!;
    const ay = line[i * 2 + 1]!;
    const bx = line[i * 2 + 2]!;
    const by = line[i * 2 + 3]!;
    // Liang–Barsky; k0 / k1: the side (0 x0, 1 x1, 2 y0, 3 y1) that set t0 / t1.
    let t0 = 0;
    let t1 = 1;
    let k0 = -1;
    let k1 = -1;
    const dx = bx - ax;
    const dy = by - ay;
    const p = [-dx, dx, -dy, dy];
    const q = [ax - r.x0, r.x1 - ax, ay - r.y0, r.y1 - ay];
    let reject = false;
    for (let k = 0; k < 4; k++) {
      if (p[k] === 0) {
        // Parallel to side k: outside it, or lying on a max side (x1, y1). A segment on the edge
        // two tiles share is the lower tile's (their rects meet there), not drawn by both.
        if (q[k]! < 0 || (q[k] === 0 && (k === 1 || k === 3))) reject = true;
      } else {
        const t = q[k]! / p[k]!;
        if (p[k]! < 0) {
          if (t > t0) {
            t0 = t;
            k0 = k;
          }
        } else if (t < t1) {
          t1 = t;
          k1 = k;
        }
      }
    }
    if (reject || t0 > t1) {
      // The last point was on the boundary and the line leaves from there.
      if (cur.length) flush(CUT_END | sideOf(cur[cur.length - 2]!, cur[cur.length - 1]!, CUT_END_X, CUT_END_Y));
      continue;
    }
    let sx = ax + dx * t0;
    let sy = ay + dy * t0;
    let ex = ax + dx * t1;
    let ey = ay + dy * t1;
    // Cut points exactly on their side, so the pieces of neighbouring rectangles meet there.
    if (k0 >= 0) {
      if (k0 < 2) sx = k0 === 0 ? r.x0 : r.x1;
      else sy = k0 === 2 ? r.y0 : r.y1;
    }
    if (k1 >= 0 && t1 < 1) {
      if (k1 < 2) ex = k1 === 0 ? r.x0 : r.x1;
      else ey = k1 === 2 ? r.y0 : r.y1;
    }
    if (cur.length === 0) {
      cur.push(sx, sy);
      if (t0 > 0) curCut = CUT_START | (k0 < 2 ? CUT_START_X : CUT_START_Y);
      else curCut = inside(ax, ay) ? 0 : CUT_START;
    }
    cur.push(ex, ey);
    if (t1 < 1) flush(CUT_END | (k1 < 2 ? CUT_END_X : CUT_END_Y));
  }
  if (cur.length) flush(0);
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
