// From decoded source tiles to feature groups for one canvas: each source tile contributes its own
// square, so pieces from neighbouring tiles abut exactly; sides of the covered block that lie
// outside the canvas are pushed out by CLIP_BUFFER so their clip edges and cut line ends stay out
// of sight; pieces of one feature (same id and properties) from several tiles merge into one group.
import { clipLine, clipRing, ringArea, reverseRing, type Rect } from '../geometry/clip.js';
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

/** Estimated memory of sampled feature groups (for the byte-bounded cache): coordinate arrays plus a flat 64 bytes per array and 128 per group. */
export function groupsBytes(groups: readonly FeatureGroup[]): number {
  let b = 64;
  for (const g of groups) {
    b += 128 + g.points.byteLength + (g.cutEnds?.byteLength ?? 0);
    for (const l of g.lines) b += 64 + l.byteLength;
    for (const p of g.polygons) for (const r of p) b += 64 + r.byteLength;
    if (g.polygonCuts) for (const p of g.polygonCuts) for (const c of p) b += c ? 64 + c.byteLength : 8;
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
  return tiles.map((t) => ({
    x0: t.x === tx0 ? cx0 : t.px0,
    y0: t.y === ty0 ? cy0 : t.py0,
    x1: t.x === tx1 ? cx1 : t.px0 + t.size,
    y1: t.y === ty1 ? cy1 : t.py0 + t.size,
  }));
}

interface Builder {
  group: FeatureGroup;
  points: number[];
  cuts: number[];
  ringCuts: (Uint8Array | undefined)[][];
  anyRingCut: boolean;
  tile: number;
}

/** Collects the pieces of every source tile of one canvas into feature groups. */
export class GroupCollector {
  private readonly builders: Builder[] = [];
  private readonly byId = new Map<string, Builder>();
  private readonly byProps = [new Map<object, Builder>(), new Map<object, Builder>(), new Map<object, Builder>()];

  /**
   * Add the features of one source tile. `tileIndex` tells tiles apart: pieces from different
   * tiles merge when id, geometry type and properties agree. Properties are compared because real
   * tilesets reuse ids (Mapbox Streets v7: 0 for every landuse, per-tile sequence numbers for
   * buildings); two features of one tile never merge.
   */
  addTile(features: readonly TileFeature[], extent: number, t: SourceTileRef, rect: Rect, tileIndex: number): void {
    const s = t.size / extent;
    // The contribution rectangle in tile units, to skip clipping for features wholly inside it.
    const ux0 = (rect.x0 - t.px0) / s,
      uy0 = (rect.y0 - t.py0) / s;
    const ux1 = (rect.x1 - t.px0) / s,
      uy1 = (rect.y1 - t.py0) / s;
    for (const f of features) {
      const [bx0, by0, bx1, by1] = f.bbox;
      if (bx1 < ux0 || bx0 > ux1 || by1 < uy0 || by0 > uy1) continue;
      const inside = bx0 >= ux0 && bx1 <= ux1 && by0 >= uy0 && by1 <= uy1;
      if (f.type === 1) this.addPoints(f, t, s, rect, tileIndex);
      else if (f.type === 2) this.addLines(f, t, s, rect, inside, tileIndex);
      else if (f.type === 3) this.addPolygons(f, t, s, rect, inside, tileIndex);
    }
  }

  private builder(f: TileFeature, tileIndex: number): Builder {
    const key = f.id !== undefined ? `${f.type}:${f.id}` : undefined;
    if (key !== undefined) {
      const b = this.byId.get(key);
      if (b && b.tile !== tileIndex && sameProperties(b.group.properties, f.properties)) {
        b.tile = tileIndex;
        return b;
      }
    }
    // Without an id, pieces holding the very same properties object are one feature: geojson-vt
    // hands every tile a GeoJSON feature's own properties (geometry ops then see whole features).
    const byProps = this.byProps[f.type - 1]!;
    const same = key === undefined ? byProps.get(f.properties) : undefined;
    if (same && same.tile !== tileIndex) {
      same.tile = tileIndex;
      return same;
    }
    const b: Builder = {
      group: { properties: f.properties, polygons: [], lines: [], points: new Float64Array(0) },
      points: [],
      cuts: [],
      ringCuts: [],
      anyRingCut: false,
      tile: tileIndex,
    };
    if (f.id !== undefined) b.group.id = f.id;
    this.builders.push(b);
    if (key !== undefined && !this.byId.has(key)) this.byId.set(key, b);
    if (key === undefined && !byProps.has(f.properties)) byProps.set(f.properties, b);
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
        b.points.push(x, y);
      }
    }
  }

  private addLines(f: TileFeature, t: SourceTileRef, s: number, r: Rect, inside: boolean, tileIndex: number): void {
    let b: Builder | undefined;
    for (let p = 0; p + 1 < f.parts.length; p++) {
      const flat = toWorld(f.coords, f.parts[p]!, f.parts[p + 1]!, t, s);
      if (flat.length < 4) continue;
      if (inside) {
        b ??= this.builder(f, tileIndex);
        b.group.lines.push(flat);
        b.cuts.push(0);
        continue;
      }
      for (const piece of clipLine(flat, r)) {
        b ??= this.builder(f, tileIndex);
        b.group.lines.push(piece.line);
        b.cuts.push(piece.cut);
      }
    }
  }

  private addPolygons(f: TileFeature, t: SourceTileRef, s: number, r: Rect, inside: boolean, tileIndex: number): void {
    let b: Builder | undefined;
    let current: Float64Array[] | undefined;
    let currentCuts: (Uint8Array | undefined)[] | undefined;
    for (let p = 0; p + 1 < f.parts.length; p++) {
      const isExterior = f.exterior ? f.exterior[p] === 1 : p === 0;
      if (!isExterior && !current) continue; // the hole of an exterior that fell outside
      let ring = toWorld(f.coords, f.parts[p]!, f.parts[p + 1]!, t, s);
      let cuts: Uint8Array | undefined;
      if (!inside) {
        ring = clipRing(ring, r);
        cuts = clipEdges(ring, r);
      }
      const a = ringArea(ring);
      if (ring.length < 6 || a === 0) {
        if (isExterior) current = currentCuts = undefined;
        continue;
      }
      // Exteriors wind clockwise on screen (positive area with y down), holes the other way.
      if (a < 0 === isExterior) {
        ring = reverseRing(ring);
        if (cuts) cuts = reverseEdgeFlags(cuts);
      }
      b ??= this.builder(f, tileIndex);
      if (isExterior) {
        current = [ring];
        currentCuts = [cuts];
        b.group.polygons.push(current);
        b.ringCuts.push(currentCuts);
      } else {
        current!.push(ring);
        currentCuts!.push(cuts);
      }
      if (cuts) b.anyRingCut = true;
    }
  }

  /** The groups, with point and cut arrays frozen into typed arrays. */
  finish(): FeatureGroup[] {
    const out: FeatureGroup[] = [];
    for (const b of this.builders) {
      const g = b.group;
      if (b.points.length) g.points = Float64Array.from(b.points);
      if (b.cuts.some((c) => c !== 0)) g.cutEnds = Uint8Array.from(b.cuts);
      if (b.anyRingCut) g.polygonCuts = b.ringCuts;
      if (g.points.length || g.lines.length || g.polygons.length) out.push(g);
    }
    return out;
  }
}

/** Vertices [start, end) of a flat tile-unit array, in world pixels; drops a repeated closing vertex. */
function toWorld(c: Int32Array, start: number, end: number, t: SourceTileRef, s: number): Float64Array {
  let n = end - start;
  if (n > 1 && c[start * 2] === c[(end - 1) * 2] && c[start * 2 + 1] === c[(end - 1) * 2 + 1]) n--;
  const out = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) {
    out[i * 2] = t.px0 + c[(start + i) * 2]! * s;
    out[i * 2 + 1] = t.py0 + c[(start + i) * 2 + 1]! * s;
  }
  return out;
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

/** Edge flags of a ring after reverseRing: edge i of the reversed ring is edge n-2-i (mod n) of the original. */
function reverseEdgeFlags(f: Uint8Array): Uint8Array {
  const n = f.length;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = f[(((n - 2 - i) % n) + n) % n]!;
  return out;
}

function sameProperties(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  if (a === b) return true;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (a[k] !== b[k]) return false;
  return true;
}
