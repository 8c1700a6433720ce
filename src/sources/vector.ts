// Vector tile sources (mvt templates, pmtiles archives): load the source tiles covering a canvas,
// decode the requested layer once per tile (cached), and merge the pieces into feature groups.
import { SourceError, TilegraphError } from '../errors.js';
import type { Canvas, FeatureGroup } from '../types.js';
import { formatBytes, LIMITS } from '../limits.js';
import { maybeGunzip } from './gzip.js';
import { decodeLayer, parseTile, type LazyTile } from './mvt-decode.js';
import type { WholeFeature } from '../geometry/whole.js';
import { piecesBytes, tilePieces } from './pieces.js';
import {
  canvasKey,
  contributionRects,
  type DecodedLayer,
  GroupCollector,
  layerBytes,
  mergeableIds,
  type PackedGroups,
  type TileFeature,
  unitRect,
  unpackGroups,
} from './sample.js';
import { coveringTiles, tileKey } from './tiles.js';
import type { FeatureSelection, FeatureSource, SourceContext } from './types.js';

/** Where the bytes of one tile come from. */
export interface TileFetcher {
  /** Zoom range, bounds and layers, once known (pmtiles reads them from the archive). */
  info(signal?: AbortSignal): Promise<{ minzoom: number; maxzoom: number; layers?: string[] }>;
  /** Raw bytes of tile z/x/y, undefined when the tile is absent (outside bounds, not in the archive). */
  fetch(z: number, x: number, y: number, signal: AbortSignal): Promise<Uint8Array | undefined>;
  /** Cache identity of the tile set. */
  readonly key: string;
}

/** MapLibre's promoteId: the property that becomes the feature id, for every layer or per layer. */
export type PromoteId = string | Record<string, string>;

export interface VectorSourceOptions {
  name: string;
  type: 'mvt' | 'pmtiles';
  fetcher: TileFetcher;
  ctx: SourceContext;
  attribution: () => Promise<string[]>;
  minzoom: number;
  maxzoom: number;
  /** How far each tile's data reaches past its square, in 4096ths of the tile (the tileset's buffer). */
  buffer: number;
  promoteId?: PromoteId;
}

/** The usual vector tile buffer: 64/4096 of a tile (Mapbox Streets, OpenMapTiles, Planetiler: 4 px at 256). */
export const DEFAULT_TILE_BUFFER = 64;

/** Wrap any failure while reading a tile into a SourceError naming the source, the tile and the cause. */
export function tileError(source: string, tile: string | undefined, what: string, e: unknown): SourceError {
  if (e instanceof SourceError) return e;
  const msg = e instanceof TilegraphError ? e.problems.map((p) => p.message).join('; ') : ((e as Error)?.message ?? String(e));
  return new SourceError(source, tile, `${what}: ${msg}`, { cause: e });
}

/** A source tile's bytes, undefined when it is absent or empty; a failed fetch (not an abort) throws a SourceError. */
export async function fetchTileBytes(source: string, tile: string, fetch: () => Promise<Uint8Array | undefined>): Promise<Uint8Array | undefined> {
  let bytes: Uint8Array | undefined;
  try {
    bytes = await fetch();
  } catch (e) {
    if ((e as Error)?.name === 'AbortError') throw e;
    throw tileError(source, tile, 'cannot load the tile', e);
  }
  return bytes && bytes.length > 0 ? bytes : undefined;
}

export class VectorTileSource implements FeatureSource {
  readonly name: string;
  readonly type: 'mvt' | 'pmtiles';
  minzoom: number;
  maxzoom: number;
  private readonly fetcher: TileFetcher;
  private readonly ctx: SourceContext;
  private readonly attr: () => Promise<string[]>;
  private knownLayers?: string[];
  private readonly buffer: number;
  private readonly promoteId?: PromoteId;

  constructor(o: VectorSourceOptions) {
    this.promoteId = o.promoteId;
    this.name = o.name;
    this.type = o.type;
    this.fetcher = o.fetcher;
    this.ctx = o.ctx;
    this.attr = o.attribution;
    this.minzoom = o.minzoom;
    this.maxzoom = o.maxzoom;
    this.buffer = o.buffer;
  }

  layers(): string[] | undefined {
    return this.knownLayers;
  }

  attribution(): Promise<string[]> {
    return this.attr();
  }

  private async info(signal?: AbortSignal) {
    try {
      const info = await this.fetcher.info(signal);
      this.minzoom = info.minzoom;
      this.maxzoom = info.maxzoom;
      this.knownLayers = info.layers;
      return info;
    } catch (e) {
      if ((e as Error)?.name === 'AbortError') throw e;
      throw tileError(this.name, undefined, 'cannot read the tile set', e);
    }
  }

  /** The parsed tile (layer index only), cached; null when the tile is absent. */
  private tile(z: number, x: number, y: number, signal?: AbortSignal): Promise<LazyTile | null> {
    const k = `${this.ctx.cachePrefix}vt|${this.fetcher.key}|${tileKey(z, x, y)}`;
    return this.ctx.cache.get(
      k,
      async (sig) => {
        const bytes = await fetchTileBytes(this.name, tileKey(z, x, y), () => this.fetcher.fetch(z, x, y, sig));
        if (!bytes) return { value: null, bytes: 64 };
        try {
          if (bytes.length > LIMITS.maxTileBytes)
            throw new Error(`the tile is ${formatBytes(bytes.length)}, above the limit of ${formatBytes(LIMITS.maxTileBytes)}`);
          const raw = await maybeGunzip(bytes, LIMITS.maxTileBytes);
          // The layer index keeps the bytes; the layers decoded from it are cached separately.
          return { value: parseTile(raw), bytes: raw.byteLength * 1.25 + 256 };
        } catch (e) {
          throw tileError(this.name, tileKey(z, x, y), 'the tile is not a valid vector tile (truncated or corrupt protobuf or gzip)', e);
        }
      },
      signal,
    );
  }

  /** One decoded layer of one tile, cached; null when the tile or the layer is absent. */
  private layer(z: number, x: number, y: number, layer: string, signal?: AbortSignal): Promise<DecodedLayer | null> {
    const promote = typeof this.promoteId === 'string' ? this.promoteId : this.promoteId?.[layer];
    const k = `${this.ctx.cachePrefix}vl|${this.fetcher.key}|${tileKey(z, x, y)}|${layer}${promote !== undefined ? `|id=${promote}` : ''}`;
    return this.ctx.cache.get(
      k,
      async (sig) => {
        const vt = await this.tile(z, x, y, sig);
        if (!vt) return { value: null, bytes: 64 };
        try {
          const l = vt.layer(layer);
          if (!l) return { value: null, bytes: 64 };
          const d = decodeLayer(l);
          if (promote !== undefined) {
            for (const f of d.features) {
              const v = f.properties[promote];
              if (typeof v === 'number' || typeof v === 'string') f.id = v;
            }
          }
          return { value: d, bytes: layerBytes(d) };
        } catch (e) {
          throw tileError(this.name, tileKey(z, x, y), `layer '${layer}' cannot be decoded (truncated or corrupt protobuf)`, e);
        }
      },
      signal,
    );
  }

  async features(layer: string, canvas: Canvas, signal?: AbortSignal): Promise<FeatureGroup[]> {
    const info = await this.info(signal);
    // Below the source's minzoom there are no tiles; above its maxzoom, ancestors are over-zoomed.
    // Outside the source's zooms the style draws without it (issue 15).
    if (canvas.z < info.minzoom) return [];
    // The sampled groups of one canvas are kept (a re-render of the same tile, another param
    // value, reuses them), packed: each use gets new group objects of the same geometry
    // (unpackGroups), ops never modify the geometry they are given.
    const k = `${this.ctx.cachePrefix}vs|${this.fetcher.key}|${layer}|${canvasKey(canvas)}`;
    return unpackGroups(
      await this.ctx.cache.get(
        k,
        async (sig) => {
          const packed = await this.sample(info, layer, canvas, sig);
          return { value: packed, bytes: packed.byteLength };
        },
        signal,
      ),
    );
  }

  async selectedFeatures(layer: string, canvas: Canvas, selection: FeatureSelection, signal?: AbortSignal): Promise<FeatureGroup[]> {
    const info = await this.info(signal);
    if (canvas.z < info.minzoom) return [];
    // One entry per selection and canvas: nodes with the same filter on the same canvas share it.
    const k = `${this.ctx.cachePrefix}vs|${this.fetcher.key}|${layer}|${canvasKey(canvas)}|${selection.key}`;
    return unpackGroups(
      await this.ctx.cache.get(
        k,
        async (sig) => {
          const packed = await this.sample(info, layer, canvas, sig, selection);
          return { value: packed, bytes: packed.byteLength };
        },
        signal,
      ),
    );
  }

  async tilePieces(
    layer: string,
    canvas: Canvas,
    signal?: AbortSignal,
    select?: (pieces: readonly WholeFeature[]) => readonly WholeFeature[],
  ): Promise<readonly WholeFeature[]> {
    const info = await this.info(signal);
    if (canvas.z < info.minzoom) return [];
    const sz = Math.min(canvas.z, info.maxzoom);
    // Every tile whose square meets the canvas, each once (a canvas wider than the world meets a
    // tile twice). A measure owned by another tile lies outside the canvas, where nothing reads it
    // (the canvas already holds its consumers' margins), so no further neighbour is loaded.
    const seen = new Set<string>();
    const tiles = coveringTiles(canvas, sz).filter((t) => !seen.has(`${t.wx}/${t.y}`) && !!seen.add(`${t.wx}/${t.y}`));
    const all = await Promise.all(tiles.map((t) => this.pieces(t.z, t.wx, t.y, layer, signal)));
    const parts = select ? all.map(select) : all;
    // concat, not flat(): V8's flat copies element by element (~5% of a heatmap tile's CPU for
    // ~4,000 pieces a canvas); concat copies a packed array's elements in bulk. The same array.
    return ([] as WholeFeature[]).concat(...parts);
  }

  /** The pieces of one tile's layer (src/sources/pieces.ts), cached. */
  private pieces(z: number, x: number, y: number, layer: string, signal?: AbortSignal): Promise<WholeFeature[]> {
    const k = `${this.ctx.cachePrefix}vp|${this.fetcher.key}|${tileKey(z, x, y)}|${layer}`;
    return this.ctx.cache.get(
      k,
      async (sig) => {
        const d = await this.layer(z, x, y, layer, sig);
        const value = d ? tilePieces(d, z, x, y) : [];
        return { value, bytes: piecesBytes(value) };
      },
      signal,
    );
  }

  private async sample(
    info: { minzoom: number; maxzoom: number; layers?: string[] },
    layer: string,
    canvas: Canvas,
    signal?: AbortSignal,
    selection?: FeatureSelection,
  ): Promise<PackedGroups> {
    // Layer lists (archive metadata, a declared `layers`) can be incomplete in real data (the
    // Florence archive omits 'landuse'): a layer they lack is unknown only if no tile here holds it.
    const listed = !info.layers || info.layers.includes(layer);
    const unknown = () => new SourceError(this.name, undefined, `unknown layer '${layer}'; the source has: ${info.layers!.join(', ')}`);
    const sz = Math.min(canvas.z, info.maxzoom);
    // Neighbours only where the canvas reaches past a tile's own buffer.
    const tiles = coveringTiles(canvas, sz, this.buffer);
    const decoded = await Promise.all(tiles.map((t) => this.layer(t.z, t.wx, t.y, layer, signal)));
    // An unlisted layer no tile here holds is unknown only where the source has its full detail
    // (its maxzoom) and has tiles: generalised low-zoom tiles drop layers (Protomaps' landuse), and
    // outside the source's bounds there are no tiles at all; both render without it (issue 15).
    if (!listed && sz === info.maxzoom && decoded.every((d) => d === null)) {
      const present = await Promise.all(tiles.map((t) => this.tile(t.z, t.wx, t.y, signal)));
      if (present.some((t) => t)) throw unknown();
    }
    const rects = contributionRects(tiles, canvas);
    const merge = tiles.length > 1;
    const out = new GroupCollector(merge);
    // Arrays built by push onto literals, not Array.prototype.map: map's builtin returns a packed
    // array, but where TurboFan inlines map into this function the result is holey (another map),
    // and the reads of keep[i] here and in mergeableIds deopted ("wrong map") once the caller was
    // optimised: each recompile of this function cost ~100 ms of V8's compiler threads (docs/server.md).
    const keep: (Uint8Array | undefined)[] | undefined = selection ? [] : undefined;
    const kept: (Int32Array | undefined)[] | undefined = selection ? [] : undefined;
    if (selection)
      for (const d of decoded) {
        const s = d ? selectedFlags(d, selection) : undefined;
        keep!.push(s?.flags);
        kept!.push(s?.kept);
      }
    let ghostIds: Set<number | string> | undefined;
    if (keep && merge) {
      const features: (TileFeature[] | undefined)[] = [];
      const within: [number, number, number, number][] = [];
      for (let i = 0; i < tiles.length; i++) {
        features.push(decoded[i]?.features);
        within.push(unitRect(tiles[i]!, decoded[i]?.extent ?? 4096, rects[i]!));
      }
      ghostIds = mergeableIds(features, keep, within, kept);
    }
    for (let i = 0; i < tiles.length; i++) {
      const d = decoded[i];
      if (d) out.addTile(d.features, d.extent, tiles[i]!, rects[i]!, i, keep?.[i], ghostIds, kept?.[i]);
    }
    return out.finishPacked();
  }
}

/**
 * Per decoded layer and selection key, which features pass (1) or not (0), and the indexes of
 * those that pass, in order: a source tile's features are tested once whichever canvases and
 * nodes read it, and the samplers walk the kept ones only where they can. Kept beside the layer (a
 * weak map: gone with the cached layer); a layer read under many keys drops its flags now and then.
 */
const selected = new WeakMap<DecodedLayer, Map<string, Selected>>();

interface Selected {
  flags: Uint8Array;
  kept: Int32Array;
}

/** The memoised pass flags of one decoded layer's features under `selection`, and the kept indexes. */
function selectedFlags(d: DecodedLayer, selection: FeatureSelection): Selected {
  let byKey = selected.get(d);
  if (!byKey) selected.set(d, (byKey = new Map()));
  let got = byKey.get(selection.key);
  if (!got) {
    if (byKey.size >= 64) byKey.clear();
    const fs = d.features;
    const flags = new Uint8Array(fs.length);
    let n = 0;
    for (let i = 0; i < fs.length; i++) {
      const f = fs[i]!;
      // The view features nodes give a sampled group (src/ops/features exprFeature): a group's
      // geometry type is its feature's, as a group holds one type.
      if (selection.passes({ type: f.type, id: f.id, properties: f.properties })) {
        flags[i] = 1;
        n++;
      }
    }
    const kept = new Int32Array(n);
    for (let i = 0, k = 0; i < fs.length; i++) if (flags[i] === 1) kept[k++] = i;
    byKey.set(selection.key, (got = { flags, kept }));
  }
  return got;
}
