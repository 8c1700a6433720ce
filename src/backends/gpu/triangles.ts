// CPU side of GPU fills and strokes (drawn by ./area.ts): shapes in paint order, each a set of
// signed triangles with one premultiplied colour, and the 16 px screen bins each shape reaches.
//
// The exact-area coverage of a set of rings is the integral of their winding number over the
// pixel, which is additive: any set of triangles whose signed winding sums to the rings' gives
// the same coverage. Polygons go through earcut (no overlap, so no overdraw); when earcut's area
// differs from the rings' signed area (self-intersections, holes outside their exterior) the
// rings are fanned from their first vertex instead, which is exact for any closed ring. Convex
// rings (every stroke piece) are fanned directly: that is the triangulation earcut would make.
import earcut, { deviation } from 'earcut';
import type { RingSet } from '../cpu/rasterize.js';
import type { FeatureGroup } from '../../types.js';
import { BIN } from './shapes.js';

/** Floats per triangle in `tris`: x0, y0, x1, y1, x2, y2 (canvas pixels), the shape (u32 bits), 0. */
export const TRI_FLOATS = 8;

/**
 * How a polygon or ring was triangulated, kept for rings that never change (feature polygons,
 * a text label's cached outline): earcut's vertex indices with the sign they were drawn with,
 * or a fan. Triangulating is most of the CPU time of a fill on the GPU path (earcut costs more
 * than the CPU backend's scanline fill), and the same rings come again: a style that fills one
 * features node twice (world: the shadow's shape and the land), a tile rendered again (features
 * of a window are cached), a label in every tile it reaches. The triangles are made again from
 * the current coordinates and shift, so only earcut's choice of diagonals is reused: any
 * triangulation of the rings gives the same exact-area coverage.
 */
interface Triangulation {
  /** Floats of the shifted copy (non-finite vertices end a ring early); a different count is a miss. */
  n: number;
  /** Earcut's indices, or undefined: fanned. */
  idx?: readonly number[];
  /** The sign the triangles were given (earcut) relative to the ring's winding. */
  sign: number;
  /** A polygon with holes: its rings and their windings, which must be the same objects again. */
  rings?: readonly ArrayLike<number>[];
  windings?: readonly number[];
}

/** By the polygon's first ring (a feature polygon) or by a ring set's coords and ring index (a cached label outline). */
const triangulations = new WeakMap<object, Triangulation | Map<number, Triangulation>>();
/** Triangulations made and kept, and reused instead of triangulating again (this thread, since it started). */
export const triangulationCounts = { kept: 0, reused: 0 };
/** Rings under this many floats are not worth an entry (a quad is fanned faster than looked up). */
const CACHE_MIN_FLOATS = 16;

function cachedOf(key: object, k: number): Triangulation | undefined {
  const e = triangulations.get(key);
  return e instanceof Map ? e.get(k) : k === 0 && e && !(e instanceof Map) ? e : undefined;
}

function remember(key: object, k: number, t: Triangulation): void {
  triangulationCounts.kept++;
  if (k === 0 && !triangulations.has(key)) {
    triangulations.set(key, t);
    return;
  }
  let e = triangulations.get(key);
  if (!(e instanceof Map)) {
    const m = new Map<number, Triangulation>();
    if (e) m.set(0, e);
    triangulations.set(key, (e = m));
  }
  e.set(k, t);
}

export class ShapeTriangles {
  readonly cols: number;
  readonly rows: number;
  tris = new Float32Array(TRI_FLOATS * 512);
  private triBits = new Uint32Array(this.tris.buffer);
  /** Triangles stored. */
  count = 0;
  /** Per shape: premultiplied r, g, b, a. */
  colors = new Float32Array(256);
  /** Shapes closed (with at least one triangle and a > 0). */
  shapes = 0;
  /** First triangle and first bin pair of shape s; entry `shapes` is the end. */
  shapeTri = new Uint32Array(65);
  shapePair = new Uint32Array(65);
  /** The bin of every (bin, shape) pair, grouped by shape in paint order. */
  pairBins = new Uint32Array(1024);
  pairCount = 0;
  /** Per bin: the serial of the last shape that reached it (so a shape lists a bin once). */
  private mark: Int32Array;
  private serial = 0;
  private flat = new Float64Array(256);

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.cols = Math.max(1, Math.ceil(width / BIN));
    this.rows = Math.max(1, Math.ceil(height / BIN));
    this.mark = new Int32Array(this.cols * this.rows).fill(-1);
  }

  /**
   * A group's polygons, one at a time (earcut takes an exterior with its holes); `rings` lists a
   * group's rings with their windings (fill-solid's addPolygonRings).
   */
  addGroup(g: FeatureGroup, rings: (g: FeatureGroup, add: (ring: Float64Array, winding: number) => void) => void, dx: number, dy: number): void {
    const list: Float64Array[] = [];
    const windings: number[] = [];
    for (const poly of g.polygons) {
      list.length = windings.length = 0;
      rings({ ...g, polygons: [poly] }, (ring, winding) => {
        list.push(ring);
        windings.push(winding);
      });
      // Feature values are never written after they are made: their triangulation is kept.
      if (list.length) this.addPolygon(list, windings, dx, dy, true);
    }
  }

  /**
   * One polygon: its rings (flat x, y) with their windings (+1 / -1, as the CPU rasterizer takes
   * them), shifted by (dx, dy). The first ring is the exterior when the windings make it one.
   * `keep`: the rings never change, so their triangulation is kept for the next time they come.
   */
  addPolygon(rings: ArrayLike<number>[], windings: number[], dx: number, dy: number, keep = false): void {
    if (rings.length === 1) {
      this.addRing(rings[0]!, dx, dy, windings[0]!, 0, rings[0]!.length, keep ? rings[0]! : undefined);
      return;
    }
    const key = keep ? (rings[0] as object) : undefined;
    const hit = key && cachedOf(key, 0);
    if (hit && sameRings(hit, rings, windings)) {
      let n = 0;
      for (const r of rings) n = this.copy(r, dx, dy, 0, r.length, n);
      if (n === hit.n) {
        triangulationCounts.reused++;
        if (hit.idx) this.emit(this.flat, hit.idx, hit.sign);
        else for (let k = 0; k < rings.length; k++) this.addRing(rings[k]!, dx, dy, windings[k]!);
        return;
      }
    }
    // Earcut takes an exterior and holes: the exterior's effective sign against every hole's.
    let n = 0;
    const holes: number[] = [];
    let outer = 0;
    let valid = true;
    for (let k = 0; k < rings.length && valid; k++) {
      const r = rings[k]!;
      const at = n;
      if (k > 0) holes.push(n >> 1);
      n = this.copy(r, dx, dy, 0, r.length, n);
      const s = n - at < 6 ? 0 : Math.sign(signedArea(this.flat, at, n)) * windings[k]!;
      if (k === 0) outer = s;
      else if (s !== -outer) valid = false;
    }
    const idx = valid && outer !== 0 ? this.earcut(this.flat.subarray(0, n), holes, outer) : undefined;
    if (key && idx && n >= CACHE_MIN_FLOATS) remember(key, 0, { n, idx, sign: outer, rings: rings.slice(), windings: windings.slice() });
    if (idx) return;
    for (let k = 0; k < rings.length; k++) this.addRing(rings[k]!, dx, dy, windings[k]!);
  }

  /**
   * Every ring of a ring set, each with winding `sign` (stroke outlines: one convex piece per
   * ring). `keep`: the set never changes (a text label's cached outline), so each ring's
   * triangulation is kept for the next time it comes (never for a stroker's reused buffers).
   */
  addRings(set: RingSet, dx = 0, dy = 0, sign = 1, keep = false): void {
    for (let k = 0; k < set.count; k++) this.addRing(set.coords, dx, dy, sign, set.starts[k]!, set.starts[k + 1]!, keep ? set.coords : undefined);
  }

  /**
   * Every ring of a ring set, each a convex piece (stroke outlines: segment quads, join wedges,
   * caps), with winding `sign`: fanned straight from the set, without the copy and the convexity
   * test of addRings (a third of a stroke's CPU time on the GPU path). The triangles are those
   * addRings makes for convex rings; a fan carries any closed ring's winding exactly, so a piece
   * that is not convex after all still covers what it winds (its triangles overlap). A ring with a
   * non-finite coordinate goes through addRing, which drops it from there.
   */
  addConvexRings(set: RingSet, dx = 0, dy = 0, sign = 1): void {
    const c = set.coords;
    for (let k = 0; k < set.count; k++) {
      const from = set.starts[k]!;
      const end = set.starts[k + 1]!;
      const to = from + (((end - from) >> 1) << 1);
      if (to - from < 6) continue;
      let finite = true;
      for (let i = from; i < to; i++) {
        const v = c[i]!;
        // (v - v !== 0): NaN or an infinity.
        if (v - v !== 0) {
          finite = false;
          break;
        }
      }
      if (!finite) {
        this.addRing(c, dx, dy, sign, from, end);
        continue;
      }
      const ax = c[from]! + dx;
      const ay = c[from + 1]! + dy;
      for (let i = from + 2; i + 3 < to; i += 2) this.triangle(ax, ay, c[i]! + dx, c[i + 1]! + dy, c[i + 2]! + dx, c[i + 3]! + dy, sign, false);
    }
  }

  /**
   * One closed ring (the closing edge implied) with winding `sign`. `key`: an object that stands
   * for ring[from .. to) and never changes: its triangulation is kept and reused.
   */
  addRing(ring: ArrayLike<number>, dx: number, dy: number, sign: number, from = 0, to = ring.length, key?: object): void {
    const n = this.copy(ring, dx, dy, from, to, 0);
    if (n < 6) return;
    const f = this.flat.subarray(0, n);
    const keep = key !== undefined && n >= CACHE_MIN_FLOATS;
    const hit = keep ? cachedOf(key, from) : undefined;
    if (hit && hit.n === n && !hit.rings) {
      triangulationCounts.reused++;
      if (hit.idx) this.emit(f, hit.idx, hit.sign * sign);
      else this.fan(f, sign);
      return;
    }
    let idx: number[] | undefined;
    let s = 0;
    if (!convex(f)) {
      const area = signedArea(f, 0, n);
      s = Math.sign(area);
      if (area !== 0) idx = this.earcut(f, undefined, s * sign);
    }
    if (keep && idx) remember(key, from, { n, idx, sign: s });
    if (!idx) this.fan(f, sign);
  }

  /** Close the shape made of the triangles added since the last call; it paints `rgba` (premultiplied). */
  endShape(r: number, g: number, b: number, a: number): void {
    const s = this.shapes;
    if (this.count > this.shapeTri[s]! && a > 0) {
      if (s * 4 + 4 > this.colors.length) this.colors = grow(this.colors);
      this.colors.set([r, g, b, a], s * 4);
      this.shapes++;
      if (this.shapes + 1 > this.shapeTri.length) {
        this.shapeTri = grow(this.shapeTri);
        this.shapePair = grow(this.shapePair);
      }
    } else {
      this.count = this.shapeTri[s]!;
      this.pairCount = this.shapePair[s]!;
    }
    this.shapeTri[this.shapes] = this.count;
    this.shapePair[this.shapes] = this.pairCount;
    this.serial++;
  }

  /**
   * For shapes [first, end): per bin, the shapes reaching it in paint order (bin b lists
   * items[starts[b] .. starts[b + 1])). The position of a (bin, shape) pair in `items` is its
   * coverage slot.
   */
  bins(first: number, end: number): { starts: Uint32Array; items: Uint32Array } {
    const nb = this.cols * this.rows;
    const starts = new Uint32Array(nb + 1);
    const p0 = this.shapePair[first]!;
    const p1 = this.shapePair[end]!;
    const pb = this.pairBins;
    for (let p = p0; p < p1; p++) starts[pb[p]! + 1]!++;
    for (let b = 0; b < nb; b++) starts[b + 1]! += starts[b]!;
    const items = new Uint32Array(p1 - p0);
    const fill = starts.slice(0, nb);
    for (let s = first; s < end; s++) {
      const e = this.shapePair[s + 1]!;
      for (let p = this.shapePair[s]!; p < e; p++) items[fill[pb[p]!]!++] = s;
    }
    return { starts, items };
  }

  /** Split the shapes into runs in paint order, each reaching at most `maxPairs` (bin, shape) pairs (a shape alone may exceed it). */
  chunks(maxPairs: number): [number, number][] {
    if (this.shapes === 0) return [[0, 0]];
    const out: [number, number][] = [];
    let first = 0;
    for (let s = 1; s <= this.shapes; s++) {
      if (s === this.shapes || this.shapePair[s + 1]! - this.shapePair[first]! > maxPairs) {
        out.push([first, s]);
        first = s;
      }
    }
    return out;
  }

  /** Ring coordinates shifted into `flat` at float index `at`, non-finite rings dropped; returns the new end. */
  private copy(ring: ArrayLike<number>, dx: number, dy: number, from: number, to: number, at: number): number {
    const n = ((to - from) >> 1) << 1;
    while (at + n > this.flat.length) this.flat = grow(this.flat);
    const f = this.flat;
    for (let i = 0; i < n; i += 2) {
      const x = ring[from + i]! + dx;
      const y = ring[from + i + 1]! + dy;
      // (v - v !== 0) is true for NaN and infinities (the CPU rasterizer skips such edges).
      if (x - x !== 0 || y - y !== 0) return at;
      f[at + i] = x;
      f[at + i + 1] = y;
    }
    return at + n;
  }

  /** Earcut's triangles, each with the polygon's sign, when their area is the polygon's (their indices); undefined otherwise. */
  private earcut(f: Float64Array, holes: number[] | undefined, sign: number): number[] | undefined {
    const idx = earcut(f, holes);
    if (!(deviation(f, holes ?? null, 2, idx) < 1e-9)) return undefined;
    this.emit(f, idx, sign);
    return idx;
  }

  /** The triangles of vertex indices `idx` into flat `f`, each given sign `sign`. */
  private emit(f: Float64Array, idx: readonly number[], sign: number): void {
    for (let i = 0; i < idx.length; i += 3) {
      const a = idx[i]! * 2;
      const b = idx[i + 1]! * 2;
      const c = idx[i + 2]! * 2;
      this.triangle(f[a]!, f[a + 1]!, f[b]!, f[b + 1]!, f[c]!, f[c + 1]!, sign, true);
    }
  }

  /** Triangles from the first vertex: their signed winding sums to the ring's whatever its shape. */
  private fan(f: Float64Array, sign: number): void {
    const n = f.length;
    for (let i = 2; i + 3 < n; i += 2) this.triangle(f[0]!, f[1]!, f[i]!, f[i + 1]!, f[i + 2]!, f[i + 3]!, sign, false);
  }

  /**
   * Store one triangle, in f32 as the GPU sees it. `orient`: give it sign `sign` (earcut's
   * triangles, all on the polygon's side); otherwise keep its own orientation times `sign`.
   */
  private triangle(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, sign: number, orient: boolean): void {
    const W = this.width;
    const H = this.height;
    let minx = ax < bx ? ax : bx;
    let maxx = ax < bx ? bx : ax;
    let miny = ay < by ? ay : by;
    let maxy = ay < by ? by : ay;
    minx = cx < minx ? cx : minx;
    maxx = cx > maxx ? cx : maxx;
    miny = cy < miny ? cy : miny;
    maxy = cy > maxy ? cy : maxy;
    if (maxx <= 0 || maxy <= 0 || minx >= W || miny >= H) return; // covers no canvas pixel
    if (this.count * TRI_FLOATS + TRI_FLOATS > this.tris.length) {
      this.tris = grow(this.tris);
      this.triBits = new Uint32Array(this.tris.buffer);
    }
    const t = this.tris;
    const o = this.count * TRI_FLOATS;
    t[o] = ax;
    t[o + 1] = ay;
    t[o + 2] = bx;
    t[o + 3] = by;
    t[o + 4] = cx;
    t[o + 5] = cy;
    // Orientation of the stored (f32) triangle, as ringArea measures it.
    const area = (t[o + 2]! - t[o]!) * (t[o + 5]! - t[o + 1]!) - (t[o + 3]! - t[o + 1]!) * (t[o + 4]! - t[o]!);
    if (area === 0) return;
    if (orient ? area > 0 !== sign > 0 : sign < 0) {
      t[o + 2] = cx;
      t[o + 3] = cy;
      t[o + 4] = bx;
      t[o + 5] = by;
    }
    this.triBits[o + 6] = this.shapes;
    t[o + 7] = 0;
    this.count++;
    // The bins of the pixels the triangle can overlap: [floor(min), ceil(max) - 1], clamped.
    const last = (v: number, size: number) => {
      const f = v | 0;
      const c = (f < v ? f + 1 : f) - 1;
      return c < size - 1 ? c : size - 1;
    };
    const bx0 = (minx > 0 ? minx | 0 : 0) >> 4;
    const by0 = (miny > 0 ? miny | 0 : 0) >> 4;
    const bx1 = last(maxx, W) >> 4;
    const by1 = last(maxy, H) >> 4;
    const mark = this.mark;
    for (let y = by0; y <= by1; y++) {
      for (let x = bx0; x <= bx1; x++) {
        const b = y * this.cols + x;
        if (mark[b] === this.serial) continue;
        mark[b] = this.serial;
        if (this.pairCount + 1 > this.pairBins.length) this.pairBins = grow(this.pairBins);
        this.pairBins[this.pairCount++] = b;
      }
    }
  }
}

/** Whether a kept polygon triangulation was made from these very rings and windings. */
function sameRings(t: Triangulation, rings: readonly ArrayLike<number>[], windings: readonly number[]): boolean {
  if (!t.rings || t.rings.length !== rings.length) return false;
  for (let k = 0; k < rings.length; k++) if (t.rings[k] !== rings[k] || t.windings![k] !== windings[k]) return false;
  return true;
}

/** Twice the signed area of flat ring f[from .. to) (ringArea's sign). */
function signedArea(f: ArrayLike<number>, from: number, to: number): number {
  let s = 0;
  for (let i = from, j = to - 2; i < to; j = i, i += 2) s += f[j]! * f[i + 1]! - f[i]! * f[j + 1]!;
  return s;
}

/** Whether every turn of the ring goes the same way (collinear turns allowed): its fan does not overlap itself (a star's does, still exactly). */
function convex(f: Float64Array): boolean {
  const n = f.length;
  let pos = false;
  let neg = false;
  for (let i = 0; i < n; i += 2) {
    const j = (i + 2) % n;
    const k = (i + 4) % n;
    const c = (f[j]! - f[i]!) * (f[k + 1]! - f[j + 1]!) - (f[j + 1]! - f[i + 1]!) * (f[k]! - f[j]!);
    if (c > 0) pos = true;
    else if (c < 0) neg = true;
    if (pos && neg) return false;
  }
  return true;
}

function grow<T extends Float32Array | Float64Array | Uint32Array>(a: T): T {
  const b = new (a.constructor as { new (n: number): T })(a.length * 2);
  b.set(a);
  return b;
}
