// GroupCollector (src/sources/sample.ts) as it was before issue 25's tenth round wrote every line
// and ring into one buffer and clipped lines over the tile's own coordinates: kept as the
// reference the rewrite must equal bit for bit (tests/sources/sample-collector.test.ts), as
// clip.test.ts keeps the clips' plain loops.
import { clipLine, clipRing, ringArea, type Rect } from '../../src/geometry/clip.js';
import type { FeatureGroup } from '../../src/types.js';
import type { SourceTileRef } from '../../src/sources/tiles.js';
import { sameProperties, unitRect, type TileFeature } from '../../src/sources/sample.js';

// Groups without points share this (a zero-length array cannot be modified).
const NO_POINTS = new Float64Array(0);

/** GroupCollector.addTile's scratch: the indexes of one source tile's features that may be sampled. */
let meeting = new Int32Array(256);

/** One group under construction; the arrays that most groups never need are made on first use. */
interface Builder {
  group: FeatureGroup;
  points: number[] | undefined;
  /** Line index and cut flags of the lines with a cut end (the rest are 0). */
  cuts: number[] | undefined;
  /** Parallels group.polygons once some ring has a clipped edge. */
  ringCuts: (Uint8Array | undefined)[][] | undefined;
  tile: number;
  /** A feature that did not pass the selection, kept only for how it merges (see addTile): not output. */
  ghost: boolean;
}

/** GroupCollector as it was before the tenth round (issue 25): the reference of its rewrite. */
export class ReferenceCollector {
  private readonly builders: Builder[] = [];
  private readonly byId = [new Map<number | string, Builder>(), new Map<number | string, Builder>(), new Map<number | string, Builder>()];
  private readonly byProps = [new Map<object, Builder>(), new Map<object, Builder>(), new Map<object, Builder>()];
  /** Whether the feature being added is a ghost (see addTile). */
  private ghost = false;

  /**
   * `merge` false: the canvas is covered by one source tile, so no two pieces can merge (two
   * features of one tile never do) and the lookups are skipped. `sharedProperties`: the source
   * hands every piece of a feature the feature's own properties object (geojson-vt does, for
   * GeoJSON), which then decides alone; decoded tiles (MVT) give each feature its own object, and
   * pieces merge on id and equal properties (real tilesets reuse ids, so never within a tile).
   */
  constructor(
    private readonly merge = true,
    private readonly sharedProperties = false,
  ) {}

  /**
   * Add the features of one source tile. `tileIndex` tells tiles apart: pieces from different
   * tiles merge when id, geometry type and properties agree. Properties are compared because real
   * tilesets reuse ids (Mapbox Streets v7: 0 for every landuse, per-tile sequence numbers for
   * buildings); two features of one tile never merge.
   *
   * `keep` (one flag per feature) selects features: the groups are those of every feature,
   * filtered. A feature left out can still decide how others merge: the first group made for an
   * id (and type) is the one later pieces with that id look up, so a left-out one there keeps two
   * kept pieces from merging. A left-out feature is therefore sampled, as a ghost that merges like
   * any group (only with pieces that fail alike: same id, type and properties) and is not output,
   * when its id is in `ghostIds` (ids under which kept pieces could merge: mergeableIds) and no
   * group holds the id yet; the others cannot change a kept group and are skipped.
   */
  addTile(
    features: readonly TileFeature[],
    extent: number,
    t: SourceTileRef,
    rect: Rect,
    tileIndex: number,
    keep?: Uint8Array,
    ghostIds?: ReadonlySet<number | string>,
  ): void {
    const s = t.size / extent;
    // The contribution rectangle in tile units, to skip clipping for features wholly inside it.
    const [ux0, uy0, ux1, uy1] = unitRect(t, extent, rect);
    // The features that may be sampled (selected or a possible ghost, their box meeting the
    // rectangle), in order, and room for the lines and polygon rings of those wholly inside (points
    // are copied). An over-zoomed source tile holds four times a canvas's features.
    if (meeting.length < features.length) meeting = new Int32Array(Math.max(features.length, meeting.length * 2));
    const list = meeting;
    let count = 0;
    let room = 0;
    for (let i = 0; i < features.length; i++) {
      const f = features[i]!;
      if (keep && keep[i] === 0 && !(f.id !== undefined && ghostIds?.has(f.id))) continue;
      const bb = f.bbox;
      const bx0 = bb[0],
        by0 = bb[1],
        bx1 = bb[2],
        by1 = bb[3];
      if (bx1 < ux0 || bx0 > ux1 || by1 < uy0 || by0 > uy1) continue;
      list[count++] = i;
      if (f.type !== 1 && bx0 >= ux0 && bx1 <= ux1 && by0 >= uy0 && by1 <= uy1) room += f.coords.length;
    }
    const arena = room ? new Arena(room) : undefined;
    for (let k = 0; k < count; k++) {
      const i = list[k]!;
      const f = features[i]!;
      this.ghost = keep !== undefined && keep[i] === 0;
      // A ghost only while no group holds its id (the groups made so far for this canvas).
      if (this.ghost && this.byId[f.type - 1]!.has(f.id!)) continue;
      const bb = f.bbox;
      const inside = bb[0] >= ux0 && bb[2] <= ux1 && bb[1] >= uy0 && bb[3] <= uy1;
      if (f.type === 1) this.addPoints(f, t, s, rect, tileIndex);
      else if (f.type === 2) this.addLines(f, t, s, rect, inside ? arena : undefined, tileIndex);
      else if (f.type === 3) this.addPolygons(f, t, s, rect, inside ? arena : undefined, tileIndex);
    }
  }

  private builder(f: TileFeature, tileIndex: number): Builder {
    if (this.sharedProperties) {
      // The very same properties object is the same source feature, in one tile or several (world
      // copies can share a tile): one group, so a canvas of one tile and a canvas of several group
      // alike (else a buffer erodes the pieces of one feature apart along their shared edge).
      const byProps = this.byProps[f.type - 1]!;
      const same = byProps.get(f.properties);
      if (same) return same;
      const b = this.newBuilder(f, tileIndex);
      byProps.set(f.properties, b);
      return b;
    }
    if (!this.merge || f.id === undefined) return this.newBuilder(f, tileIndex);
    const byId = this.byId[f.type - 1]!;
    const b = byId.get(f.id);
    if (b && b.tile !== tileIndex && sameProperties(b.group.properties, f.properties)) {
      b.tile = tileIndex;
      return b;
    }
    const nb = this.newBuilder(f, tileIndex);
    if (!b) byId.set(f.id, nb);
    return nb;
  }

  private newBuilder(f: TileFeature, tileIndex: number): Builder {
    const group: FeatureGroup = { properties: f.properties, polygons: [], lines: [], points: NO_POINTS };
    if (f.id !== undefined) group.id = f.id;
    const b: Builder = { group, points: undefined, cuts: undefined, ringCuts: undefined, tile: tileIndex, ghost: this.ghost };
    this.builders.push(b);
    return b;
  }

  private addPoints(f: TileFeature, t: SourceTileRef, s: number, r: Rect, tileIndex: number): void {
    const c = f.coords;
    let b: Builder | undefined;
    for (let i = 0; i < c.length; i += 2) {
      const x = t.px0 + c[i]! * s;
      const y = t.py0 + c[i + 1]! * s;
      // Half-open, so a point on a shared tile edge is taken by exactly one tile.
      if (x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1) {
        b ??= this.builder(f, tileIndex);
        (b.points ??= []).push(x, y);
      }
    }
  }

  /** `arena` is given for a feature wholly inside the rectangle (nothing to clip). */
  private addLines(f: TileFeature, t: SourceTileRef, s: number, r: Rect, arena: Arena | undefined, tileIndex: number): void {
    let b: Builder | undefined;
    for (let p = 0; p + 1 < f.parts.length; p++) {
      if (arena) {
        const flat = toWorld(f.coords, f.parts[p]!, f.parts[p + 1]!, t, s, arena);
        if (flat.length < 4) continue;
        b ??= this.builder(f, tileIndex);
        b.group.lines.push(flat);
        continue;
      }
      // Into the scratch array (no view of it made), which clipLine copies from.
      const start = f.parts[p]!;
      const len = 2 * pointCount(f.coords, start, f.parts[p + 1]!);
      if (len < 4) continue;
      if (clipInput.length < len) clipInput = new Float64Array(Math.max(len, clipInput.length * 2));
      writeWorld(f.coords, start, len, t, s, clipInput);
      for (const piece of clipLine(clipInput, r, len)) {
        b ??= this.builder(f, tileIndex);
        if (piece.cut !== 0) (b.cuts ??= []).push(b.group.lines.length, piece.cut);
        b.group.lines.push(piece.line);
      }
    }
  }

  /** `arena` is given for a feature wholly inside the rectangle (nothing to clip). */
  private addPolygons(f: TileFeature, t: SourceTileRef, s: number, r: Rect, arena: Arena | undefined, tileIndex: number): void {
    let b: Builder | undefined;
    // A tile at the west or east end of the world, with the feature reaching its outer edge: edges
    // along the antimeridian may be there (see antimeridianEdges).
    const n = 2 ** t.z;
    const worldSize = t.size * n;
    const edge = (t.wx === 0 && f.bbox[0] <= 0) || (t.wx === n - 1 && f.bbox[2] * s >= t.size);
    let current: Float64Array[] | undefined;
    for (let p = 0; p + 1 < f.parts.length; p++) {
      const isExterior = f.exterior ? f.exterior[p] === 1 : p === 0;
      if (!isExterior && !current) continue; // the hole of an exterior that fell outside
      // Without an arena, a scratch view that clipRing copies from.
      let ring = toWorld(f.coords, f.parts[p]!, f.parts[p + 1]!, t, s, arena);
      let cuts: Uint8Array | undefined;
      if (!arena) {
        ring = clipRing(ring, r);
        cuts = clipEdges(ring, r);
      }
      if (edge) cuts = antimeridianEdges(ring, worldSize, cuts);
      const a = ringArea(ring);
      if (ring.length < 6 || a === 0) {
        if (isExterior) current = undefined;
        continue;
      }
      // Exteriors wind clockwise on screen (positive area with y down), holes the other way.
      if (a < 0 === isExterior) {
        reverseInPlace(ring);
        if (cuts) cuts = reverseEdgeFlags(cuts);
      }
      b ??= this.builder(f, tileIndex);
      const polygons = b.group.polygons;
      if (isExterior) {
        current = [ring];
        polygons.push(current);
        b.ringCuts?.push([cuts]);
      } else {
        current!.push(ring);
        if (b.ringCuts) b.ringCuts[polygons.length - 1]!.push(cuts);
      }
      if (cuts && !b.ringCuts) {
        // The first ring with a clipped edge: every ring so far gets its (empty) entry.
        b.ringCuts = polygons.map((poly) => poly.map(() => undefined));
        const last = b.ringCuts[polygons.length - 1]!;
        last[last.length - 1] = cuts;
      }
    }
  }

  /** The groups, with point and cut arrays frozen into typed arrays. */
  finish(): FeatureGroup[] {
    const out: FeatureGroup[] = [];
    for (const b of this.builders) {
      if (b.ghost) continue;
      const g = b.group;
      if (b.points?.length) g.points = Float64Array.from(b.points);
      if (b.cuts) {
        const cutEnds = new Uint8Array(g.lines.length);
        for (let i = 0; i < b.cuts.length; i += 2) cutEnds[b.cuts[i]!] = b.cuts[i + 1]!;
        g.cutEnds = cutEnds;
      }
      if (b.ringCuts) g.polygonCuts = b.ringCuts;
      if (g.points.length || g.lines.length || g.polygons.length) out.push(g);
    }
    return out;
  }
}

/** Reverse a flat ring's vertex order in place (the reverseRing of geometry/clip, without a copy). */
function reverseInPlace(ring: Float64Array): void {
  for (let i = 0, j = ring.length - 2; i < j; i += 2, j -= 2) {
    const x = ring[i]!,
      y = ring[i + 1]!;
    ring[i] = ring[j]!;
    ring[i + 1] = ring[j + 1]!;
    ring[j] = x;
    ring[j + 1] = y;
  }
}

/** Where toWorld writes the lines and rings that are clipped next (the clip copies what it keeps). */
let clipInput = new Float64Array(4096);

/**
 * Vertices [start, end) of a flat tile-unit array, in world pixels; drops a repeated closing
 * vertex. Written into `arena` (a view of it is returned) when given, else into a scratch array
 * that the next call overwrites: the caller clips it at once (clipLine and clipRing copy their
 * output), so a feature that needs clipping makes no garbage here.
 */
function toWorld(c: Int32Array, start: number, end: number, t: SourceTileRef, s: number, arena?: Arena): Float64Array {
  const n = pointCount(c, start, end);
  if (!arena && clipInput.length < n * 2) clipInput = new Float64Array(Math.max(n * 2, clipInput.length * 2));
  const out = arena ? arena.take(n * 2) : clipInput.subarray(0, n * 2);
  writeWorld(c, start, n * 2, t, s, out);
  return out;
}

/** Points [start, end) of a flat tile-unit array less a repeated closing one. */
function pointCount(c: Int32Array, start: number, end: number): number {
  const n = end - start;
  return n > 1 && c[start * 2] === c[(end - 1) * 2] && c[start * 2 + 1] === c[(end - 1) * 2 + 1] ? n - 1 : n;
}

/** `len` values from point `start` of a flat tile-unit array, in world pixels, into `out`. */
function writeWorld(c: Int32Array, start: number, len: number, t: SourceTileRef, s: number, out: Float64Array): void {
  const px0 = t.px0,
    py0 = t.py0;
  for (let i = 0, k = start * 2; i < len; i += 2, k += 2) {
    out[i] = px0 + c[k]! * s;
    out[i + 1] = py0 + c[k + 1]! * s;
  }
}

/**
 * One Float64Array that the rings and lines of wholly inside features are views of: one
 * allocation per source tile instead of one per ring (off-heap backing stores are what the
 * collector spends its time on). Views never overlap, so each stays an independent array.
 */
class Arena {
  private buf: Float64Array;
  private used = 0;

  constructor(size: number) {
    this.buf = new Float64Array(size);
  }

  take(n: number): Float64Array {
    if (this.used + n > this.buf.length) {
      // Only when the size estimate was short: a new block (the old one stays with its views).
      this.buf = new Float64Array(Math.max(n, this.buf.length));
      this.used = 0;
    }
    const v = this.buf.subarray(this.used, this.used + n);
    this.used += n;
    return v;
  }
}

/**
 * Flags of edges (vertex i to i+1, wrapping) lying on a side of the clip rectangle; undefined when
 * none do. Vertices within rounding distance of a side are first snapped onto it, so that pieces
 * from neighbouring tiles share their seam coordinates exactly.
 */
function clipEdges(ring: Float64Array, r: Rect): Uint8Array | undefined {
  const n = ring.length / 2;
  const eps = 1e-10 * Math.max(1, Math.abs(r.x1), Math.abs(r.y1));
  for (let i = 0; i < ring.length; i += 2) {
    const x = ring[i]!,
      y = ring[i + 1]!;
    if (Math.abs(x - r.x0) < eps) ring[i] = r.x0;
    else if (Math.abs(x - r.x1) < eps) ring[i] = r.x1;
    if (Math.abs(y - r.y0) < eps) ring[i + 1] = r.y0;
    else if (Math.abs(y - r.y1) < eps) ring[i + 1] = r.y1;
  }
  let flags: Uint8Array | undefined;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const ax = ring[i * 2]!,
      ay = ring[i * 2 + 1]!,
      bx = ring[j * 2]!,
      by = ring[j * 2 + 1]!;
    if ((ax === bx && (ax === r.x0 || ax === r.x1)) || (ay === by && (ay === r.y0 || ay === r.y1))) {
      flags ??= new Uint8Array(n);
      flags[i] = 1;
    }
  }
  return flags;
}

/**
 * Flags (added to `flags`) of the edges lying on the antimeridian (x a multiple of the world's
 * width): the cut of an RFC 7946 polygon, or the side of an area closed through the pole
 * (Antarctica), never a boundary to draw. Without this a tile whose canvas holds such an edge
 * inside one source tile's data stroked it, while a canvas whose source tiles meet there (a window
 * across the antimeridian) cut it: the seam differed by which tiles a canvas loaded.
 */
function antimeridianEdges(ring: Float64Array, worldSize: number, flags: Uint8Array | undefined): Uint8Array | undefined {
  const n = ring.length / 2;
  for (let i = 0; i < n; i++) {
    const x = ring[i * 2]!;
    if (x !== ring[((i + 1) % n) * 2]! || x % worldSize !== 0) continue;
    flags ??= new Uint8Array(n);
    flags[i] = 1;
  }
  return flags;
}

/** Edge flags of a ring after reverseRing: edge i of the reversed ring is edge n-2-i (mod n) of the original. */
function reverseEdgeFlags(f: Uint8Array): Uint8Array {
  const n = f.length;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = f[(((n - 2 - i) % n) + n) % n]!;
  return out;
}
