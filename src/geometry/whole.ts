// Whole features: the unclipped geometry of every feature of a GeoJSON layer, in Web Mercator
// units (the world is [0, 1] x [0, 1], y down), so that ops which measure a whole feature (its
// centroid, its hull, the distance along a line) give the same answer in every tile. A tiled
// source (MVT, PMTiles) has no such thing: those ops see what the canvas holds (docs/format.md).
import type { Feature, GeoJSON, Geometry, Position } from 'geojson';
import { hypot } from './hypot.js';
import { boxOf, convexHull, growBox, polygonCentroid, lineCentroid } from './measure.js';
import type { Canvas, FeatureGroup } from '../types.js';

export interface WholeFeature {
  id?: number | string;
  properties: Record<string, unknown>;
  /** Polygons [exterior, ...holes], flat [x, y, ...] in Mercator units. */
  polygons: Float64Array[][];
  lines: Float64Array[];
  points: Float64Array;
  /** [x0, y0, x1, y1] of every vertex, Mercator units. */
  box: [number, number, number, number];
  /** Memo of the centroids (Mercator units), computed on first use. */
  centroids?: { polygon?: [number, number]; line?: [number, number] };
  /** Memo of wholeBoundary(). */
  boundary?: WholeFeature;
  /**
   * A tiled source's piece (src/sources/pieces.ts): the square [x0, y0, x1, y1) of the source tile
   * that holds it, Mercator units. A measure of the piece (its centroid) counts only inside it, so
   * a feature a neighbouring tile also holds (in its buffer) is counted once.
   */
  owner?: [number, number, number, number];
}

/** The whole features of one layer that passed a features node (its filter, its min-zoom-field). */
export interface WholeLayer {
  features(): readonly WholeFeature[];
}

const MAX_LAT = 85.0511287798066;

function project(p: Position, out: number[]): void {
  const lat = Math.max(-MAX_LAT, Math.min(MAX_LAT, p[1]!));
  const s = Math.sin((lat * Math.PI) / 180);
  out.push(p[0]! / 360 + 0.5, 0.5 - (0.25 * Math.log((1 + s) / (1 - s))) / Math.PI);
}

function flat(coords: Position[], dropClosing: boolean): Float64Array {
  const out: number[] = [];
  const n =
    dropClosing && coords.length > 1 && coords[0]![0] === coords[coords.length - 1]![0] && coords[0]![1] === coords[coords.length - 1]![1]
      ? coords.length - 1
      : coords.length;
  for (let i = 0; i < n; i++) project(coords[i]!, out);
  return Float64Array.from(out);
}

function addGeometry(g: Geometry | null, w: WholeFeature, pts: number[]): void {
  if (!g) return;
  switch (g.type) {
    case 'Point':
      project(g.coordinates, pts);
      break;
    case 'MultiPoint':
      for (const p of g.coordinates) project(p, pts);
      break;
    case 'LineString':
      w.lines.push(flat(g.coordinates, false));
      break;
    case 'MultiLineString':
      for (const l of g.coordinates) w.lines.push(flat(l, false));
      break;
    case 'Polygon':
      w.polygons.push(g.coordinates.map((r) => flat(r, true)));
      break;
    case 'MultiPolygon':
      for (const p of g.coordinates) w.polygons.push(p.map((r) => flat(r, true)));
      break;
    case 'GeometryCollection':
      for (const c of g.geometries) addGeometry(c, w, pts);
      break;
  }
}

/**
 * Whole features of a GeoJSON document (as handed to geojson-vt: the properties objects are the
 * very ones geojson-vt gives its tiles, so a feature group and its whole feature share them).
 */
export function wholeFeatures(doc: GeoJSON): WholeFeature[] {
  const features: Feature[] =
    doc.type === 'FeatureCollection' ? doc.features : doc.type === 'Feature' ? [doc] : [{ type: 'Feature', properties: {}, geometry: doc as Geometry }];
  const out: WholeFeature[] = [];
  for (const f of features) {
    const w: WholeFeature = {
      properties: (f.properties ?? {}) as Record<string, unknown>,
      polygons: [],
      lines: [],
      points: new Float64Array(0),
      box: [Infinity, Infinity, -Infinity, -Infinity],
    };
    if (f.id !== undefined) w.id = f.id;
    const pts: number[] = [];
    addGeometry(f.geometry, w, pts);
    w.points = Float64Array.from(pts);
    const b = w.box;
    for (const p of w.polygons) for (const r of p) growBox(b, r);
    for (const l of w.lines) growBox(b, l);
    growBox(b, w.points);
    if (b[0] <= b[2]) out.push(w);
  }
  return out;
}

/** World pixels across the world at a canvas's zoom. */
export const worldSize = (c: Canvas): number => c.tileSize * 2 ** c.z;

/** Bound on the world copies one feature is drawn at (canvas plus feature span, in worlds). */
export const MAX_WORLD_SHIFTS = 64;

/** Shifts by whole worlds (world pixels) that bring Mercator x range [x0, x1] onto the canvas grown by `grow`. */
export function worldShifts(x0: number, x1: number, c: Canvas, grow: number): number[] {
  const W = worldSize(c);
  const out: number[] = [];
  const k0 = Math.floor((c.x0 - grow) / W - x1),
    k1 = Math.ceil((c.x0 + c.width + grow) / W - x0);
  // Its own bound: a feature spans at most a few world copies once validated (|lng| <= 360), and a
  // canvas at most a few worlds; anything past this is bad input, not a loop to run.
  if (!(k1 - k0 <= MAX_WORLD_SHIFTS))
    throw new Error(`feature spans ${Number.isFinite(k1 - k0) ? k1 - k0 : 'infinitely many'} world copies (at most ${MAX_WORLD_SHIFTS})`);
  for (let k = k0; k <= k1; k++) if ((x0 + k) * W <= c.x0 + c.width + grow && (x1 + k) * W >= c.x0 - grow) out.push(k * W);
  return out;
}

/** Whether world pixel (x, y) lies in the canvas grown by `grow`. */
export const inCanvas = (c: Canvas, grow: number, x: number, y: number): boolean =>
  x >= c.x0 - grow && x < c.x0 + c.width + grow && y >= c.y0 - grow && y < c.y0 + c.height + grow;

/** A feature's area centroid and length-weighted centroid, Mercator units (memoised on the feature). */
export function wholeCentroids(w: WholeFeature): { polygon?: [number, number]; line?: [number, number] } {
  if (!w.centroids) {
    // Centroids in Mercator units: affine maps keep area and length centroids, so scaling to any zoom is exact.
    w.centroids = {};
    if (w.polygons.length) w.centroids.polygon = polygonCentroid(w.polygons);
    if (w.lines.length) w.centroids.line = lineCentroid(w.lines);
  }
  return w.centroids;
}

/** A Mercator-unit array in world pixels: scaled by the world size, shifted by `dx` pixels. */
export function toWorld(c: ArrayLike<number>, W: number, dx: number): Float64Array {
  return scaleInto(c, W, dx, new Float64Array(c.length));
}

/** `c` scaled by W and shifted by dx pixels (x, y pairs), written to `out`. */
function scaleInto(c: ArrayLike<number>, W: number, dx: number, out: Float64Array): Float64Array {
  for (let i = 0; i + 1 < c.length; i += 2) {
    out[i] = c[i]! * W + dx;
    out[i + 1] = c[i + 1]! * W;
  }
  return out;
}

/** toWorld of each array, the results views of one buffer (one backing store for a feature's lines). */
export function toWorldEach(cs: readonly ArrayLike<number>[], W: number, dx: number): Float64Array[] {
  let total = 0;
  for (const c of cs) total += c.length;
  const buffer = new ArrayBuffer(total * 8);
  const out = new Array<Float64Array>(cs.length);
  let at = 0;
  for (let k = 0; k < cs.length; k++) {
    const c = cs[k]!;
    out[k] = scaleInto(c, W, dx, new Float64Array(buffer, at * 8, c.length));
    at += c.length;
  }
  return out;
}

/** A feature group carrying a whole feature's id and properties. */
export function wholeGroup(w: WholeFeature, geom: Partial<Pick<FeatureGroup, 'polygons' | 'lines' | 'points' | 'cutEnds'>>): FeatureGroup {
  const g: FeatureGroup = { properties: w.properties, polygons: geom.polygons ?? [], lines: geom.lines ?? [], points: geom.points ?? new Float64Array(0) };
  if (w.id !== undefined) g.id = w.id;
  if (geom.cutEnds) g.cutEnds = geom.cutEnds;
  return g;
}

/** Visit every vertex of whole features (Mercator units). */
function eachWholeVertex(ws: readonly WholeFeature[]): (visit: (x: number, y: number) => void) => void {
  return (visit) => {
    for (const w of ws) {
      for (const p of w.polygons) for (const r of p) for (let i = 0; i + 1 < r.length; i += 2) visit(r[i]!, r[i + 1]!);
      for (const l of w.lines) for (let i = 0; i + 1 < l.length; i += 2) visit(l[i]!, l[i + 1]!);
      for (let i = 0; i + 1 < w.points.length; i += 2) visit(w.points[i]!, w.points[i + 1]!);
    }
  };
}

/** One feature (no properties) holding a Mercator-unit ring in world pixels, once per world copy that meets the canvas. */
function wholePolygon(ring: Float64Array | undefined, box: [number, number, number, number], c: Canvas, grow: number): FeatureGroup[] {
  if (!ring) return [];
  const W = worldSize(c);
  const polygons = worldShifts(box[0], box[2], c, grow).map((dx) => [toWorld(ring, W, dx)]);
  return polygons.length ? [{ properties: {}, polygons, lines: [], points: new Float64Array(0) }] : [];
}

/** A part of a polyline: its vertices, the distance along the whole line of its first one, its cut flags. */
export interface LinePart {
  line: Float64Array;
  s0: number;
  cut: number;
  /**
   * With a LineMeasure: the measure's quantized distance at the part's first and last vertex as
   * the line's own vertices give it there (interpolated along the segment a cut lies on).
   */
  ld0?: number;
  ld1?: number;
}

/**
 * How a renderer measures distance along a line (MapLibre's line distance): `wraps` says at a
 * vertex whether the distance so far starts again from 0 there; `quantize`, the value a vertex
 * stores of a distance, which is interpolated between vertices.
 */
export interface LineMeasure {
  wraps(d: number): boolean;
  quantize(d: number): number;
}

/**
 * The parts of a polyline inside a rectangle (Liang-Barsky per segment), each with the distance
 * along the whole line of its first vertex and its cut flags (bit 0: starts on the rectangle's
 * side, bit 1: ends there). A segment millions of pixels long costs no more than a short one.
 * `measure` (LineMeasure): the distance starts again from 0 at a vertex of the line where
 * `wraps` is true of the distance so far (MapLibre's line distance, which its buffers hold only so
 * far: the MapLibre line profile), so a part's distance counts from the last such vertex before
 * it, and a cut end's stored distance (ld0, ld1) is interpolated between its segment's vertices'.
 */
export function partsInRect(line: ArrayLike<number>, r: { x0: number; y0: number; x1: number; y1: number }, measure?: LineMeasure): LinePart[] {
  const out: LinePart[] = [];
  // The current part's vertices in a reused scratch array (grown by doubling), copied out per part.
  let cur = partScratch;
  let nc = 0;
  let curS0 = 0,
    curCut = 0;
  let curLd0: number | undefined;
  let ld1Prev: number | undefined;
  let s = 0;
  const n = line.length >> 1;
  for (let i = 1; i < n; i++) {
    const ax = line[i * 2 - 2]!,
      ay = line[i * 2 - 1]!,
      bx = line[i * 2]!,
      by = line[i * 2 + 1]!;
    const dx = bx - ax,
      dy = by - ay;
    const len = hypot(dx, dy);
    if (measure && i > 1 && measure.wraps(s)) s = 0;
    // Liang-Barsky against the four sides in turn (left, right, top, bottom): p the direction's
    // component towards the side, q the distance inside it.
    let t0 = 0,
      t1 = 1;
    let out_ = false;
    for (let k = 0; k < 4; k++) {
      const p = k === 0 ? -dx : k === 1 ? dx : k === 2 ? -dy : dy;
      const q = k === 0 ? ax - r.x0 : k === 1 ? r.x1 - ax : k === 2 ? ay - r.y0 : r.y1 - ay;
      if (p === 0) {
        if (q < 0) out_ = true;
      } else {
        const t = q / p;
        if (p < 0) t0 = Math.max(t0, t);
        else t1 = Math.min(t1, t);
      }
    }
    // The stored distances at this segment's ends, and at a fraction t along it (a cut there).
    const q0 = measure ? measure.quantize(s) : 0;
    const q1 = measure ? measure.quantize(s + len) : 0;
    if (out_ || t0 > t1) {
      if (nc) {
        if (nc >= 4) out.push(part(cur, nc, curS0, curCut | 2, curLd0, ld1Prev));
        nc = 0;
      }
    } else {
      if (!nc || t0 > 0) {
        if (nc >= 4) out.push(part(cur, nc, curS0, curCut | 2, curLd0, ld1Prev));
        cur[0] = ax + dx * t0;
        cur[1] = ay + dy * t0;
        nc = 2;
        curS0 = s + len * t0;
        curCut = t0 > 0 ? 1 : 0;
        curLd0 = measure ? q0 + (q1 - q0) * t0 : undefined;
      }
      if (nc + 2 > cur.length) {
        const g = new Float64Array(cur.length * 2);
        g.set(cur);
        cur = partScratch = g;
      }
      cur[nc++] = ax + dx * t1;
      cur[nc++] = ay + dy * t1;
      if (t1 < 1) {
        if (nc >= 4) out.push(part(cur, nc, curS0, curCut | 2, curLd0, measure ? q0 + (q1 - q0) * t1 : undefined));
        nc = 0;
      }
    }
    // A part ended by the next segment lying outside ends on this segment's last vertex.
    ld1Prev = measure ? q1 : undefined;
    s += len;
  }
  if (nc >= 4) out.push(part(cur, nc, curS0, curCut, curLd0, ld1Prev));
  return out;
}

function part(cur: Float64Array, nc: number, s0: number, cut: number, ld0: number | undefined, ld1: number | undefined): LinePart {
  const p: LinePart = { line: cur.slice(0, nc), s0, cut };
  if (ld0 !== undefined) p.ld0 = ld0;
  if (ld1 !== undefined) p.ld1 = ld1;
  return p;
}

/** visitLineParts' scratch line in world pixels (read by partsInRect alone; never handed out). */
let worldScratch = new Float64Array(1024);

/** partsInRect's scratch vertices (one part at a time; never handed out). */
let partScratch = new Float64Array(256);

/**
 * Visits the parts of a whole feature's lines inside the canvas grown by `grow`, in world pixels,
 * once per copy of the world the canvas shows (shifted by dx). A tiled source's piece is cut to its
 * own tile's square too (its buffer is the neighbours'): `clip`, that square (everything for a
 * whole line). `shift` [tx, ty]: the lines move by it afterwards, so the canvas and `clip` are
 * taken back by it; `snap` rewrites a line's world pixels before it is cut (dash and stroke-solid's
 * MapLibre lines both walk this way); `measure`: partsInRect's.
 */
export function visitLineParts(
  w: WholeFeature,
  canvas: Canvas,
  grow: number,
  visit: (part: LinePart, clip: [number, number, number, number]) => void,
  shift: readonly [number, number] = [0, 0],
  snap?: (line: Float64Array) => void,
  measure?: LineMeasure,
): void {
  const W = worldSize(canvas);
  const [tx, ty] = shift;
  const r = { x0: canvas.x0 - grow - tx, y0: canvas.y0 - grow - ty, x1: canvas.x0 + canvas.width + grow - tx, y1: canvas.y0 + canvas.height + grow - ty };
  if (!w.lines.length || w.box[3] * W < r.y0 || w.box[1] * W > r.y1) return;
  for (const dx of worldShifts(w.box[0], w.box[2], canvas, grow)) {
    const o = w.owner;
    const clip: [number, number, number, number] = o
      ? [o[0] * W + dx - tx, o[1] * W - ty, o[2] * W + dx - tx, o[3] * W - ty]
      : [-Infinity, -Infinity, Infinity, Infinity];
    const rr = o ? { x0: Math.max(r.x0, clip[0]), y0: Math.max(r.y0, clip[1]), x1: Math.min(r.x1, clip[2]), y1: Math.min(r.y1, clip[3]) } : r;
    if (!(rr.x1 > rr.x0 && rr.y1 > rr.y0)) continue;
    for (const line of w.lines) {
      // A line whose every vertex lies more than a pixel outside rr on one side gives no part:
      // each segment's Liang-Barsky test leaves it out (t0 > 1 or t1 < 0 by far more than the
      // rounding, world pixels being < 2^31), so it is not converted and walked. Its box in
      // world pixels is its Mercator box times W plus dx (monotonic rounding: the same bounds as
      // the converted vertices'). Not with `snap` (it moves vertices), nor with NaN vertices.
      if (!snap) {
        const b = lineBox(line);
        if (b && (b[2] * W + dx < rr.x0 - 1 || b[0] * W + dx > rr.x1 + 1 || b[3] * W < rr.y0 - 1 || b[1] * W > rr.y1 + 1)) continue;
      }
      // In world pixels in a reused scratch array: partsInRect copies the parts out.
      if (worldScratch.length < line.length) worldScratch = new Float64Array(Math.max(line.length, 2 * worldScratch.length));
      const q = scaleInto(line, W, dx, new Float64Array(worldScratch.buffer, 0, line.length));
      snap?.(q);
      for (const part of partsInRect(q, rr, measure)) visit(part, clip);
    }
  }
}

/** Mercator boxes of whole lines (memoised: a whole feature's lines are kept across renders and never mutated). */
const lineBoxes = new WeakMap<ArrayLike<number>, readonly [number, number, number, number] | null>();

/** A line's box [x0, y0, x1, y1], null when a coordinate is NaN (no box bounds its parts then). */
export function lineBox(line: ArrayLike<number>): readonly [number, number, number, number] | null {
  let b = lineBoxes.get(line);
  if (b === undefined) {
    let x0 = Infinity,
      y0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity;
    let nan = false;
    for (let i = 0; i + 1 < line.length; i += 2) {
      const x = line[i]!,
        y = line[i + 1]!;
      if (x !== x || y !== y) nan = true;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    b = nan ? null : [x0, y0, x1, y1];
    lineBoxes.set(line, b);
  }
  return b;
}

/** The feature with its rings as closed polylines (first vertex repeated), lines and points kept (memoised). */
export function wholeBoundary(w: WholeFeature): WholeFeature {
  if (!w.boundary) {
    const rings = w.polygons.flat().map((r) => {
      const l = new Float64Array(r.length + 2);
      l.set(r);
      l[r.length] = r[0]!;
      l[r.length + 1] = r[1]!;
      return l;
    });
    w.boundary = { properties: w.properties, polygons: [], lines: [...w.lines, ...rings], points: w.points, box: w.box };
    if (w.id !== undefined) w.boundary.id = w.id;
  }
  return w.boundary;
}

// Hulls and boxes of a whole layer, memoised on its feature list: an unfiltered layer hands every
// render the same list, so a large document is measured once (the lists are never mutated).
const hulls = new WeakMap<readonly WholeFeature[], Float64Array | undefined>();
const boxes = new WeakMap<readonly WholeFeature[], [number, number, number, number] | undefined>();

/** Convex hull of every vertex of the features (Mercator units), memoised. */
export function wholeHull(ws: readonly WholeFeature[]): Float64Array | undefined {
  if (!hulls.has(ws)) {
    const xy: number[] = [];
    eachWholeVertex(ws)((x, y) => xy.push(x, y));
    hulls.set(ws, convexHull(xy));
  }
  return hulls.get(ws);
}

/** Box of every vertex of the features (Mercator units), memoised. */
export function wholeBox(ws: readonly WholeFeature[]): [number, number, number, number] | undefined {
  if (!boxes.has(ws)) boxes.set(ws, boxOf(eachWholeVertex(ws)));
  return boxes.get(ws);
}

/** One feature holding a Mercator-unit ring (a hull, a box) in world pixels, per world copy that meets the canvas. */
export function wholeRingFeature(ring: Float64Array | undefined, c: Canvas, grow: number): FeatureGroup[] {
  if (!ring) return [];
  return wholePolygon(
    ring,
    boxOf((v) => {
      for (let i = 0; i + 1 < ring.length; i += 2) v(ring[i]!, ring[i + 1]!);
    })!,
    c,
    grow,
  );
}
