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
 * Clip a polyline to a rectangle. Returns the pieces inside, with flags: bit 0 = the start was
 * made by the clip, bit 1 = the end was (strokes draw no cap there).
 */
export function clipLine(line: ArrayLike<number>, r: Rect): { line: Float64Array; cut: number }[] {
  const out: { line: Float64Array; cut: number }[] = [];
  let cur: number[] = [];
  let curCut = 0;
  const n = line.length / 2;
  const inside = (x: number, y: number) => x >= r.x0 && x <= r.x1 && y >= r.y0 && y <= r.y1;
  const flush = (endCut: boolean) => {
    if (cur.length >= 4) out.push({ line: new Float64Array(cur), cut: curCut | (endCut ? 2 : 0) });
    cur = [];
    curCut = 0;
  };
  for (let i = 0; i < n - 1; i++) {
    const ax = line[i * 2]!;
    const ay = line[i * 2 + 1]!;
    const bx = line[i * 2 + 2]!;
    const by = line[i * 2 + 3]!;
    // Liang–Barsky.
    let t0 = 0;
    let t1 = 1;
    const dx = bx - ax;
    const dy = by - ay;
    const p = [-dx, dx, -dy, dy];
    const q = [ax - r.x0, r.x1 - ax, ay - r.y0, r.y1 - ay];
    let reject = false;
    for (let k = 0; k < 4; k++) {
      if (p[k] === 0) {
        if (q[k]! < 0) reject = true;
      } else {
        const t = q[k]! / p[k]!;
        if (p[k]! < 0) t0 = Math.max(t0, t);
        else t1 = Math.min(t1, t);
      }
    }
    if (reject || t0 > t1) {
      if (cur.length) flush(true);
      continue;
    }
    const sx = ax + dx * t0;
    const sy = ay + dy * t0;
    const ex = ax + dx * t1;
    const ey = ay + dy * t1;
    if (cur.length === 0) {
      cur.push(sx, sy);
      curCut = t0 > 0 || !inside(ax, ay) ? 1 : 0;
    }
    cur.push(ex, ey);
    if (t1 < 1) flush(true);
  }
  if (cur.length) flush(false);
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
