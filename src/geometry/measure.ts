// Whole-geometry measures on flat coordinate arrays: box, convex hull, centroids.
import { ringArea } from './clip.js';

/** Every vertex of some geometry, visited as (x, y). */
export type VertexVisitor = (visit: (x: number, y: number) => void) => void;

/** [x0, y0, x1, y1]: a box. */
export type Box = [number, number, number, number];

/** A box holding nothing: growBox makes it the box of what it is grown over. */
export const emptyBox = (): Box => [Infinity, Infinity, -Infinity, -Infinity];

/** Grows `box` (written in place, and returned) over the vertices of a flat x, y array, indices `from` to `to` (default: all). */
export function growBox(box: Box, c: ArrayLike<number>, from = 0, to = c.length): Box {
  let x0 = box[0],
    y0 = box[1],
    x1 = box[2],
    y1 = box[3];
  for (let k = from; k + 1 < to; k += 2) {
    const x = c[k]!,
      y = c[k + 1]!;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  box[0] = x0;
  box[1] = y0;
  box[2] = x1;
  box[3] = y1;
  return box;
}

/** The box of some rings, grown by `grow` on every side. */
export function boxOfRings(rings: readonly ArrayLike<number>[], grow = 0): Box {
  const b = emptyBox();
  for (const r of rings) growBox(b, r);
  return [b[0] - grow, b[1] - grow, b[2] + grow, b[3] + grow];
}

/** Whether two boxes meet (touching counts). */
export const overlap = (a: Box, b: Box): boolean => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

/** [x0, y0, x1, y1] of every visited vertex, or undefined when there is none. */
export function boxOf(each: VertexVisitor): [number, number, number, number] | undefined {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  each((x, y) => {
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  });
  return x0 <= x1 ? [x0, y0, x1, y1] : undefined;
}

/** The box as a ring clockwise on screen (positive area with y down); undefined when it has no area. */
export function boxRing(b: [number, number, number, number] | undefined): Float64Array | undefined {
  if (!b || b[0] === b[2] || b[1] === b[3]) return undefined;
  const [x0, y0, x1, y1] = b;
  return Float64Array.of(x0, y0, x1, y0, x1, y1, x0, y1);
}

/**
 * Convex hull by Andrew's monotone chain: the ring clockwise on screen (positive area with y down),
 * without collinear vertices; undefined when the points span no area.
 */
export function convexHull(all: ArrayLike<number>): Float64Array | undefined {
  const xy = aklToussaint(all);
  const n = xy.length >> 1;
  if (n < 3) return undefined;
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  idx.sort((a, b) => xy[a * 2]! - xy[b * 2]! || xy[a * 2 + 1]! - xy[b * 2 + 1]!);
  const hull = new Uint32Array(2 * n + 1);
  let k = 0;
  // Cross product of (o->a) x (o->b); > 0 when o, a, b turn clockwise on screen (y down).
  const cross = (o: number, a: number, b: number) =>
    (xy[a * 2]! - xy[o * 2]!) * (xy[b * 2 + 1]! - xy[o * 2 + 1]!) - (xy[a * 2 + 1]! - xy[o * 2 + 1]!) * (xy[b * 2]! - xy[o * 2]!);
  for (let i = 0; i < n; i++) {
    const p = idx[i]!;
    while (k >= 2 && cross(hull[k - 2]!, hull[k - 1]!, p) <= 0) k--;
    hull[k++] = p;
  }
  for (let i = n - 2, lower = k + 1; i >= 0; i--) {
    const p = idx[i]!;
    while (k >= lower && cross(hull[k - 2]!, hull[k - 1]!, p) <= 0) k--;
    hull[k++] = p;
  }
  k--; // the last point repeats the first
  if (k < 3) return undefined;
  const ring = new Float64Array(k * 2);
  for (let i = 0; i < k; i++) {
    ring[i * 2] = xy[hull[i]! * 2]!;
    ring[i * 2 + 1] = xy[hull[i]! * 2 + 1]!;
  }
  return ringArea(ring) > 0 ? ring : undefined;
}

/**
 * Akl–Toussaint: drop the points strictly inside the quadrilateral of the four extreme points
 * (leftmost, lowest, rightmost, highest); they cannot be on the hull, and on map data that is
 * most of them, so the sort that follows sees few points.
 */
function aklToussaint(xy: ArrayLike<number>): Float64Array {
  const n = xy.length >> 1;
  if (n < 8) return Float64Array.from(xy);
  let l = 0,
    r = 0,
    t = 0,
    b = 0;
  for (let i = 1; i < n; i++) {
    const x = xy[i * 2]!,
      y = xy[i * 2 + 1]!;
    if (x < xy[l * 2]!) l = i;
    if (x > xy[r * 2]!) r = i;
    if (y < xy[t * 2 + 1]!) t = i;
    if (y > xy[b * 2 + 1]!) b = i;
  }
  // Quadrilateral l -> t -> r -> b (x east, y south: clockwise on screen); inside = right of every edge.
  const q = [l, t, r, b].map((i) => [xy[i * 2]!, xy[i * 2 + 1]!] as const);
  const out = new Float64Array(xy.length);
  let w = 0;
  for (let i = 0; i < n; i++) {
    const x = xy[i * 2]!,
      y = xy[i * 2 + 1]!;
    let inside = true;
    for (let k = 0; k < 4 && inside; k++) {
      const [ax, ay] = q[k]!,
        [bx, by] = q[(k + 1) & 3]!;
      if ((bx - ax) * (y - ay) - (by - ay) * (x - ax) <= 0) inside = false;
    }
    if (!inside) {
      out[w++] = x;
      out[w++] = y;
    }
  }
  return out.subarray(0, w);
}

/**
 * Area centroid of polygons [exterior, ...holes] (holes subtract, whatever their winding: each
 * ring's signed area counts with the sign of its role). Undefined when the area is zero.
 */
export function polygonCentroid(polygons: readonly (readonly ArrayLike<number>[])[]): [number, number] | undefined {
  let A = 0,
    cx = 0,
    cy = 0;
  // Shift to the first vertex: keeps the products small at world-pixel coordinates.
  const first = polygons[0]?.[0];
  if (!first || first.length < 2) return undefined;
  const ox = first[0]!,
    oy = first[1]!;
  for (const poly of polygons) {
    poly.forEach((ring, k) => {
      let a = 0,
        x = 0,
        y = 0;
      const n = ring.length >> 1;
      for (let i = 0, j = n - 1; i < n; j = i++) {
        const xj = ring[j * 2]! - ox,
          yj = ring[j * 2 + 1]! - oy,
          xi = ring[i * 2]! - ox,
          yi = ring[i * 2 + 1]! - oy;
        const c = xj * yi - xi * yj;
        a += c;
        x += (xj + xi) * c;
        y += (yj + yi) * c;
      }
      // An exterior adds |area|, a hole removes it.
      const sign = (k === 0) === a > 0 ? 1 : -1;
      A += sign * a;
      cx += sign * x;
      cy += sign * y;
    });
  }
  if (A === 0) return undefined;
  return [ox + cx / (3 * A), oy + cy / (3 * A)];
}

/** Length-weighted centroid of polylines (each segment weighs its length at its midpoint); undefined when the length is zero. */
export function lineCentroid(lines: readonly ArrayLike<number>[]): [number, number] | undefined {
  let L = 0,
    cx = 0,
    cy = 0;
  for (const line of lines) {
    for (let i = 2; i + 1 < line.length; i += 2) {
      const ax = line[i - 2]!,
        ay = line[i - 1]!,
        bx = line[i]!,
        by = line[i + 1]!;
      const l = Math.hypot(bx - ax, by - ay);
      L += l;
      cx += l * (ax + bx) * 0.5;
      cy += l * (ay + by) * 0.5;
    }
  }
  return L > 0 ? [cx / L, cy / L] : undefined;
}

/** Whether (x, y) lies inside polygon [exterior, ...holes] (even-odd over its rings). */
export function insidePolygon(poly: readonly ArrayLike<number>[], x: number, y: number): boolean {
  let inside = false;
  for (const ring of poly) {
    const n = ring.length >> 1;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const xi = ring[i * 2]!,
        yi = ring[i * 2 + 1]!,
        xj = ring[j * 2]!,
        yj = ring[j * 2 + 1]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}
