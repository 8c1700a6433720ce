// Polygon offsetting and booleans through Clipper2 (clipper2-wasm: Angus Johnson's C++ Clipper2
// compiled to WebAssembly; why this port: docs/format.md, "Geometry ops"). Rings go in and come
// out as flat world-pixel arrays; results are polygons [exterior, ...holes] with the project's
// winding (exteriors clockwise on screen), read from Clipper's PolyTree so holes sit under the
// exterior that contains them.
import { ringArea, reverseRing } from './clip.js';
import { type Box, boxOfRings, insidePolygon, overlap } from './measure.js';

// The part of clipper2-wasm's API used here (its own .d.ts needs @types/emscripten and is not
// reachable through the package's `types` entry).
interface Enum {
  value: number;
}
interface PathD {
  view(): Float64Array;
  assign(xyz: Float64Array): void;
  delete(): void;
}
interface PathsD {
  clear(): void;
  push_back(p: PathD): void;
  size(): number;
  get(i: number): PathD;
  delete(): void;
}
interface PolyPathD {
  polygon(): PathD;
  count(): number;
  child(i: number): PolyPathD;
  delete(): void;
}
/** Clipper2's ClipperD (a boolean op's engine, reusable: Clear() forgets its paths). */
interface ClipperD {
  Clear(): void;
  AddSubject(paths: PathsD): void;
  ExecutePath(ct: Enum, fill: Enum, closed: PathsD): boolean;
  delete(): void;
}
interface Clipper {
  /** The module's memory, as this build's embind shows it (readPaths reads results from it). */
  HEAPU8?: Uint8Array;
  ClipperD?: new (precision: number) => ClipperD;
  PathD: new () => PathD;
  PathsD: new () => PathsD;
  PolyPathD: new () => PolyPathD;
  MakePathD(xy: number[]): PathD;
  JoinType: { Square: Enum; Round: Enum; Miter: Enum };
  EndType: { Polygon: Enum; Round: Enum; Square: Enum };
  ClipType: { Intersection: Enum; Union: Enum; Difference: Enum; Xor: Enum };
  FillRule: { NonZero: Enum };
  InflatePathsD(paths: PathsD, delta: number, join: Enum, end: Enum, miterLimit: number, precision: number, arcTolerance: number): PathsD;
  UnionSelfD(paths: PathsD, fill: Enum, precision: number): PathsD;
  BooleanOpOutD(ct: Enum, fill: Enum, subjects: PathsD, clips: PathsD, tree: PolyPathD, precision: number): void;
}
export type { Clipper };

let loading: Promise<Clipper> | undefined;

/** The Clipper2 module, instantiated once per process (it holds no per-render state). */
export function loadClipper(): Promise<Clipper> {
  loading ??= (async () => {
    const { default: factory } = await import('clipper2-wasm/dist/es/clipper2z.js');
    return (await factory()) as Clipper;
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

/** Coordinates are rounded to 1/100 px inside Clipper (its integer core). */
const PRECISION = 2;
/** Largest gap between a round join's arc and its polygon, pixels (booleans; offsets: arcTolerance). */
export const ARC_TOLERANCE = 0.01;
/** The coarsest arcs an offset draws: at most this far from the circle, pixels. */
const MAX_ARC_TOLERANCE = 0.02;
const COS_PI_32 = Math.cos(Math.PI / 32);

/**
 * Arc tolerance of an offset by d: GEOS's default resolution (8 segments per quarter circle, so a
 * gap of d (1 - cos(pi / 32)) between arc and chord), but never a gap above MAX_ARC_TOLERANCE
 * (larger radii get more segments than GEOS's) nor below ARC_TOLERANCE (small ones get fewer).
 * Clipper rounds its segment count up: the 1e-6 keeps 32 per circle from becoming 33.
 */
export function arcTolerance(d: number): number {
  return Math.min(MAX_ARC_TOLERANCE, Math.max(ARC_TOLERANCE, Math.abs(d) * (1 - COS_PI_32) * (1 + 1e-6)));
}
/** SVG's default miter limit (miter length / width). */
const MITER_LIMIT = 4;

export type Join = 'miter' | 'round' | 'bevel';
export type BooleanOp = 'intersection' | 'union' | 'difference' | 'xor';

/** Owns the wasm objects made while it runs; `free()` deletes them all. */
class Scope {
  private readonly owned: { delete(): void }[] = [];
  constructor(readonly m: Clipper) {}
  keep<T extends { delete(): void }>(o: T): T {
    this.owned.push(o);
    return o;
  }
  paths(rings: Iterable<ArrayLike<number>>): PathsD {
    const ps = this.keep(new this.m.PathsD());
    for (const r of rings) {
      if (r.length < 2) continue;
      const p = this.m.MakePathD(Array.from(r));
      ps.push_back(p);
      p.delete();
    }
    return ps;
  }
  free(): void {
    for (const o of this.owned.reverse()) o.delete();
    this.owned.length = 0;
  }
}

/**
 * Clipper2's join for ours, with its arc tolerance. This port exposes no bevel join (its Square
 * join cuts the corner at distance d, outside the bevel), so a bevel is a round join whose arc
 * tolerance is the distance itself: one chord per corner, which is the bevel.
 */
function joinType(m: Clipper, join: Join, d: number): [Enum, number] {
  if (join === 'round') return [m.JoinType.Round, arcTolerance(d)];
  if (join === 'bevel') return [m.JoinType.Round, Math.max(ARC_TOLERANCE, Math.abs(d))];
  return [m.JoinType.Miter, arcTolerance(d)];
}

/**
 * Reusable paths of n points (n <= SCRATCH_MAX_POINTS), one per n, per module: a ring is written
 * into one's memory view and pushed (push_back copies), which costs a tenth of MakePathD's
 * conversion of a JS array.
 */
const scratch = new WeakMap<Clipper, Map<number, Scratch>>();
const SCRATCH_MAX_POINTS = 256;
/** A scratch path and its memory view (x, y, z per point), made again when the module's memory grew (the old view then reads as empty). */
interface Scratch {
  path: PathD;
  view: Float64Array;
}

/** A PathsD of the rings (offsets' inputs), filled through scratch paths. */
function offsetPaths(s: Scope, rings: Iterable<ArrayLike<number>>): PathsD {
  return fillPaths(s.m, s.keep(new s.m.PathsD()), rings);
}

/** `ps` with the rings pushed (copies of them), through scratch paths. */
function fillPaths(m: Clipper, ps: PathsD, rings: Iterable<ArrayLike<number>>): PathsD {
  let byCount = scratch.get(m);
  if (!byCount) scratch.set(m, (byCount = new Map()));
  for (const r of rings) {
    const n = r.length >> 1;
    if (n < 1) continue;
    let sc = n <= SCRATCH_MAX_POINTS ? byCount.get(n) : undefined;
    const own = !sc;
    if (!sc) {
      const path = new m.PathD();
      path.assign(new Float64Array(n * 3));
      sc = { path, view: path.view() };
      if (n <= SCRATCH_MAX_POINTS) byCount.set(n, sc);
    }
    if (sc.view.length !== n * 3) sc.view = sc.path.view();
    const v = sc.view; // x, y, z per point; z stays 0
    for (let i = 0; i < n; i++) {
      v[i * 3] = r[i * 2]!;
      v[i * 3 + 1] = r[i * 2 + 1]!;
    }
    ps.push_back(sc.path);
    if (own && n > SCRATCH_MAX_POINTS) sc.path.delete();
  }
  return ps;
}

/** Flat [x, y, ...] of a Clipper path (its view is x, y, z triples). */
function flat(view: Float64Array): Float64Array {
  const n = view.length / 3;
  const out = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) {
    out[i * 2] = view[i * 3]!;
    out[i * 2 + 1] = view[i * 3 + 1]!;
  }
  return out;
}

/** Polygons of a PolyTree: each outer with its holes; islands inside holes become polygons of their own. */
function treePolygons(tree: PolyPathD): Float64Array[][] {
  const out: Float64Array[][] = [];
  const visitOuter = (node: PolyPathD) => {
    let ring = flat(node.polygon().view());
    if (ringArea(ring) < 0) ring = reverseRing(ring);
    const poly = [ring];
    for (let i = 0; i < node.count(); i++) {
      const hole = node.child(i);
      let h = flat(hole.polygon().view());
      if (ringArea(h) > 0) h = reverseRing(h);
      if (h.length >= 6) poly.push(h);
      for (let k = 0; k < hole.count(); k++) visitOuter(hole.child(k));
    }
    if (ring.length >= 6) out.push(poly);
  };
  for (let i = 0; i < tree.count(); i++) visitOuter(tree.child(i));
  return out;
}

export interface OffsetInput {
  /** Polygon rings (any grouping; winding as the project's convention). */
  rings: ArrayLike<number>[];
  /** Open polylines. */
  lines: ArrayLike<number>[];
  /** Flat points. */
  points: ArrayLike<number>;
  /** The rings are one polygon that no clip touched: no need to unite them before offsetting. */
  simple?: boolean;
}

/**
 * Disk offset of one feature: polygons grow by `distance` (shrink when negative), lines and points
 * grow by |distance| (round ends: a Minkowski sum with a disk), all united with the non-zero rule.
 */
export function offset(m: Clipper, input: OffsetInput, distance: number, join: Join): Float64Array[][] {
  const s = new Scope(m);
  try {
    const [jt, tol] = joinType(m, join, distance);
    const pieces = s.keep(new m.PathsD());
    let kinds = 0;
    const add = (ps: PathsD) => {
      kinds++;
      for (let i = 0; i < ps.size(); i++) {
        const p = ps.get(i);
        pieces.push_back(p);
        p.delete();
      }
      ps.delete();
    };
    if (input.rings.length && distance !== 0) {
      // Unite the rings first. Pieces of one feature cut apart by source tiles abut along the cut:
      // eroded apart, each would open a gap along every tile edge. And clipping a concave ring
      // (Sutherland-Hodgman) leaves zero-width bridges along the clip line, which an offset would
      // inflate into bands across the water they span; the union drops them.
      const whole = input.simple ? offsetPaths(s, input.rings) : s.keep(m.UnionSelfD(offsetPaths(s, input.rings), m.FillRule.NonZero, PRECISION));
      add(m.InflatePathsD(whole, distance, jt, m.EndType.Polygon, MITER_LIMIT, PRECISION, tol));
    } else if (input.rings.length) add(m.UnionSelfD(offsetPaths(s, input.rings), m.FillRule.NonZero, PRECISION));
    const d = Math.abs(distance);
    // Line ends are round (a disk offset), square under bevel joins (whose coarse arcs would flatten a round end).
    if (d > 0 && input.lines.length)
      add(m.InflatePathsD(offsetPaths(s, input.lines), d, jt, join === 'bevel' ? m.EndType.Square : m.EndType.Round, MITER_LIMIT, PRECISION, tol));
    if (d > 0 && input.points.length) {
      const pts: Float64Array[] = [];
      for (let i = 0; i + 1 < input.points.length; i += 2) pts.push(Float64Array.of(input.points[i]!, input.points[i + 1]!));
      add(m.InflatePathsD(offsetPaths(s, pts), d, m.JoinType.Round, m.EndType.Round, MITER_LIMIT, PRECISION, arcTolerance(d)));
    }
    if (!pieces.size()) return [];
    // One kind of input: Clipper's offset already united its output; only the nesting is left.
    if (kinds === 1) return nest(m, pieces);
    const tree = s.keep(new m.PolyPathD());
    m.BooleanOpOutD(m.ClipType.Union, m.FillRule.NonZero, pieces, s.keep(new m.PathsD()), tree, PRECISION);
    return treePolygons(tree);
  } finally {
    s.free();
  }
}

/**
 * A group's polygon rings ready for one non-zero union with other pieces: a polygon with an edge
 * made by clipping (`polygonCuts`) is first united on its own. Sutherland-Hodgman clipping leaves
 * zero-width bridges along the clip line (the ring runs back over itself), and Clipper2 can keep
 * the shared edge when it unites such a piece with its neighbour across a tile edge: an erosion
 * then opens a gap along every tile edge (the stipple example's shore bands). United on its own,
 * a piece has no bridges and abuts its neighbour edge to edge, which the union merges.
 */
export function pieceRings(
  m: Clipper,
  g: { polygons: readonly (readonly Float64Array[])[]; polygonCuts?: readonly (readonly (Uint8Array | undefined)[])[] },
): Float64Array[] {
  const cuts = g.polygonCuts;
  const out: Float64Array[] = [];
  g.polygons.forEach((poly, p) => {
    if (!cuts?.[p]?.some((c) => c?.includes(1))) {
      out.push(...poly);
      return;
    }
    const s = new Scope(m);
    try {
      out.push(...readPaths(s.keep(m.UnionSelfD(offsetPaths(s, poly), m.FillRule.NonZero, PRECISION)), m));
    } finally {
      s.free();
    }
  });
  return out;
}

/** A polygon boolean of two ring sets (non-zero fill on each side). */
export function boolean(m: Clipper, op: BooleanOp, a: ArrayLike<number>[], b: ArrayLike<number>[]): Float64Array[][] {
  const s = new Scope(m);
  try {
    const ct = { intersection: m.ClipType.Intersection, union: m.ClipType.Union, difference: m.ClipType.Difference, xor: m.ClipType.Xor }[op];
    const tree = s.keep(new m.PolyPathD());
    m.BooleanOpOutD(ct, m.FillRule.NonZero, s.paths(a), s.paths(b), tree, PRECISION);
    return treePolygons(tree);
  } finally {
    s.free();
  }
}

/**
 * Polygons from a united set of rings (Clipper's offset output): exteriors wind positive, holes
 * negative; each hole goes under the smallest exterior that contains it.
 */
function nest(m: Clipper, paths: PathsD): Float64Array[][] {
  return nestRings(readPaths(paths, m));
}

/** A result's rings as flat [x, y, ...] arrays, in Clipper's order: read from the module's memory where that can be (readDirect), else path by path. */
function readPaths(paths: PathsD, m: Clipper): Float64Array[] {
  return (directOk(m) && readDirect(m, paths)) || readEach(paths);
}

/** Every path through embind: a copy, a handle and a view per path (the reference readDirect is checked against). */
function readEach(paths: PathsD): Float64Array[] {
  const out: Float64Array[] = [];
  for (let i = 0; i < paths.size(); i++) {
    const p = paths.get(i);
    out.push(flat(p.view()));
    p.delete();
  }
  return out;
}

/** Views of the module's memory (new ones when it grew: HEAPU8 is then a view of the new buffer). */
let heapU32: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
let heapF64: Float64Array<ArrayBufferLike> = new Float64Array(0);

/**
 * A PathsD read in place: a std::vector of std::vector<PointD> (wasm32: begin, end and capacity
 * pointers of 4 bytes; a PointD is x, y and z of 8 bytes each, z unused here) at the handle's
 * address (`$$.ptr`, embind's). A copy, a JavaScript handle (with its finalizer) and a view per
 * path less than readEach, the same doubles. Undefined where the layout does not read as such.
 */
function readDirect(m: Clipper, paths: PathsD): Float64Array[] | undefined {
  const ptr = (paths as unknown as { $$?: { ptr?: unknown } }).$$?.ptr;
  const heap = m.HEAPU8;
  if (typeof ptr !== 'number' || !heap || ptr % 4 !== 0) return undefined;
  if (heapU32.buffer !== heap.buffer) {
    heapU32 = new Uint32Array(heap.buffer);
    heapF64 = new Float64Array(heap.buffer);
  }
  const u32 = heapU32;
  const f64 = heapF64;
  const b = u32[ptr >> 2]!;
  const e = u32[(ptr >> 2) + 1]!;
  if ((e - b) % 12 !== 0 || (e - b) / 12 !== paths.size()) return undefined;
  const out: Float64Array[] = [];
  for (let v = b; v < e; v += 12) {
    const pb = u32[v >> 2]!;
    const pe = u32[(v >> 2) + 1]!;
    if (pb % 8 !== 0 || pe < pb || (pe - pb) % 24 !== 0) return undefined;
    const n = (pe - pb) / 24;
    const o = new Float64Array(n * 2);
    for (let i = 0, q = pb >> 3; i < n; i++, q += 3) {
      o[i * 2] = f64[q]!;
      o[i * 2 + 1] = f64[q + 1]!;
    }
    out.push(o);
  }
  return out;
}

/**
 * readDirect's paths given to `sink` in place (x, y, z of 8 bytes each per point: stride 3 in the
 * module's Float64Array), once every path's layout has read as readDirect expects; false (and
 * nothing given) where it does not.
 */
function readDirectTo(m: Clipper, paths: PathsD, sink: RingSink): boolean {
  const ptr = (paths as unknown as { $$?: { ptr?: unknown } }).$$?.ptr;
  const heap = m.HEAPU8;
  if (typeof ptr !== 'number' || !heap || ptr % 4 !== 0) return false;
  if (heapU32.buffer !== heap.buffer) {
    heapU32 = new Uint32Array(heap.buffer);
    heapF64 = new Float64Array(heap.buffer);
  }
  const u32 = heapU32;
  const b = u32[ptr >> 2]!;
  const e = u32[(ptr >> 2) + 1]!;
  if ((e - b) % 12 !== 0 || (e - b) / 12 !== paths.size()) return false;
  for (let v = b; v < e; v += 12) {
    const pb = u32[v >> 2]!;
    const pe = u32[(v >> 2) + 1]!;
    if (pb % 8 !== 0 || pe < pb || (pe - pb) % 24 !== 0) return false;
  }
  for (let v = b; v < e; v += 12) {
    const pb = u32[v >> 2]!;
    sink(heapF64, pb >> 3, (u32[(v >> 2) + 1]! - pb) / 24, 3);
  }
  return true;
}

/**
 * Whether readDirect reads this module's results as readEach does: checked once per module on a
 * union of two squares and a triangle (three paths, 11 points), bit for bit.
 */
const directChecked = new WeakMap<Clipper, boolean>();
function directOk(m: Clipper): boolean {
  let ok = directChecked.get(m);
  if (ok === undefined) {
    const s = new Scope(m);
    try {
      const rings = [
        [0.25, 0.5, 10.125, 0.5, 10.125, 10.75, 0.25, 10.75],
        [20, 20, 30.5, 20, 30.5, 31, 20, 31],
        [-5, -5, -1.5, -5, -3, -2],
      ];
      const res = s.keep(m.UnionSelfD(s.paths(rings), m.FillRule.NonZero, PRECISION));
      const a = readDirect(m, res);
      const b = readEach(res);
      ok = !!a && a.length === b.length && b.length === 3 && a.every((r, i) => r.length === b[i]!.length && r.every((v, j) => Object.is(v, b[i]![j])));
    } finally {
      s.free();
    }
    directChecked.set(m, ok);
  }
  return ok;
}

/** Test hook: a result read both ways (readDirect's answer or undefined, and readEach's). */
export function readBothWays(m: Clipper, rings: ArrayLike<number>[], precision = 4): { direct: Float64Array[] | undefined; each: Float64Array[] } {
  const s = new Scope(m);
  try {
    const res = s.keep(m.UnionSelfD(offsetPaths(s, rings), m.FillRule.NonZero, precision));
    return { direct: directOk(m) ? readDirect(m, res) : undefined, each: readEach(res) };
  } finally {
    s.free();
  }
}

function nestRings(rings: Float64Array[]): Float64Array[][] {
  const outers: { ring: Float64Array; area: number; poly: Float64Array[] }[] = [];
  const holes: Float64Array[] = [];
  for (const ring of rings) {
    if (ring.length < 6) continue;
    const a = ringArea(ring);
    if (a > 0) outers.push({ ring, area: a, poly: [ring] });
    else if (a < 0) holes.push(ring);
  }
  for (const h of holes) {
    let best: (typeof outers)[number] | undefined;
    for (const o of outers) if ((!best || o.area < best.area) && (outers.length === 1 || insidePolygon([o.ring], h[0]!, h[1]!))) best = o;
    best?.poly.push(h);
  }
  return outers.map((o) => o.poly);
}

/** Rounding half away from zero (C's round, which Clipper uses to snap to its grid). */
const roundAway = (v: number) => (v < 0 ? -Math.round(-v) : Math.round(v));

/**
 * The offset by d > 0 of one segment with round ends (a capsule), drawn as Clipper draws it: on its
 * 1/100 px grid, the same arc steps (segment count from the arc tolerance, rotation by a fixed
 * sine and cosine from the normal's side), collinear and repeated vertices dropped as its union
 * drops them. Same vertices as InflatePathsD (the test compares the two), without the union's
 * sweep: a capsule is convex. Undefined for a segment of zero length on the grid.
 */
export function capsule(x0: number, y0: number, x1: number, y1: number, d: number, tol: number): Float64Array | undefined {
  const scale = 10 ** PRECISION;
  const X0 = roundAway(x0 * scale);
  const Y0 = roundAway(y0 * scale);
  const X1 = roundAway(x1 * scale);
  const Y1 = roundAway(y1 * scale);
  if (X0 === X1 && Y0 === Y1) return undefined;
  const len = Math.hypot(X1 - X0, Y1 - Y0);
  const nx = (Y1 - Y0) / len;
  const ny = -(X1 - X0) / len;
  const D = d * scale;
  const per360 = Math.min(Math.PI / Math.acos(1 - Math.min(D, tol * scale) / D), D * Math.PI);
  const sin = Math.sin((2 * Math.PI) / per360);
  const cos = Math.cos((2 * Math.PI) / per360);
  const steps = Math.ceil((per360 / (2 * Math.PI)) * Math.PI);
  const pts: number[] = [];
  // Each end: from one side's offset point around the end to the other's.
  const cap = (px: number, py: number, vx: number, vy: number) => {
    pts.push(roundAway(px + vx), roundAway(py + vy));
    for (let i = 1; i < steps; i++) {
      const x = vx * cos - sin * vy;
      vy = vx * sin + vy * cos;
      vx = x;
      pts.push(roundAway(px + vx), roundAway(py + vy));
    }
  };
  cap(X0, Y0, -nx * D, -ny * D);
  pts.push(roundAway(X0 + nx * D), roundAway(Y0 + ny * D));
  cap(X1, Y1, nx * D, ny * D);
  pts.push(roundAway(X1 - nx * D), roundAway(Y1 - ny * D));
  let ring = pts;
  for (let changed = true; changed && ring.length >= 6; ) {
    changed = false;
    const n = ring.length / 2;
    const kept: number[] = [];
    for (let i = 0; i < n; i++) {
      const k = kept.length;
      const ax = k ? kept[k - 2]! : ring[(n - 1) * 2]!;
      const ay = k ? kept[k - 1]! : ring[(n - 1) * 2 + 1]!;
      const bx = ring[i * 2]!;
      const by = ring[i * 2 + 1]!;
      const j = ((i + 1) % n) * 2;
      if ((bx - ax) * (ring[j + 1]! - by) - (by - ay) * (ring[j]! - bx) === 0) {
        changed = true;
        continue;
      }
      kept.push(bx, by);
    }
    ring = kept;
  }
  if (ring.length < 6) return undefined;
  const out = new Float64Array(ring.length);
  for (let i = 0; i < ring.length; i++) out[i] = ring[i]! * (1 / scale);
  return ringArea(out) < 0 ? reverseRing(out) : out;
}

/** Grid cell of the batch index, pixels. */
const CELL = 64;
/** Key of grid cell (cx, cy); two cells sharing a key only cost extra exact tests. */
const cellKey = (cx: number, cy: number) => cx * 67108864 + cy;

/** Features offset in one Clipper call: pairwise disjoint boxes, indexed by grid cell. */
class Batch {
  readonly members: number[] = [];
  readonly boxes: Box[] = [];
  private readonly cells = new Map<number, number[]>();
  private each(box: Box, f: (key: number) => boolean): boolean {
    const x1 = Math.floor(box[2] / CELL);
    const y1 = Math.floor(box[3] / CELL);
    for (let cx = Math.floor(box[0] / CELL); cx <= x1; cx++) for (let cy = Math.floor(box[1] / CELL); cy <= y1; cy++) if (!f(cellKey(cx, cy))) return false;
    return true;
  }
  /** Whether the box overlaps none of the batch's boxes. */
  fits(box: Box): boolean {
    return this.boxes.length < 256 && this.each(box, (key) => !this.cells.get(key)?.some((k) => overlap(this.boxes[k]!, box)));
  }
  add(i: number, box: Box): void {
    const k = this.boxes.length;
    this.members.push(i);
    this.boxes.push(box);
    this.each(box, (key) => {
      const list = this.cells.get(key);
      if (list) list.push(k);
      else this.cells.set(key, [k]);
      return true;
    });
  }
  /** Index of the box holding (x, y), or -1. */
  at(x: number, y: number): number {
    const list = this.cells.get(cellKey(Math.floor(x / CELL), Math.floor(y / CELL)));
    if (list) for (const k of list) if (x >= this.boxes[k]![0] && x <= this.boxes[k]![2] && y >= this.boxes[k]![1] && y <= this.boxes[k]![3]) return k;
    return -1;
  }
}

/**
 * offset() of many features, with fewer calls into Clipper: features that are lines only, or one
 * polygon no clip touched, go in batches, one Clipper call per batch of features whose boxes (grown
 * by the distance and a pixel) are disjoint, so their outputs cannot touch and each output ring
 * belongs to the one box it lies in. Every other feature is offset on its own. Same results.
 */
export function offsetMany(m: Clipper, inputs: readonly OffsetInput[], distance: number, join: Join): Float64Array[][][] {
  const out: Float64Array[][][] = new Array<Float64Array[][]>(inputs.length);
  // How far an output can reach past its input: a miter up to MITER_LIMIT x d, a square end d * sqrt 2.
  const grow = Math.abs(distance) * (join === 'miter' ? MITER_LIMIT : 1.5) + 1;
  const batches: { lines: Batch[]; polygons: Batch[] } = { lines: [], polygons: [] };
  inputs.forEach((inp, i) => {
    const lines = distance !== 0 && inp.lines.length > 0 && !inp.rings.length && !inp.points.length;
    const polygon = distance !== 0 && !!inp.simple && inp.rings.length > 0 && !inp.lines.length && !inp.points.length;
    if (!lines && !polygon) {
      out[i] = offset(m, inp, distance, join);
      return;
    }
    // One segment with round ends: its capsule, without Clipper.
    const seg = lines && join !== 'bevel' && inp.lines.length === 1 && inp.lines[0]!.length === 4 ? inp.lines[0]! : undefined;
    const cap = seg && capsule(seg[0]!, seg[1]!, seg[2]!, seg[3]!, Math.abs(distance), arcTolerance(distance));
    if (cap) {
      out[i] = [[cap]];
      return;
    }
    const box = boxOfRings(lines ? inp.lines : inp.rings, grow);
    const list = lines ? batches.lines : batches.polygons;
    let b = list.find((c) => c.fits(box));
    if (!b) list.push((b = new Batch()));
    b.add(i, box);
  });
  const [jt, tol] = joinType(m, join, distance);
  for (const kind of ['lines', 'polygons'] as const) {
    for (const b of batches[kind]) {
      const s = new Scope(m);
      try {
        const paths = offsetPaths(
          s,
          b.members.flatMap((i) => (kind === 'lines' ? inputs[i]!.lines : inputs[i]!.rings)),
        );
        const d = kind === 'lines' ? Math.abs(distance) : distance;
        const end = kind === 'polygons' ? m.EndType.Polygon : join === 'bevel' ? m.EndType.Square : m.EndType.Round;
        const rings = readPaths(s.keep(m.InflatePathsD(paths, d, jt, end, MITER_LIMIT, PRECISION, tol)), m);
        const mine: Float64Array[][] = b.members.map(() => []);
        for (const r of rings) {
          const k = b.at(r[0]!, r[1]!);
          if (k >= 0) mine[k]!.push(r);
        }
        b.members.forEach((i, k) => (out[i] = nestRings(mine[k]!)));
      } finally {
        s.free();
      }
    }
  }
  return out;
}

/**
 * The non-zero union of rings as rings (exteriors positive, holes negative, unnested), at
 * `precision` decimal places: glyph outlines, whose overlapping contours (a Devanagari headline
 * running under its neighbour's, an Arabic join) must be filled once, not summed. Through one
 * ClipperD per module and precision, with its input and result paths, kept and cleared between
 * calls (unionSelf's union, the same doubles: clipper.test.ts): no wasm object made or deleted a
 * call, which was a third of a small union's CPU.
 */
export function unionRings(m: Clipper, rings: Iterable<ArrayLike<number>>, precision = 4): Float64Array[] {
  const kit = unionKitOf(m, precision);
  if (!kit) return unionSelf(m, rings, precision);
  try {
    fillPaths(m, kit.input, rings);
    kit.clipper.AddSubject(kit.input);
    kit.clipper.ExecutePath(m.ClipType.Union, m.FillRule.NonZero, kit.result);
    return readPaths(kit.result, m);
  } finally {
    kit.clipper.Clear();
    kit.input.clear();
  }
}

/**
 * Where unionRingsTo puts each result ring, in Clipper's order: its n points' x at
 * src[at + stride i] and y right after.
 */
export type RingSink = (src: Float64Array, at: number, n: number, stride: number) => void;

/**
 * unionRings' rings given to `sink` one by one, read from the module's memory (readDirect's
 * reading without an array per ring) where that can be, else from unionRings' arrays: the same
 * doubles in the same order.
 */
export function unionRingsTo(m: Clipper, rings: Iterable<ArrayLike<number>>, sink: RingSink, precision = 4): void {
  const kit = unionKitOf(m, precision);
  if (kit && directOk(m)) {
    try {
      fillPaths(m, kit.input, rings);
      kit.clipper.AddSubject(kit.input);
      kit.clipper.ExecutePath(m.ClipType.Union, m.FillRule.NonZero, kit.result);
      if (readDirectTo(m, kit.result, sink)) return;
    } finally {
      kit.clipper.Clear();
      kit.input.clear();
    }
  }
  for (const r of unionRings(m, rings, precision)) sink(r, 0, r.length >> 1, 2);
}

/** unionRings through Clipper2's UnionSelfD (new wasm paths and their handles a call): the reference, and where the module has no ClipperD. */
export function unionSelf(m: Clipper, rings: Iterable<ArrayLike<number>>, precision = 4): Float64Array[] {
  const s = new Scope(m);
  try {
    return readPaths(s.keep(m.UnionSelfD(offsetPaths(s, rings), m.FillRule.NonZero, precision)), m);
  } finally {
    s.free();
  }
}

/** A module's reusable union engine at one precision: ClipperD(precision) is what UnionSelfD makes for each call. */
interface UnionKit {
  clipper: ClipperD;
  input: PathsD;
  result: PathsD;
}
const unionKits = new WeakMap<Clipper, Map<number, UnionKit>>();
function unionKitOf(m: Clipper, precision: number): UnionKit | undefined {
  if (!m.ClipperD) return undefined;
  let byPrecision = unionKits.get(m);
  if (!byPrecision) unionKits.set(m, (byPrecision = new Map()));
  let kit = byPrecision.get(precision);
  if (!kit) byPrecision.set(precision, (kit = { clipper: new m.ClipperD(precision), input: new m.PathsD(), result: new m.PathsD() }));
  return kit;
}

/** Rings united (non-zero) and grown by `d` with round joins (a halo), at `precision` decimal places. */
export function inflateRings(m: Clipper, rings: Iterable<ArrayLike<number>>, d: number, precision = 4): Float64Array[] {
  const s = new Scope(m);
  try {
    const whole = s.keep(m.UnionSelfD(offsetPaths(s, rings), m.FillRule.NonZero, precision));
    return readPaths(s.keep(m.InflatePathsD(whole, d, m.JoinType.Round, m.EndType.Polygon, MITER_LIMIT, precision, arcTolerance(d))), m);
  } finally {
    s.free();
  }
}
