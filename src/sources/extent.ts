// Where the data is: the extent of a style's sources (declared `bounds`, a PMTiles archive's
// header bounds and centre, a GeoJSON file's extent), so the preview opens over the data instead
// of over an empty world.
import type { Loader } from './types.js';
import type { StyleDoc } from '../style/types.js';

export type Bounds = [west: number, south: number, east: number, north: number];

export interface DataExtent {
  bounds: Bounds;
  /** The archive's zoom range (a PMTiles header's). */
  minzoom?: number;
  maxzoom?: number;
  /** A centre the data itself names (a PMTiles header's), with its zoom. */
  center?: [number, number];
  zoom?: number;
}

/** PMTiles v3 header (127 bytes): bounds and centre as int32 * 1e-7 degrees. */
export function pmtilesHeaderExtent(b: Uint8Array): DataExtent | undefined {
  if (b.length < 127 || String.fromCharCode(...b.subarray(0, 7)) !== 'PMTiles' || b[7] !== 3) return undefined;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const deg = (o: number) => v.getInt32(o, true) / 1e7;
  const bounds: Bounds = [deg(102), deg(106), deg(110), deg(114)];
  if (!(bounds[0] < bounds[2] && bounds[1] < bounds[3])) return undefined;
  const minZoom = b[100]!;
  const maxZoom = b[101]!;
  const centerZoom = b[118]!;
  const center: [number, number] = [deg(119), deg(123)];
  const centerOk = center[0] >= bounds[0] && center[0] <= bounds[2] && center[1] >= bounds[1] && center[1] <= bounds[3];
  return {
    bounds,
    minzoom: minZoom,
    maxzoom: maxZoom,
    center: centerOk ? center : undefined,
    zoom: centerOk && centerZoom >= minZoom && centerZoom <= maxZoom ? centerZoom : undefined,
  };
}

/** The extent of every coordinate in a GeoJSON object (TopoJSON: its `bbox` when it has one). */
export function geojsonExtent(doc: unknown): Bounds | undefined {
  const d = doc as { type?: string; bbox?: number[] };
  if (d?.type === 'Topology') return d.bbox && d.bbox.length >= 4 ? [d.bbox[0]!, d.bbox[1]!, d.bbox[2]!, d.bbox[3]!] : undefined;
  const b: Bounds = [Infinity, Infinity, -Infinity, -Infinity];
  const walk = (c: unknown): void => {
    if (!Array.isArray(c)) return;
    if (typeof c[0] === 'number' && typeof c[1] === 'number') {
      b[0] = Math.min(b[0], c[0]);
      b[1] = Math.min(b[1], c[1]);
      b[2] = Math.max(b[2], c[0]);
      b[3] = Math.max(b[3], c[1]);
      return;
    }
    for (const x of c) walk(x);
  };
  const visit = (o: unknown): void => {
    if (!o || typeof o !== 'object') return;
    const g = o as { type?: string; features?: unknown[]; geometry?: unknown; geometries?: unknown[]; coordinates?: unknown };
    if (g.type === 'FeatureCollection') g.features?.forEach(visit);
    else if (g.type === 'Feature') visit(g.geometry);
    else if (g.type === 'GeometryCollection') g.geometries?.forEach(visit);
    else walk(g.coordinates);
  };
  visit(doc);
  return b[0] <= b[2] ? b : undefined;
}

function union(a: Bounds | undefined, b: Bounds): Bounds {
  return a ? [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])] : b;
}

/** What one source says about where and at which zooms it has data. */
export interface SourceExtent {
  /** Undefined when the source cannot say (a tile template without `bounds`, an unreadable file). */
  bounds?: Bounds;
  /** A centre the data names (a PMTiles header's), with its zoom. */
  center?: [number, number];
  zoom?: number;
  /** Its lowest zoom with tiles (below it the style draws without it). */
  minzoom: number;
}

const finite4 = (b: unknown): b is Bounds => Array.isArray(b) && b.length === 4 && b.every((v) => typeof v === 'number' && Number.isFinite(v));

/**
 * One source's extent: its declared `bounds` first, else a PMTiles header's (pmtiles, dem with a
 * `url`), else a GeoJSON file's coordinates (TopoJSON: its `bbox`).
 */
export async function sourceExtent(decl: Record<string, unknown>, loader: Loader): Promise<SourceExtent> {
  const declMin = typeof decl.minzoom === 'number' ? decl.minzoom : 0;
  const out: SourceExtent = { minzoom: declMin };
  if (finite4(decl.bounds)) out.bounds = [...decl.bounds] as Bounds;
  try {
    const url = typeof decl.url === 'string' ? decl.url : undefined;
    if (url && (decl.type === 'pmtiles' || decl.type === 'dem')) {
      const b = await loader.load(url, { offset: 0, length: 127 });
      const e = pmtilesHeaderExtent(b);
      if (e) {
        out.minzoom = Math.max(declMin, e.minzoom ?? 0);
        out.bounds ??= e.bounds;
        const [w, s, east, n] = out.bounds;
        if (e.center && e.center[0] >= w && e.center[0] <= east && e.center[1] >= s && e.center[1] <= n) [out.center, out.zoom] = [e.center, e.zoom];
      }
    } else if (decl.type === 'geojson' && !out.bounds) {
      const data = typeof decl.data === 'string' ? JSON.parse(new TextDecoder().decode(await loader.load(decl.data))) : decl.data;
      out.bounds = geojsonExtent(data);
    }
  } catch {
    // A source that cannot be read says nothing about the extent; its tiles will say why.
  }
  return out;
}

/** The extent of the style's sources; undefined when none can say (then the world is shown). */
export async function dataExtent(doc: StyleDoc, loader: Loader): Promise<DataExtent | undefined> {
  let bounds: Bounds | undefined;
  let center: DataExtent['center'];
  let zoom: number | undefined;
  let named = 0;
  for (const decl of Object.values(doc.sources ?? {}) as Record<string, unknown>[]) {
    const e = await sourceExtent(decl, loader);
    if (!e.bounds) continue;
    bounds = union(bounds, e.bounds);
    if (e.center) {
      center = e.center;
      zoom = e.zoom;
      named++;
    }
  }
  if (!bounds) return undefined;
  // One archive naming its centre: start there; several sources: the middle of their union.
  return named === 1 ? { bounds, center, zoom } : { bounds };
}

/** The Web Mercator world: [-180, -85.05.., 180, 85.05..]. */
export const MERCATOR_WORLD: Bounds = [-180, -85.0511287798066, 180, 85.0511287798066];

/** Where the style can have data, as TileJSON says it (`bounds`, `center`, `minzoom`). */
export interface StyleCoverage {
  /**
   * The union of the sources' extents within the Mercator world; undefined when the style has no
   * source, or a source that cannot say where its data is (then tiles may be anywhere).
   */
  bounds?: Bounds;
  /** A centre the data names (one PMTiles header's), with its zoom. */
  center?: [number, number];
  zoom?: number;
  /** The lowest zoom at which some source has tiles; undefined without sources. */
  minzoom?: number;
}

/** The coverage of a style's sources (server TileJSON, gallery thumbnails). */
export async function styleCoverage(doc: StyleDoc, loader: Loader): Promise<StyleCoverage> {
  const decls = Object.values(doc.sources ?? {}) as Record<string, unknown>[];
  if (!decls.length) return {};
  const all = await Promise.all(decls.map((d) => sourceExtent(d, loader)));
  const out: StyleCoverage = { minzoom: Math.min(...all.map((e) => e.minzoom)) };
  if (all.every((e) => e.bounds)) {
    const u = all.reduce<Bounds | undefined>((a, e) => union(a, e.bounds!), undefined)!;
    const [W, S, E, N] = MERCATOR_WORLD;
    const b: Bounds = [Math.max(W, u[0]), Math.max(S, u[1]), Math.min(E, u[2]), Math.min(N, u[3])];
    if (b[0] <= b[2] && b[1] <= b[3]) out.bounds = b;
  }
  const named = all.filter((e) => e.center);
  if (named.length === 1) [out.center, out.zoom] = [named[0]!.center, named[0]!.zoom];
  return out;
}

/** The zoom at which `bounds` fits a 512 px square (MapLibre's tile units), clamped to [min, max]. */
export function fitZoom(bounds: Bounds, min: number, max: number): number {
  const lonSpan = Math.max(1e-9, bounds[2] - bounds[0]);
  const y = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (Math.max(-85.05, Math.min(85.05, lat)) * Math.PI) / 360));
  const latSpan = Math.max(1e-9, ((y(bounds[3]) - y(bounds[1])) * 180) / Math.PI);
  const z = Math.floor(Math.log2(360 / Math.max(lonSpan, latSpan)));
  return Math.max(min, Math.min(max, z));
}
