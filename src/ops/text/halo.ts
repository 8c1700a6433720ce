// A point label's halo input: its united outline less the holes the halo fills whole. A counter
// ('e', 'a', 'o' at small sizes) narrower than twice the halo width closes up in the halo, but
// Clipper2's offset still shrinks it past nothing and sweeps the tangle that leaves (its raw
// offset crosses itself at every vertex): about half of a halo's CPU in the world example's
// names. Left out, the halo covers the same region. NOT bit for bit: the tangle's vertices are
// scanlines of Clipper's sweep, which clamps a rounded intersection into its scanbeam, so a few
// intersection vertices elsewhere on the halo move by 1e-4 px (docs/server.md, "Labels, ninth round").
import { ARC_TOLERANCE, MAX_ARC_TOLERANCE } from '../../geometry/clipper.js';

/**
 * Margin (pixels) between a hole's half width and the halo width, and between a hole and any
 * other ring: more than Clipper's largest arc gap (MAX_ARC_TOLERANCE) plus its 1e-4 px rounding.
 */
export const HOLE_MARGIN = MAX_ARC_TOLERANCE + 3 * ARC_TOLERANCE;

const boxOf = (r: Float64Array): [number, number, number, number] => {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i + 1 < r.length; i += 2) {
    const x = r[i]!;
    const y = r[i + 1]!;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return [x0, y0, x1, y1];
};

/** Twice the signed area (positive: an exterior, the project's winding). */
function area2(r: Float64Array): number {
  let a = 0;
  const n = r.length;
  for (let i = 0; i + 1 < n; i += 2) {
    const j = (i + 2) % n;
    a += r[i]! * r[j + 1]! - r[j]! * r[i + 1]!;
  }
  return a;
}

/** Squared distance from (px, py) to the segment (ax, ay) - (bx, by). */
function segDist2(ax: number, ay: number, bx: number, by: number, px: number, py: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const l = dx * dx + dy * dy;
  let t = l > 0 ? ((px - ax) * dx + (py - ay) * dy) / l : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const x = ax + t * dx - px;
  const y = ay + t * dy - py;
  return x * x + y * y;
}

const side = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) => Math.sign((qx - px) * (ry - py) - (qy - py) * (rx - px));

/** Whether segment a (a0 - a1) and segment b (b0 - b1) come within `e` of each other (they cross, or an end is within e of the other). */
function near(a: Float64Array, i: number, i2: number, b: Float64Array, j: number, j2: number, e2: number): boolean {
  const ax = a[i]!;
  const ay = a[i + 1]!;
  const bx = a[i2]!;
  const by = a[i2 + 1]!;
  const cx = b[j]!;
  const cy = b[j + 1]!;
  const dx = b[j2]!;
  const dy = b[j2 + 1]!;
  if (segDist2(ax, ay, bx, by, cx, cy) <= e2 || segDist2(ax, ay, bx, by, dx, dy) <= e2) return true;
  if (segDist2(cx, cy, dx, dy, ax, ay) <= e2 || segDist2(cx, cy, dx, dy, bx, by) <= e2) return true;
  return side(ax, ay, bx, by, cx, cy) * side(ax, ay, bx, by, dx, dy) < 0 && side(cx, cy, dx, dy, ax, ay) * side(cx, cy, dx, dy, bx, by) < 0;
}

/** Whether ring `o` comes within `e` of the hole `h` (box `hb`): only o's segments that reach hb grown by e are tested. */
function touches(h: Float64Array, hb: readonly number[], o: Float64Array, e: number): boolean {
  const e2 = e * e;
  const n = o.length;
  const m = h.length;
  for (let j = 0; j + 1 < n; j += 2) {
    const j2 = (j + 2) % n;
    const x0 = Math.min(o[j]!, o[j2]!);
    const x1 = Math.max(o[j]!, o[j2]!);
    const y0 = Math.min(o[j + 1]!, o[j2 + 1]!);
    const y1 = Math.max(o[j + 1]!, o[j2 + 1]!);
    if (x0 > hb[2]! + e || x1 < hb[0]! - e || y0 > hb[3]! + e || y1 < hb[1]! - e) continue;
    for (let i = 0; i + 1 < m; i += 2) if (near(h, i, (i + 2) % m, o, j, j2, e2)) return true;
  }
  return false;
}

/**
 * The rings a halo at `d` is grown from: `rings` (a label's united outline: exteriors positive,
 * holes negative) less every hole that the halo fills whole with room to spare (its box's smaller
 * side under 2 (d - HOLE_MARGIN): the disk a hole holds is no wider) and that keeps HOLE_MARGIN
 * from every other ring (its tangle then stays inside the halo, off its edges). The same array
 * when no hole goes.
 */
export function haloRings(rings: Float64Array[], d: number): Float64Array[] {
  let out: Float64Array[] | undefined;
  for (let i = 0; i < rings.length; i++) {
    const h = rings[i]!;
    if (area2(h) >= 0 || !vanishes(rings, i, d)) {
      out?.push(h);
      continue;
    }
    out ??= rings.slice(0, i);
  }
  return out ?? rings;
}

/** Whether hole i of `rings` closes up in a halo at d, clear of every other ring. */
function vanishes(rings: Float64Array[], i: number, d: number): boolean {
  const h = rings[i]!;
  const hb = boxOf(h);
  if (Math.min(hb[2] - hb[0], hb[3] - hb[1]) / 2 >= d - HOLE_MARGIN) return false;
  for (let j = 0; j < rings.length; j++) {
    if (j === i) continue;
    const o = rings[j]!;
    const ob = boxOf(o);
    if (ob[0] > hb[2] + HOLE_MARGIN || ob[2] < hb[0] - HOLE_MARGIN || ob[1] > hb[3] + HOLE_MARGIN || ob[3] < hb[1] - HOLE_MARGIN) continue;
    if (touches(h, hb, o, HOLE_MARGIN)) return false;
  }
  return true;
}
