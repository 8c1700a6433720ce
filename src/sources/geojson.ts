// GeoJSON source: tiled with geojson-vt, sampled for any canvas by merging the covering tiles.
import geojsonvt, { type RawFeature, type RawTile } from 'geojson-vt';
import { feature as topoFeature } from 'topojson-client';
import type { GeoJSON, Feature, FeatureCollection } from 'geojson';
import type { Topology } from 'topojson-specification';
import { unwrapAntimeridian } from './antimeridian.js';
import { positionProblem } from './geojson-check.js';
import { SourceError } from '../errors.js';
import type { Canvas, FeatureGroup } from '../types.js';
import { exteriorFlags } from './mvt-decode.js';
import { canvasKey, contributionRects, GroupCollector, groupsBytes, type TileFeature } from './sample.js';
import type { TileCache } from './cache.js';
import { coveringTiles } from './tiles.js';
import { wholeFeatures, type WholeFeature } from '../geometry/whole.js';
import { emptyBox, growBox } from '../geometry/measure.js';
import type { FeatureSource, Loader } from './types.js';
import type { SourceDecl } from '../style/types.js';

const EXTENT = 8192;

/** Defaults of the `geojson` fields. */
const GEOJSON_DEFAULTS = {
  maxzoom: 18, // geojson-vt tiles up to here; deeper zooms over-zoom
  buffer: 64, // tile buffer in 4096ths of a tile (as in MapLibre)
  tolerance: 3, // simplification tolerance in 4096ths of a tile (as in MapLibre: 0.375 px at 512)
};

export interface GeojsonSourceOptions {
  name: string;
  decl: SourceDecl;
  loader?: Loader;
  /** Keeps the sampled groups of recent canvases (default: none kept). */
  cache?: TileCache;
  /** Prefix of this source's cache keys (SourceContext.cachePrefix). */
  cachePrefix?: string;
}

// Cache keys of GeojsonSource instances: the sampled groups belong to one instance's index.
let instances = 0;

type Index = InstanceType<typeof geojsonvt>;

/** geojson-vt's own bookkeeping (public fields, untyped in its .d.ts): every tile it has built, by id. */
interface IndexTiles {
  tiles: Record<number, { source: unknown[] | null; numPoints: number } | undefined>;
  tileCoords: { z: number; x: number; y: number }[];
  total: number;
}

/**
 * geojson-vt keeps every tile it drills down to, for good: a server asked for ever new deep tiles
 * grew without bound (issue 23). Past these, the tiles drilled since the index was built are
 * dropped and the index is as built again (later tiles drill down anew). Points: those of the
 * drilled tiles' source geometry (~12 bytes each, plus the simplified copy), so ~32 MB at most.
 */
export const GEOJSON_DRILLED_MAX = { tiles: 8192, points: 2_000_000 };

/** The tiles of an index as built, and their source geometry, which drilling down clears. */
class DrilledTiles {
  private readonly built: Map<number, unknown[] | null>;
  private readonly builtCoords: number;
  private readonly builtTotal: number;
  private counted: number;
  private points = 0;

  constructor(private readonly index: IndexTiles) {
    this.built = new Map(Object.entries(index.tiles).map(([id, t]) => [Number(id), t!.source]));
    this.counted = this.builtCoords = index.tileCoords.length;
    this.builtTotal = index.total;
  }

  /** Tiles and source points drilled since the index was built. */
  get drilled(): { tiles: number; points: number } {
    this.count();
    return { tiles: this.index.tileCoords.length - this.builtCoords, points: this.points };
  }

  private count(): void {
    const c = this.index.tileCoords;
    for (; this.counted < c.length; this.counted++) {
      const { z, x, y } = c[this.counted]!;
      this.points += this.index.tiles[((1 << z) * y + x) * 32 + z]?.numPoints ?? 0;
    }
  }

  /** Back to the index as built when past GEOJSON_DRILLED_MAX. Only between samples (they run synchronously). */
  trim(): void {
    const d = this.drilled;
    if (d.tiles <= GEOJSON_DRILLED_MAX.tiles && d.points <= GEOJSON_DRILLED_MAX.points) return;
    const tiles = this.index.tiles;
    for (const id of Object.keys(tiles)) {
      const n = Number(id);
      if (this.built.has(n)) tiles[n]!.source = this.built.get(n)!;
      else delete tiles[n];
    }
    this.index.tileCoords.length = this.builtCoords;
    this.index.total = this.builtTotal;
    this.counted = this.builtCoords;
    this.points = 0;
  }
}

/** How edges between far-apart longitudes are read (src/sources/antimeridian.ts). */
export type AntimeridianMode = 'as-written' | 'short-way';

/** A source's `antimeridian`, else the document's own convention: TopoJSON is spherical, GeoJSON (RFC 7946) planar. */
export function antimeridianMode(decl: SourceDecl, doc: unknown): AntimeridianMode {
  if (decl.antimeridian === 'as-written' || decl.antimeridian === 'short-way') return decl.antimeridian;
  return (doc as { type?: string } | null)?.type === 'Topology' ? 'short-way' : 'as-written';
}

/** TopoJSON documents are accepted too: every object becomes features. */
function toGeoJSON(doc: unknown): GeoJSON {
  const d = doc as { type?: string; objects?: Record<string, unknown> };
  if (d && d.type === 'Topology' && d.objects) {
    const features: Feature[] = [];
    for (const key of Object.keys(d.objects)) {
      const f = topoFeature(doc as Topology, key as never) as unknown as Feature | FeatureCollection;
      if (f.type === 'FeatureCollection') features.push(...f.features);
      else features.push(f);
    }
    return { type: 'FeatureCollection', features };
  }
  return doc as GeoJSON;
}

/**
 * Every feature with a properties object of its own: geojson-vt hands each piece of a feature that
 * object, and the sampler merges pieces by it (GroupCollector). A feature without properties (or
 * a bare geometry) gets an empty one, so its pieces still merge across tiles.
 */
function withOwnProperties(gj: GeoJSON): GeoJSON {
  const own = (f: Feature): Feature => (f.properties && typeof f.properties === 'object' ? f : { ...f, properties: {} });
  if (gj.type === 'FeatureCollection') return gj.features.some((f) => !f?.properties) ? { ...gj, features: gj.features.map((f) => (f ? own(f) : f)) } : gj;
  if (gj.type === 'Feature') return own(gj);
  return { type: 'Feature', properties: {}, geometry: gj };
}

/** geojson-vt's flat tile features as the sampler's TileFeature (computed once per tile). */
function convertTile(tile: RawTile): TileFeature[] {
  const out: TileFeature[] = [];
  for (const f of tile.features) {
    const props = (f.tags ?? {}) as Record<string, unknown>;
    let coords: Int32Array;
    let parts: Uint32Array;
    if (f.type === 4) {
      coords = Int32Array.of(f.x, f.y);
      parts = Uint32Array.of(0, 1);
    } else if (f.type === 1) {
      coords = Int32Array.from(f.geometry);
      parts = Uint32Array.of(0, coords.length / 2);
    } else {
      const rings = f.geometry;
      let n = 0;
      for (const r of rings) n += r.length;
      coords = new Int32Array(n);
      parts = new Uint32Array(rings.length + 1);
      let w = 0;
      rings.forEach((r, i) => {
        parts[i] = w / 2;
        coords.set(r, w);
        w += r.length;
      });
      parts[rings.length] = w / 2;
    }
    if (!coords.length) continue;
    const type = (f.type === 4 ? 1 : f.type) as 1 | 2 | 3;
    const tf: TileFeature = { properties: props, type, coords, parts, bbox: growBox(emptyBox(), coords) };
    if ((f as RawFeature).id !== undefined) tf.id = (f as RawFeature).id;
    if (type === 3) tf.exterior = exteriorFlags(coords, parts);
    out.push(tf);
  }
  return out;
}

/**
 * The bound of a source's converted tiles (ConvertedTiles): the tiles converted last, at most this
 * many and this many coordinate values in all (Int32, so 8 MB; the 110m world atlas's tiles hold
 * ~1,500 values each at z4).
 */
export const GEOJSON_CONVERTED_MAX = { tiles: 1024, coords: 2_000_000 };

/**
 * geojson-vt's tiles as TileFeature, converted once per tile: one tile render samples the same
 * source tiles for every canvas that reads the source (a fill on a padded canvas, a stroke, the
 * labels), and each canvas of the tiles around shares the edge tiles. Keyed by the tile's own
 * `features` array (getTileRaw answers a fresh envelope every call, so keying by that never hit:
 * every sample converted every tile again). Least recently used first out past
 * GEOJSON_CONVERTED_MAX; a tile the index drops (GEOJSON_DRILLED_MAX) is never looked up again
 * and ages out.
 */
class ConvertedTiles {
  private readonly tiles = new Map<unknown, TileFeature[]>();
  private coords = 0;
  /** Conversions done and tiles answered from the cache (tests). */
  readonly stats = { converted: 0, hits: 0 };

  get(raw: RawTile): TileFeature[] {
    const key = raw.features;
    let feats = this.tiles.get(key);
    if (feats) {
      this.stats.hits++;
      this.tiles.delete(key); // to the most recently used end
      this.tiles.set(key, feats);
      return feats;
    }
    feats = convertTile(raw);
    this.stats.converted++;
    this.tiles.set(key, feats);
    this.coords += coordsOf(feats);
    for (const [k, f] of this.tiles) {
      if (this.tiles.size <= GEOJSON_CONVERTED_MAX.tiles && this.coords <= GEOJSON_CONVERTED_MAX.coords) break;
      if (k === key) break; // the tile just converted stays (a single tile past the bound)
      this.tiles.delete(k);
      this.coords -= coordsOf(f);
    }
    return feats;
  }

  get size(): { tiles: number; coords: number } {
    return { tiles: this.tiles.size, coords: this.coords };
  }
}

/**
 * Canvases a GeoJSON source has sampled once and not kept (GeojsonSource.features): the keys of
 * the last this many. A canvas enters the source cache the second time it is sampled.
 */
export const GEOJSON_SAMPLED_ONCE_MAX = 4096;

function coordsOf(feats: TileFeature[]): number {
  let n = 0;
  for (const f of feats) n += f.coords.length;
  return n;
}

export class GeojsonSource implements FeatureSource {
  readonly name: string;
  readonly type = 'geojson' as const;
  readonly minzoom: number;
  readonly maxzoom: number;
  private readonly decl: SourceDecl;
  private readonly loader?: Loader;
  private index?: Promise<Index>;
  private drilledTiles?: DrilledTiles;
  // Tiles converted to the sampler's form, by geojson-vt's tile (below, GEOJSON_CONVERTED_MAX).
  private readonly converted = new ConvertedTiles();
  private unwrapped?: GeoJSON;
  private whole?: WholeFeature[];
  private readonly cache?: TileCache;
  private readonly cacheKey: string;
  /** Keys of canvases sampled once and not kept, oldest first (bounded by GEOJSON_SAMPLED_ONCE_MAX). */
  private readonly sampledOnce = new Set<string>();

  constructor(o: GeojsonSourceOptions) {
    this.name = o.name;
    this.decl = o.decl;
    this.loader = o.loader;
    this.cache = o.cache;
    this.cacheKey = `${o.cachePrefix ?? ''}gs${++instances}|`;
    this.minzoom = o.decl.minzoom ?? 0;
    this.maxzoom = o.decl.maxzoom ?? GEOJSON_DEFAULTS.maxzoom;
  }

  layers(): string[] {
    return [this.name];
  }

  async attribution(): Promise<string[]> {
    return this.decl.attribution ? [this.decl.attribution] : [];
  }

  private load(signal?: AbortSignal): Promise<Index> {
    if (!this.index) {
      this.index = (async () => {
        let doc: unknown = this.decl.data;
        if (typeof doc === 'string') {
          if (!this.loader) throw new SourceError(this.name, undefined, `no loader is bound to read '${doc}'`);
          let bytes: Uint8Array;
          try {
            bytes = await this.loader.load(doc, undefined, signal);
          } catch (e) {
            const message = String((e as Error)?.message ?? e);
            // The loader's message names the ref already ("cannot read 'npm:…': no such file").
            throw new SourceError(this.name, undefined, message.startsWith(`cannot read '${doc}'`) ? message : `cannot read '${doc}': ${message}`, {
              cause: e,
            });
          }
          try {
            doc = JSON.parse(new TextDecoder().decode(bytes));
          } catch (e) {
            throw new SourceError(this.name, undefined, `'${doc}' is not valid JSON: ${(e as Error).message}`);
          }
        }
        const mode = antimeridianMode(this.decl, doc);
        const gj = toGeoJSON(doc);
        if (!gj || typeof gj !== 'object' || !('type' in gj)) throw new SourceError(this.name, undefined, 'the data is not GeoJSON');
        const bad = positionProblem(gj);
        if (bad) throw new SourceError(this.name, undefined, `the data is not valid GeoJSON: ${bad}`);
        try {
          this.unwrapped = mode === 'short-way' ? unwrapAntimeridian(gj) : gj;
          const index = new geojsonvt(withOwnProperties(this.unwrapped), {
            maxZoom: this.maxzoom,
            extent: EXTENT,
            buffer: ((typeof this.decl.buffer === 'number' ? this.decl.buffer : GEOJSON_DEFAULTS.buffer) * EXTENT) / 4096,
            tolerance: typeof this.decl.tolerance === 'number' ? this.decl.tolerance : GEOJSON_DEFAULTS.tolerance,
            promoteId: typeof this.decl.promoteId === 'string' ? this.decl.promoteId : null,
          });
          this.drilledTiles = new DrilledTiles(index as unknown as IndexTiles);
          return index;
        } catch (e) {
          throw new SourceError(this.name, undefined, `the data is not valid GeoJSON: ${(e as Error).message}`, { cause: e });
        }
      })();
      this.index.catch(() => {
        this.index = undefined; // a failed load may be retried by the next render
      });
    }
    return this.index;
  }

  /** The whole features (for centroid, hull, bbox and dash phase: one answer for every tile). */
  async wholeFeatures(layer: string, signal?: AbortSignal): Promise<() => readonly WholeFeature[]> {
    if (layer !== this.name)
      throw new SourceError(this.name, undefined, `unknown layer '${layer}'; a geojson source has one layer named after the source ('${this.name}')`);
    await this.load(signal);
    return () => (this.whole ??= wholeFeatures(this.unwrapped!));
  }

  async features(layer: string, canvas: Canvas, signal?: AbortSignal): Promise<FeatureGroup[]> {
    if (layer !== this.name)
      throw new SourceError(this.name, undefined, `unknown layer '${layer}'; a geojson source has one layer named after the source ('${this.name}')`);
    const index = await this.load(signal);
    if (canvas.z < this.minzoom) return [];
    // The sampled groups of one canvas are kept from its second sample on (a re-render of the
    // same tile, with other params, reuses them): ops never modify the groups they are given. A
    // server's uncached tiles are each sampled once: keeping them all cost the collector ~1 ms of
    // CPU per world tile (copying and marking groups nobody reads again; issue 25).
    if (!this.cache) return this.sample(index, canvas);
    const key = this.cacheKey + canvasKey(canvas);
    if (!this.sampledOnce.delete(key) && !this.cache.has(key)) {
      this.sampledOnce.add(key);
      if (this.sampledOnce.size > GEOJSON_SAMPLED_ONCE_MAX) this.sampledOnce.delete(this.sampledOnce.values().next().value!);
      return this.sample(index, canvas);
    }
    return this.cache.get(
      key,
      async () => {
        const groups = this.sample(index, canvas);
        return { value: groups, bytes: groupsBytes(groups) };
      },
      signal,
    );
  }

  /** Tiles converted to the sampler's form: conversions, cache hits, and what the cache holds (bounded by GEOJSON_CONVERTED_MAX). */
  get conversions(): { converted: number; hits: number; tiles: number; coords: number } {
    return { ...this.converted.stats, ...this.converted.size };
  }

  /** Tiles and source points geojson-vt has drilled down to and keeps (bounded by GEOJSON_DRILLED_MAX). */
  get drilled(): { tiles: number; points: number } {
    return this.drilledTiles?.drilled ?? { tiles: 0, points: 0 };
  }

  private sample(index: Index, canvas: Canvas): FeatureGroup[] {
    this.drilledTiles?.trim();
    const sz = Math.max(0, Math.min(canvas.z, this.maxzoom));
    // Every tile the canvas overlaps, not the canvas shrunk by geojson-vt's buffer: a line just
    // past a tile edge taken from the buffer of the tile beside it, not from its own tile, left
    // tile-edge pixels of a stroke differing from a window render by up to 139/255 (the seam test
    // in tests/sources/seam-geometry.test.ts, "a stroke alone on its features node").
    const tiles = coveringTiles(canvas, sz);
    const rects = contributionRects(tiles, canvas);
    const out = new GroupCollector(tiles.length > 1, true);
    tiles.forEach((t, i) => {
      const raw = index.getTileRaw(sz, t.wx, t.y);
      if (!raw) return;
      const feats = this.converted.get(raw);
      out.addTile(feats, EXTENT, t, rects[i]!, i);
    });
    return out.finish();
  }
}
