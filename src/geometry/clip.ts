// Clipping of flat coordinate arrays to an axis-aligned rectangle.

export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Sutherland–Hodgman clip of a closed ring (flat [x,y,...], not repeating the first point). */
export function clipRing(ring: ArrayLike<number>, r: Rect): Float64Array {
  let pts: number[] = Array.from(ring);
  // Drop an explicit closing point.
  const n0 = pts.length;
  if (n0 >= 4 && pts[0] === pts[n0 - 2] && pts[1] === pts[n0 - 1]) pts = pts.slice(0, n0 - 2);
  const edges: [number, number, number][] = [
    [0, r.x0, 1], // x >= x0
    [0, r.x1, -1], // x <= x1
    [1, r.y0, 1],
    [1, r.y1, -1],
  ];
  for (const [axis, v, sign] of edges) {
    const n = pts.length / 2;
    if (n === 0) break;
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const ax = pts[((i + n - 1) % n) * 2]!;
      const ay = pts[((i + n - 1) % n) * 2 + 1]!;
      const bx = pts[i * 2]!;
      const by = pts[i * 2 + 1]!;
      const a = axis === 0 ? ax : ay;
      const b = axis === 0 ? bx : by;
      const aIn = (a - v) * sign >= 0;
      const bIn = (b - v) * sign >= 0;
      if (aIn !== bIn) {
        const t = (v - a) / (b - a);
        out.push(ax + (bx - ax) * t, ay + (by - ay) * t);
      }
      if (bIn) out.push(bx, by);
    }
    pts = out;
  }
  return new Float64Array(pts);
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
