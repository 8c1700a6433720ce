// From decoded source tiles to feature groups for one canvas: each source tile contributes its own
// square, so pieces from neighbouring tiles abut exactly; sides of the covered block that lie
// outside the canvas are pushed out by CLIP_BUFFER so their clip edges and cut line ends stay out
// of sight; pieces of one feature (same id and properties) from several tiles merge into one group.
import {
  CUT_END,
  CUT_END_X,
  CUT_END_Y,
  CUT_START,
  CUT_START_X,
  CUT_START_Y,
  clipRingScratch,
  ringArea,
  segmentSpan,
  span,
  type Rect,
} from '../geometry/clip.js';
import { hypot } from '../geometry/hypot.js';
import type { Canvas, FeatureGroup } from '../types.js';
import type { SourceTileRef } from './tiles.js';

/** World pixels kept beyond the canvas: clip edges and cut line ends land outside it. */
export const CLIP_BUFFER = 32;

/**
 * One feature of a decoded source tile, geometry in tile units (0..extent, may overshoot into the
 * tile's buffer). Flat coordinates; `parts` holds the first vertex of each ring / line plus a final
 * end index. Points: one part holding every point.
 */
export interface TileFeature {
  id?: number | string;
  properties: Record<string, unknown>;
  type: 1 | 2 | 3;
  coords: Int32Array;
  parts: Uint32Array;
  /** Polygons: 1 where the ring is an exterior (the rest are holes of the preceding exterior). */
  exterior?: Uint8Array;
  /** Bounding box in tile units. */
  bbox: [number, number, number, number];
}

export interface DecodedLayer {
  extent: number;
  features: TileFeature[];
}

/** Estimated memory of a decoded layer (for the byte-bounded cache): typed arrays plus a flat 256 bytes per feature for its objects and properties. */
export function layerBytes(l: DecodedLayer): number {
  let b = 64;
  for (const f of l.features) b += 256 + f.coords.byteLength + f.parts.byteLength + (f.exterior?.byteLength ?? 0);
  return b;
}

/**
 * Estimated memory of sampled feature groups (for the byte-bounded cache): the coordinates plus
 * 112 bytes a typed array (a view's object and its slot) and 320 a group (its object, arrays and
 * cut flags): within 3% of the V8 heap and array buffers that GroupCollector's groups of the z14
 * bench tiles hold (maplibre-effects, hand-drawn; issue 25, tenth round).
 */
export function groupsBytes(groups: readonly FeatureGroup[]): number {
  let b = 64;
  for (const g of groups) {
    b += 320 + g.points.byteLength + (g.cutEnds?.byteLength ?? 0) + (g.cutBeyond ? 112 + g.cutBeyond.byteLength : 0);
    for (const l of g.lines) b += 112 + l.byteLength;
    for (const p of g.polygons) for (const r of p) b += 112 + r.byteLength;
    if (g.polygonCuts) for (const p of g.polygonCuts) for (const c of p) b += c ? 112 + c.byteLength : 8;
  }
  return b;
}

/** Cache key part of a canvas: everything its sampled geometry depends on (not pixelRatio). */
export function canvasKey(c: Canvas): string {
  return `${c.z}|${c.x0}|${c.y0}|${c.width}x${c.height}|${c.tileSize}`;
}

/** Per source tile of a covering block: the rectangle it contributes (its square, outer sides pushed out). */
export function contributionRects(tiles: readonly SourceTileRef[], canvas: Canvas, buffer = CLIP_BUFFER): Rect[] {
  let tx0 = Infinity,
    tx1 = -Infinity,
    ty0 = Infinity,
    ty1 = -Infinity;
  for (const t of tiles) {
    tx0 = Math.min(tx0, t.x);
    tx1 = Math.max(tx1, t.x);
    ty0 = Math.min(ty0, t.y);
    ty1 = Math.max(ty1, t.y);
  }
  const cx0 = canvas.x0 - buffer,
    cy0 = canvas.y0 - buffer;
  const cx1 = canvas.x0 + canvas.width + buffer,
    cy1 = canvas.y0 + canvas.height + buffer;
  // Outer sides reach exactly the buffer beyond the canvas (into the tile's own buffer data);
  // inner sides are the shared tile edges.
  // push, not map: one array kind whichever tier runs this (see VectorSource.sample).
  const out: Rect[] = [];
  for (const t of tiles)
    out.push({
      x0: t.x === tx0 ? cx0 : t.px0,
      y0: t.y === ty0 ? cy0 : t.py0,
      x1: t.x === tx1 ? cx1 : t.px0 + t.size,
      y1: t.y === ty1 ? cy1 : t.py0 + t.size,
    });
  return out;
}

// Groups without points share this (a zero-length array cannot be modified).
const NO_POINTS = new Float64Array(0);

/** A collector's coordinate buffer given back by finish() for the next collector (one sample at a time in practice). */
let spareBuffer: Float64Array | undefined;
/** The box of no feature: every vertex lies on it (a collector before its first addTile). */
const NO_BOX = Float64Array.of(Infinity, Infinity, -Infinity, -Infinity);

/** outerBox's answers, by layer. */
const outerBoxes = new WeakMap<readonly TileFeature[], Float64Array>();

/**
 * The box of every feature of a decoded layer, in tile units: where its encoder clipped the
 * layer (the tile's buffer), so a vertex on it may be such a cut rather than the feature's own.
 */
function outerBox(features: readonly TileFeature[]): Float64Array {
  let box = outerBoxes.get(features);
  if (box) return box;
  box = Float64Array.of(Infinity, Infinity, -Infinity, -Infinity);
  for (const f of features) {
    const b = f.bbox;
    if (b[0] < box[0]!) box[0] = b[0];
    if (b[1] < box[1]!) box[1] = b[1];
    if (b[2] > box[2]!) box[2] = b[2];
    if (b[3] > box[3]!) box[3] = b[3];
  }
  outerBoxes.set(features, box);
  return box;
}

/** A buffer past this many values is not kept between collectors (a huge layer's is dropped). */
const BUFFER_KEEP = 1 << 20;

/** One group under construction; the arrays that most groups never need are made on first use. */
interface Builder {
  group: FeatureGroup;
  points: number[] | undefined;
  /** Offset and length in the collector's buffer of each line, in order. */
  lines: number[] | undefined;
  /** Line index and cut flags of the lines with a cut end (the rest are 0). */
  cuts: number[] | undefined;
  /** Line index, then how far the clipped segment ran past its start's and its end's cut (FeatureGroup.cutBeyond), of the same lines. */
  beyond: number[] | undefined;
  /** Offset and length of each polygon ring, in order; `polys` the index of each polygon's exterior among them. */
  rings: number[] | undefined;
  polys: number[] | undefined;
  /** Parallels the rings once some ring has a clipped edge. */
  ringCuts: (Uint8Array | undefined)[] | undefined;
  tile: number;
  /** A feature that did not pass the selection, kept only for how it merges (see addTile): not output. */
  ghost: boolean;
}

/**
 * Collects the pieces of every source tile of one canvas into feature groups. The coordinates of
 * every line and ring are written into one growing buffer (no array per line or ring while
 * sampling: clipping an over-zoomed tile's roads for each canvas and node made an array per
 * piece, the collector's garbage); finish() copies it into one array of the exact size that the
 * groups' lines and rings are views of (independent views: they never overlap).
 */
export class GroupCollector {
  private readonly builders: Builder[] = [];
  private readonly byId = [new Map<number | string, Builder>(), new Map<number | string, Builder>(), new Map<number | string, Builder>()];
  private readonly byProps = [new Map<object, Builder>(), new Map<object, Builder>(), new Map<object, Builder>()];
  /** Whether the feature being added is a ghost (see addTile). */
  private ghost = false;
  /** outerBox of the layer addTile is adding. */
  private outer: Float64Array = NO_BOX;
  /** The coordinate buffer, its first `used` values taken. */
  private buf: Float64Array;
  private used = 0;

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
  ) {
    this.buf = spareBuffer ?? new Float64Array(4096);
    spareBuffer = undefined;
  }

  /** Room for `n` more values after the taken ones (the buffer grown, its taken values kept). */
  private reserve(n: number): Float64Array {
    const need = this.used + n;
    if (need > this.buf.length) {
      const grown = new Float64Array(Math.max(need, this.buf.length * 2));
      grown.set(this.buf.subarray(0, this.used));
      this.buf = grown;
    }
    return this.buf;
  }

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
   * group holds the id yet; the others cannot change a kept group and are skipped. `kept`, the
   * indexes of the features `keep` flags, in order, is walked instead of every feature when no
   * feature can be a ghost (`ghostIds` empty or absent).
   */
  addTile(
    features: readonly TileFeature[],
    extent: number,
    t: SourceTileRef,
    rect: Rect,
    tileIndex: number,
    keep?: Uint8Array,
    ghostIds?: ReadonlySet<number | string>,
    kept?: Int32Array,
  ): void {
    const s = t.size / extent;
    this.outer = outerBox(features);
    // The contribution rectangle in tile units, to skip clipping for features wholly inside it.
    const [ux0, uy0, ux1, uy1] = unitRect(t, extent, rect);
    // The features that may be sampled (selected or a possible ghost, their box meeting the
    // rectangle), in order; only the kept ones (`kept`, their indexes) when no ghost can be.
    const ghosts = keep !== undefined && ghostIds !== undefined && ghostIds.size > 0;
    const only = keep && !ghosts ? kept : undefined;
    const count = only ? only.length : features.length;
    for (let k = 0; k < count; k++) {
      const i = only ? only[k]! : k;
      const f = features[i]!;
      this.ghost = keep !== undefined && keep[i] === 0;
      // A ghost only while no group holds its id (the groups made so far for this canvas).
      if (this.ghost && !(ghosts && f.id !== undefined && ghostIds.has(f.id) && !this.byId[f.type - 1]!.has(f.id))) continue;
      const bb = f.bbox;
      if (bb[2] < ux0 || bb[0] > ux1 || bb[3] < uy0 || bb[1] > uy1) continue;
      const inside = bb[0] >= ux0 && bb[2] <= ux1 && bb[1] >= uy0 && bb[3] <= uy1;
      // A ghost's geometry is never output: whatever it wrote is given back.
      const used = this.used;
      if (f.type === 1) this.addPoints(f, t, s, rect, tileIndex);
      else if (f.type === 2) this.addLines(f, t, s, rect, inside, tileIndex);
      else if (f.type === 3) this.addPolygons(f, t, s, rect, inside, tileIndex);
      if (this.ghost) this.used = used;
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
    const b: Builder = {
      group,
      points: undefined,
      lines: undefined,
      cuts: undefined,
      beyond: undefined,
      rings: undefined,
      polys: undefined,
      ringCuts: undefined,
      tile: tileIndex,
      ghost: this.ghost,
    };
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

  /** `inside`: the feature lies wholly inside the rectangle (nothing to clip). */
  private addLines(f: TileFeature, t: SourceTileRef, s: number, r: Rect, inside: boolean, tileIndex: number): void {
    let b: Builder | undefined;
    // How far past a side both ends of a segment must lie for clipTileLine to reject it unclipped.
    const gap = inside ? 0 : rejectGap(f, t, s, r);
    for (let p = 0; p + 1 < f.parts.length; p++) {
      const start = f.parts[p]!;
      const n = pointCount(f.coords, start, f.parts[p + 1]!);
      if (n < 2) continue;
      if (inside) {
        writeWorld(f.coords, start, 2 * n, t, s, this.reserve(2 * n), this.used);
        b ??= this.builder(f, tileIndex);
        (b.lines ??= []).push(this.used, 2 * n);
        this.used += 2 * n;
        continue;
      }
      b = this.clipTileLine(f, start, n, t, s, r, gap, tileIndex, b);
    }
  }

  /**
   * clipLine (src/geometry/clip.ts) of points [start, start + n) of a tile line in world pixels,
   * bit for bit: the same pieces, points and cut flags, each piece written into the buffer and
   * added to the feature's group (made with its first piece). The world coordinates are computed
   * as writeWorld does, as the segments are walked; a segment whose ends both lie more than `gap`
   * past one side of the rectangle is rejected without segmentSpan (see rejectGap: segmentSpan
   * rejects it too), and an over-zoomed tile's long roads lie mostly outside a canvas.
   */
  private clipTileLine(
    f: TileFeature,
    start: number,
    n: number,
    t: SourceTileRef,
    s: number,
    r: Rect,
    gap: number,
    tileIndex: number,
    b: Builder | undefined,
  ): Builder | undefined {
    const c = f.coords;
    const px0 = t.px0,
      py0 = t.py0;
    const x0 = r.x0,
      y0 = r.y0,
      x1 = r.x1,
      y1 = r.y1;
    const ox0 = x0 - gap,
      oy0 = y0 - gap,
      ox1 = x1 + gap,
      oy1 = y1 + gap;
    // The pieces of one line hold at most 2n - 1 points (a start each, then one per segment).
    const cur = this.reserve(4 * n);
    let at = this.used;
    let m = 0;
    let curCut = 0;
    // How far the segment cut at the piece's start ran before the cut (Infinity: not cut there).
    let curBeyond = Infinity;
    let k = start * 2;
    let bx = px0 + c[k]! * s;
    let by = py0 + c[k + 1]! * s;
    for (let i = 0; i < n - 1; i++) {
      const ax = bx,
        ay = by;
      k += 2;
      bx = px0 + c[k]! * s;
      by = py0 + c[k + 1]! * s;
      const dx = bx - ax;
      const dy = by - ay;
      if (m !== 0 && bx > x0 && bx < x1 && by > y0 && by < y1 && ax > x0 && ax < x1 && ay > y0 && ay < y1) {
        cur[at + m++] = ax + dx;
        cur[at + m++] = ay + dy;
        continue;
      }
      if (
        (ax < ox0 && bx < ox0) ||
        (ax > ox1 && bx > ox1) ||
        (ay < oy0 && by < oy0) ||
        (ay > oy1 && by > oy1) ||
        !segmentSpan(ax, ay, dx, dy, x0, y0, x1, y1)
      ) {
        if (m) {
          const x = cur[at + m - 2]!,
            y = cur[at + m - 1]!;
          if (m >= 4) {
            // The piece ends on the side this segment leaves from: it runs its whole length past.
            const cut = curCut | CUT_END | (x === x0 || x === x1 ? CUT_END_X : y === y0 || y === y1 ? CUT_END_Y : 0);
            b = this.linePiece(f, tileIndex, b, at, m, cut, curBeyond, this.beyond(c[k]!, c[k + 1]!, hypot(dx, dy)));
            at += m;
          }
          m = 0;
          curCut = 0;
          curBeyond = Infinity;
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
      if (k0 >= 0) {
        if (k0 < 2) sx = k0 === 0 ? x0 : x1;
        else sy = k0 === 2 ? y0 : y1;
      }
      if (k1 >= 0 && t1 < 1) {
        if (k1 < 2) ex = k1 === 0 ? x0 : x1;
        else ey = k1 === 2 ? y0 : y1;
      }
      if (m === 0) {
        cur[at + m++] = sx;
        cur[at + m++] = sy;
        if (t0 > 0) {
          curCut = CUT_START | (k0 < 2 ? CUT_START_X : CUT_START_Y);
          curBeyond = this.beyond(c[k - 2]!, c[k - 1]!, t0 * hypot(dx, dy));
        } else curCut = ax >= x0 && ax <= x1 && ay >= y0 && ay <= y1 ? 0 : CUT_START;
      }
      cur[at + m++] = ex;
      cur[at + m++] = ey;
      if (t1 < 1) {
        if (m >= 4) {
          const cut = curCut | CUT_END | (k1 < 2 ? CUT_END_X : CUT_END_Y);
          b = this.linePiece(f, tileIndex, b, at, m, cut, curBeyond, this.beyond(c[k]!, c[k + 1]!, (1 - t1) * hypot(dx, dy)));
          at += m;
        }
        m = 0;
        curCut = 0;
        curBeyond = Infinity;
      }
    }
    if (m >= 4) {
      b = this.linePiece(f, tileIndex, b, at, m, curCut, curBeyond, Infinity);
      at += m;
    }
    this.used = at;
    return b;
  }

  /**
   * How far a cut segment runs on past its cut (`length`), to the vertex (ux, uy) in tile units;
   * Infinity (not known) when that vertex lies on the layer's outer box: where the tile's encoder
   * may have cut the line at its buffer, short of where it goes on.
   */
  private beyond(ux: number, uy: number, length: number): number {
    const o = this.outer;
    return ux <= o[0]! || uy <= o[1]! || ux >= o[2]! || uy >= o[3]! ? Infinity : length;
  }

  /**
   * One clipped piece, `len` values at `at` in the buffer, added to the feature's group;
   * `startBeyond` / `endBeyond`: how far its segment ran past a cut start / end (FeatureGroup.cutBeyond).
   */
  private linePiece(
    f: TileFeature,
    tileIndex: number,
    b: Builder | undefined,
    at: number,
    len: number,
    cut: number,
    startBeyond: number,
    endBeyond: number,
  ): Builder {
    b ??= this.builder(f, tileIndex);
    const lines = (b.lines ??= []);
    if (cut !== 0) {
      (b.cuts ??= []).push(lines.length >> 1, cut);
      if (cut & (CUT_START_X | CUT_START_Y | CUT_END_X | CUT_END_Y)) (b.beyond ??= []).push(lines.length >> 1, startBeyond, endBeyond);
    }
    lines.push(at, len);
    return b;
  }

  /** `inside`: the feature lies wholly inside the rectangle (nothing to clip). */
  private addPolygons(f: TileFeature, t: SourceTileRef, s: number, r: Rect, inside: boolean, tileIndex: number): void {
    let b: Builder | undefined;
    // A tile at the west or east end of the world, with the feature reaching its outer edge: edges
    // along the antimeridian may be there (see antimeridianEdges).
    const n = 2 ** t.z;
    const worldSize = t.size * n;
    const edge = (t.wx === 0 && f.bbox[0] <= 0) || (t.wx === n - 1 && f.bbox[2] * s >= t.size);
    let current = false;
    for (let p = 0; p + 1 < f.parts.length; p++) {
      const isExterior = f.exterior ? f.exterior[p] === 1 : p === 0;
      if (!isExterior && !current) continue; // the hole of an exterior that fell outside
      // The ring in world pixels, then (unless inside) clipped, written after the taken values.
      const start = f.parts[p]!;
      const count = pointCount(f.coords, start, f.parts[p + 1]!);
      let len = 2 * count;
      let cuts: Uint8Array | undefined;
      if (inside) writeWorld(f.coords, start, len, t, s, this.reserve(len), this.used);
      else {
        if (clipInput.length < len) clipInput = new Float64Array(Math.max(len, clipInput.length * 2));
        writeWorld(f.coords, start, len, t, s, clipInput, 0);
        const clipped = clipRingScratch(clipInput.subarray(0, len), r);
        len = clipped.length;
        const buf = this.reserve(len);
        for (let i = 0; i < len; i++) buf[this.used + i] = clipped.out[i]!;
      }
      const ring = new Float64Array(this.buf.buffer, this.used * 8, len);
      if (!inside) cuts = clipEdges(ring, r);
      if (edge) cuts = antimeridianEdges(ring, worldSize, cuts);
      const a = ringArea(ring);
      if (ring.length < 6 || a === 0) {
        if (isExterior) current = false;
        continue;
      }
      // Exteriors wind clockwise on screen (positive area with y down), holes the other way.
      if (a < 0 === isExterior) {
        reverseInPlace(ring);
        if (cuts) cuts = reverseEdgeFlags(cuts);
      }
      b ??= this.builder(f, tileIndex);
      const rings = (b.rings ??= []);
      if (isExterior) {
        current = true;
        (b.polys ??= []).push(rings.length >> 1);
      }
      if (cuts && !b.ringCuts) b.ringCuts = new Array<Uint8Array | undefined>(rings.length >> 1).fill(undefined);
      b.ringCuts?.push(cuts);
      rings.push(this.used, len);
      this.used += len;
    }
  }

  /** The groups, with point and cut arrays frozen into typed arrays and the lines and rings views of one array. */
  /** The groups (unpackGroups(finishPacked())). */
  finish(): FeatureGroup[] {
    return unpackGroups(this.finishPacked());
  }

  /**
   * The groups packed (PackedGroups): every line, ring, cut flag, cut distance and point of the
   * canvas in one buffer each, and each group's spans in them as numbers, with no view or array a
   * line. What the source caches keep: unpackGroups makes the groups' objects again for each use.
   */
  finishPacked(): PackedGroups {
    // One array of the exact size (the collector's buffer is given back for the next collector).
    const coords = this.buf.slice(0, this.used).buffer;
    if (this.buf.length <= BUFFER_KEEP) spareBuffer = this.buf;
    this.buf = NO_POINTS;
    // The output groups (a ghost, or a group left with nothing, is not one) and their sizes.
    const kept: Builder[] = [];
    let lineCount = 0;
    let ringCount = 0;
    let polyCount = 0;
    let cutBytes = 0;
    let beyondCount = 0;
    let pointCount = 0;
    let ids = false;
    let ringCuts = false;
    for (const b of this.builders) {
      if (b.ghost) continue;
      const lines = b.lines ? b.lines.length >> 1 : 0;
      const points = b.points ? b.points.length : 0;
      const polys = b.rings ? b.polys!.length : 0;
      if (!lines && !points && !polys) continue;
      kept.push(b);
      lineCount += lines;
      if (b.rings) ringCount += b.rings.length >> 1;
      polyCount += polys;
      if (b.cuts) cutBytes += lines;
      if (b.beyond) beyondCount += 2 * lines;
      pointCount += points;
      if (b.group.id !== undefined) ids = true;
      if (b.rings && b.ringCuts) ringCuts = true;
    }
    const n = kept.length;
    // The index: GROUP_FIELDS a group, then the lines' and rings' spans, then each polygon's first ring.
    const index = new Int32Array(n * GROUP_FIELDS + 2 * (lineCount + ringCount) + polyCount + 1);
    const spansAt = n * GROUP_FIELDS;
    const polysAt = spansAt + 2 * (lineCount + ringCount);
    const cutBuffer = cutBytes ? new Uint8Array(cutBytes) : undefined;
    const beyond = beyondCount ? new Float64Array(beyondCount).fill(Infinity) : undefined;
    const points = pointCount ? new Float64Array(pointCount) : undefined;
    const props: Record<string, unknown>[] = new Array(n);
    const idList: (number | string | undefined)[] | undefined = ids ? new Array(n) : undefined;
    const cutList: ((Uint8Array | undefined)[] | undefined)[] | undefined = ringCuts ? new Array(n) : undefined;
    let line = 0;
    let ring = lineCount;
    let poly = 0;
    let cutAt = 0;
    let beyondAt = 0;
    let pointAt = 0;
    for (let i = 0; i < n; i++) {
      const b = kept[i]!;
      props[i] = b.group.properties;
      if (idList) idList[i] = b.group.id;
      const o = i * GROUP_FIELDS;
      const ls = b.lines;
      const lines = ls ? ls.length >> 1 : 0;
      index[o] = line;
      index[o + 1] = lines;
      for (let k = 0; k < lines * 2; k++) index[spansAt + 2 * line + k] = ls![k]!;
      index[o + 2] = -1;
      if (b.cuts) {
        index[o + 2] = cutAt;
        for (let k = 0; k < b.cuts.length; k += 2) cutBuffer![cutAt + b.cuts[k]!] = b.cuts[k + 1]!;
        cutAt += lines;
      }
      index[o + 3] = -1;
      if (b.beyond) {
        index[o + 3] = beyondAt;
        for (let k = 0; k < b.beyond.length; k += 3) {
          beyond![beyondAt + 2 * b.beyond[k]!] = b.beyond[k + 1]!;
          beyond![beyondAt + 2 * b.beyond[k]! + 1] = b.beyond[k + 2]!;
        }
        beyondAt += 2 * lines;
      }
      line += lines;
      const ps = b.points;
      index[o + 4] = pointAt;
      index[o + 5] = ps ? ps.length : 0;
      if (ps) for (let k = 0; k < ps.length; k++) points![pointAt++] = ps[k]!;
      index[o + 6] = poly;
      index[o + 7] = 0;
      index[o + 8] = ring - lineCount;
      if (b.rings) {
        const rs = b.rings;
        const polys = b.polys!;
        index[o + 7] = polys.length;
        // Ring indexes counted from the canvas's first ring (the lines' spans come first).
        for (let k = 0; k < polys.length; k++) index[polysAt + poly + k] = ring - lineCount + polys[k]!;
        poly += polys.length;
        for (let k = 0; k < rs.length; k++) index[spansAt + 2 * ring + k] = rs[k]!;
        ring += rs.length >> 1;
        if (cutList) cutList[i] = b.ringCuts;
      }
    }
    index[polysAt + poly] = ring - lineCount;
    let ringCutBytes = 0;
    if (cutList) for (const c of cutList) if (c) for (const r of c) ringCutBytes += r ? 112 + r.byteLength : 8;
    return {
      count: n,
      lineCount,
      props,
      ids: idList,
      index,
      coords,
      cuts: cutBuffer,
      beyond,
      points,
      ringCuts: cutList,
      byteLength:
        64 +
        16 * n +
        coords.byteLength +
        index.byteLength +
        (cutBuffer?.byteLength ?? 0) +
        (beyond?.byteLength ?? 0) +
        (points?.byteLength ?? 0) +
        ringCutBytes,
    };
  }
}

/**
 * Int32s a group takes in PackedGroups.index: first line, line count, cut flags' offset (-1 none),
 * cut distances' offset (-1 none), points' offset, point values, first polygon, polygon count,
 * first ring (rings counted from the canvas's first).
 */
const GROUP_FIELDS = 9;

/**
 * A canvas's sampled groups (GroupCollector.finishPacked) as the source caches keep them: each
 * group's properties and id, and numbers for the rest, so a kept canvas is a handful of objects
 * instead of ~10 a group and one a line (the collector marked and copied those; issue 25).
 * unpackGroups makes the groups again, their lines and rings views of `coords`.
 */
export interface PackedGroups {
  readonly count: number;
  readonly lineCount: number;
  readonly props: readonly Record<string, unknown>[];
  readonly ids: readonly (number | string | undefined)[] | undefined;
  /** GROUP_FIELDS a group, then an offset and a length (values of `coords`) a line and then a ring, then each polygon's first ring and one past the last ring. */
  readonly index: Int32Array;
  readonly coords: ArrayBuffer;
  /** A byte a line of the groups with cut ends. */
  readonly cuts: Uint8Array | undefined;
  /** Two values a line of the groups with cut distances. */
  readonly beyond: Float64Array | undefined;
  readonly points: Float64Array | undefined;
  /** Each polygon group's ring cuts (its rings in order), where some group has them. */
  readonly ringCuts: readonly ((Uint8Array | undefined)[] | undefined)[] | undefined;
  /** Memory estimate for the byte-bounded caches. */
  readonly byteLength: number;
}

/** The feature groups of a packed canvas: new objects, the same geometry (views of its buffers), as GroupCollector made them. */
export function unpackGroups(p: PackedGroups): FeatureGroup[] {
  const { count, index, coords } = p;
  const spansAt = count * GROUP_FIELDS;
  const ringsAt = spansAt + 2 * p.lineCount;
  // Each polygon's first ring follows every span; the index ends with the canvas's ring count.
  const polysAt = ringsAt + 2 * index[index.length - 1]!;
  const out = new Array<FeatureGroup>(count);
  for (let i = 0; i < count; i++) {
    const o = i * GROUP_FIELDS;
    // The keys in GroupCollector's order (one object shape for every reader).
    const g: FeatureGroup = { properties: p.props[i]!, polygons: [], lines: [], points: NO_POINTS };
    const id = p.ids?.[i];
    if (id !== undefined) g.id = id;
    const np = index[o + 5]!;
    if (np) g.points = new Float64Array(p.points!.buffer, index[o + 4]! * 8, np);
    const nl = index[o + 1]!;
    if (nl) {
      const l0 = index[o]!;
      const lines = new Array<Float64Array>(nl);
      for (let k = 0, s = spansAt + 2 * l0; k < nl; k++, s += 2) lines[k] = new Float64Array(coords, index[s]! * 8, index[s + 1]!);
      g.lines = lines;
    }
    if (index[o + 2]! >= 0) g.cutEnds = new Uint8Array(p.cuts!.buffer, index[o + 2]!, nl);
    if (index[o + 3]! >= 0) g.cutBeyond = new Float64Array(p.beyond!.buffer, index[o + 3]! * 8, 2 * nl);
    const npoly = index[o + 7]!;
    if (npoly) {
      const p0 = index[o + 6]!;
      const polygons = new Array<Float64Array[]>(npoly);
      const ringCuts = p.ringCuts?.[i];
      const cuts = ringCuts ? new Array<(Uint8Array | undefined)[]>(npoly) : undefined;
      const first = index[o + 8]!;
      for (let k = 0; k < npoly; k++) {
        const start = index[polysAt + p0 + k]!;
        const end = index[polysAt + p0 + k + 1]!;
        const poly = new Array<Float64Array>(end - start);
        for (let q = start; q < end; q++) poly[q - start] = new Float64Array(coords, index[ringsAt + 2 * q]! * 8, index[ringsAt + 2 * q + 1]!);
        polygons[k] = poly;
        if (cuts) cuts[k] = ringCuts!.slice(start - first, end - first);
      }
      g.polygons = polygons;
      if (cuts) g.polygonCuts = cuts;
    }
    out[i] = g;
  }
  return out;
}

/**
 * A source tile's contribution rectangle in its own units (x0, y0, x1, y1): GroupCollector.addTile
 * skips the features whose box misses it.
 */
export function unitRect(t: SourceTileRef, extent: number, rect: Rect): [number, number, number, number] {
  const s = t.size / extent;
  return [(rect.x0 - t.px0) / s, (rect.y0 - t.py0) / s, (rect.x1 - t.px0) / s, (rect.y1 - t.py0) / s];
}

/**
 * Of the kept features (`keep[i][j]` 1) of a canvas's decoded tiles, the ids under which pieces
 * could merge: two kept features of different tiles with that id, one geometry type and equal
 * properties (GroupCollector.addTile's ghosts). An id shared by many kept features is counted in
 * without comparing them all. `within[i]` (unitRect) leaves out the features of tile i whose box
 * misses its contribution rectangle: addTile samples none of them, so they merge with nothing (an
 * over-zoomed source tile holds four times a canvas's features). `kept[i]`, the indexes of the
 * features `keep[i]` flags, in order, is walked instead of all of tile i's features.
 */
export function mergeableIds(
  tiles: readonly (readonly TileFeature[] | undefined)[],
  keep: readonly (Uint8Array | undefined)[],
  within?: readonly (readonly [number, number, number, number])[],
  kept?: readonly (Int32Array | undefined)[],
): Set<number | string> {
  const seen = new Map<number | string, { tile: number; f: TileFeature }[]>();
  const out = new Set<number | string>();
  for (let i = 0; i < tiles.length; i++) {
    const fs = tiles[i];
    const flags = keep[i];
    if (!fs || !flags) continue;
    const r = within?.[i];
    const ux0 = r ? r[0] : -Infinity,
      uy0 = r ? r[1] : -Infinity,
      ux1 = r ? r[2] : Infinity,
      uy1 = r ? r[3] : Infinity;
    const only = kept?.[i];
    const count = only ? only.length : fs.length;
    for (let k = 0; k < count; k++) {
      const j = only ? only[k]! : k;
      const f = fs[j]!;
      const id = f.id;
      if (flags[j] === 0 || id === undefined || out.has(id)) continue;
      const bb = f.bbox;
      if (bb[2] < ux0 || bb[0] > ux1 || bb[3] < uy0 || bb[1] > uy1) continue;
      const list = seen.get(id);
      if (!list) seen.set(id, [{ tile: i, f }]);
      else if (list.length >= 16 || list.some((e) => e.tile !== i && e.f.type === f.type && sameProperties(e.f.properties, f.properties))) out.add(id);
      else list.push({ tile: i, f });
    }
  }
  return out;
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

/** Where addPolygons writes the rings that are clipped next (the clip copies what it keeps). */
let clipInput = new Float64Array(4096);

/** Points [start, end) of a flat tile-unit array less a repeated closing one. */
function pointCount(c: Int32Array, start: number, end: number): number {
  const n = end - start;
  return n > 1 && c[start * 2] === c[(end - 1) * 2] && c[start * 2 + 1] === c[(end - 1) * 2 + 1] ? n - 1 : n;
}

/** `len` values from point `start` of a flat tile-unit array, in world pixels, into `out` from `at`. */
function writeWorld(c: Int32Array, start: number, len: number, t: SourceTileRef, s: number, out: Float64Array, at: number): void {
  const px0 = t.px0,
    py0 = t.py0;
  for (let i = at, k = start * 2, e = at + len; i < e; i += 2, k += 2) {
    out[i] = px0 + c[k]! * s;
    out[i + 1] = py0 + c[k + 1]! * s;
  }
}

/**
 * How far past a side of `r` both ends of a segment of `f` (in world pixels) must lie for
 * GroupCollector.clipTileLine to reject it without segmentSpan, which rejects it too: with M
 * bounding every coordinate of the feature (its box's corners: the world coordinates grow with the
 * tile units) and of the rectangle, the gap M 2^-50 exceeds the rounding of the differences
 * segmentSpan takes (at most M 2^-52 each). Beyond x0, say (ax, bx < x0 - gap): q = ax - x0 < 0, and
 * p = -(bx - ax) is 0 (rejected), or > 0 (t = q / p < 0, no underflow: |q| > M 2^-51 and |p| <= 2M,
 * so t1 < 0 <= t0), or < 0 (|q| > |p| by more than their rounding, so t = q / p > 1 >= t1); the
 * other sides alike. Infinity (no shortcut) for coordinates below 1 or near overflow.
 */
function rejectGap(f: TileFeature, t: SourceTileRef, s: number, r: Rect): number {
  const bb = f.bbox;
  const m = Math.max(
    Math.abs(t.px0 + bb[0] * s),
    Math.abs(t.px0 + bb[2] * s),
    Math.abs(t.py0 + bb[1] * s),
    Math.abs(t.py0 + bb[3] * s),
    Math.abs(r.x0),
    Math.abs(r.x1),
    Math.abs(r.y0),
    Math.abs(r.y1),
  );
  return m >= 1 && m <= 2 ** 1000 ? m * 2 ** -50 : Infinity;
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

export function sameProperties(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  if (a === b) return true;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (a[k] !== b[k]) return false;
  return true;
}
