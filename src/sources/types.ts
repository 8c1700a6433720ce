// The host-supplied loader and image decoder, and the source registry the ops sample through.
import type { Canvas, FeatureGroup, Raster, ScalarField, Sprite } from '../types.js';
import type { TileCache } from './cache.js';
import type { WholeFeature } from '../geometry/whole.js';
import type { HostDecompress } from './gzip.js';
import type { ExprFeature } from '../expr/index.js';

/**
 * Bytes by reference, supplied by the host (in the spirit of the pmtiles `Source`): a path
 * relative to the style, or a URL. The core never touches a file system or the network.
 */
export interface Loader {
  /**
   * The whole resource, or up to `length` bytes from `offset` (fewer at the end of the resource).
   * Rejects with an Error saying why (missing file, HTTP status, refused path).
   */
  load(ref: string, range?: { offset: number; length: number }, signal?: AbortSignal): Promise<Uint8Array>;
  /**
   * A stable identity for `ref` (e.g. the absolute path or URL), so that a tile cache shared by
   * several styles never mixes up two files with the same relative name. Default: `ref` itself.
   */
  key?(ref: string): string;
  /** The host's image decoder, when the loader carries one (the Node loader does); see ImageDecoder. */
  decodeImage?: ImageDecoder;
  /**
   * A faster way to a DEM tile's metres for the images the host reads directly (the Node loader:
   * an RGB PNG, rows converted as they are unfiltered). Gives the values decodeImage and the `dem`
   * source's conversion would; undefined for an image it leaves to decodeImage. Rejects or throws
   * on a corrupt image.
   */
  decodeElevation?(bytes: Uint8Array, encoding: 'mapbox' | 'terrarium'): DecodedElevation | undefined | Promise<DecodedElevation | undefined>;
  /** The host's brotli decompressor (PMTiles archives may use it); rejects past maxBytes. */
  decompress?: HostDecompress;
}

/** 8-bit RGBA pixels, straight alpha, row-major. */
export interface DecodedImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Metres of a DEM tile image, row-major; NaN where the image is transparent. */
export interface DecodedElevation {
  data: Float32Array;
  width: number;
  height: number;
}

/**
 * Decodes PNG or WebP bytes (DEM tiles). Supplied by the host: sharp in Node (src/hosts/node/image.ts),
 * createImageBitmap + OffscreenCanvas in a browser (src/sources/image-browser.ts).
 */
export type ImageDecoder = (bytes: Uint8Array) => Promise<DecodedImage>;

/** What every source of one style shares: the host bindings and the tile cache. */
export interface SourceContext {
  loader?: Loader;
  decodeImage?: ImageDecoder;
  cache: TileCache;
  /** Prefix of this registry's cache keys (keeps styles apart in a shared cache). */
  cachePrefix: string;
}

/**
 * A filter applied to a layer's features before they are sampled: `passes` reads only what the
 * key names (a features node's filter expression, its zoom, its min-zoom field), so two selections
 * with one key keep the same features and share one result.
 */
export interface FeatureSelection {
  readonly key: string;
  passes(f: ExprFeature): boolean;
}

/** A feature source sampled for a canvas. */
export interface FeatureSource {
  readonly name: string;
  readonly type: 'mvt' | 'pmtiles' | 'geojson';
  /** Layer names, when known without loading tiles. */
  layers?(): string[] | undefined;
  /**
   * Feature groups of `layer` intersecting the canvas, in world pixels at canvas.z. Each source
   * tile contributes its own square (pieces from neighbours abut exactly); geometry is clipped a
   * few pixels beyond the canvas, so clip edges and line ends made by clipping stay out of sight.
   */
  features(layer: string, canvas: Canvas, signal?: AbortSignal): Promise<FeatureGroup[]>;
  /**
   * Tiled sources: `features` of only the features that pass `selection`, the same groups as
   * `features(...).filter(...)` (a feature's group passes as the feature does), without sampling
   * and clipping the others. Each source tile's features are tested once per selection key.
   */
  selectedFeatures?(layer: string, canvas: Canvas, selection: FeatureSelection, signal?: AbortSignal): Promise<FeatureGroup[]>;
  /**
   * Tiled sources: every feature of `layer` as each source tile whose square meets the canvas holds it, buffer included, in Mercator units, owned by the tile's
   * square (src/sources/pieces.ts). The same pieces whatever the canvas, so measures of them are
   * seamless. `select` (a filter) is applied to each tile's own list before they are joined: the
   * caller can keep its result per tile list (the same array while the tile is cached).
   */
  tilePieces?(
    layer: string,
    canvas: Canvas,
    signal?: AbortSignal,
    select?: (pieces: readonly WholeFeature[]) => readonly WholeFeature[],
  ): Promise<readonly WholeFeature[]>;
  /**
   * Every feature of the layer, unclipped, when the source holds whole features (GeoJSON): a getter,
   * so that they are converted only when an op asks for them.
   */
  wholeFeatures?(layer: string, signal?: AbortSignal): Promise<() => readonly WholeFeature[]>;
  /** Attribution of the declaration and, where the data carries one, of the data (archive metadata). */
  attribution(): Promise<string[]>;
  readonly minzoom: number;
  readonly maxzoom: number;
}

/** A raster elevation source sampled for a canvas. */
export interface DemSource {
  readonly name: string;
  readonly type: 'dem';
  /** Elevation in metres, one bilinear sample per canvas pixel centre; NaN where there is no data. */
  field(canvas: Canvas, signal?: AbortSignal): Promise<ScalarField>;
  /** Attribution of the declaration and, where the data carries one, of the data (archive metadata). */
  attribution(): Promise<string[]>;
  readonly minzoom: number;
  readonly maxzoom: number;
}

/** A raster image tile source sampled for a canvas. */
export interface RasterSource {
  readonly name: string;
  readonly type: 'raster';
  /** The tiles' premultiplied RGBA resampled at canvas pixel centres; transparent where there is no tile. */
  image(canvas: Canvas, resampling: 'linear' | 'nearest', signal?: AbortSignal): Promise<Raster>;
  attribution(): Promise<string[]>;
  readonly minzoom: number;
  readonly maxzoom: number;
}

export type AnySource = FeatureSource | DemSource | RasterSource;

export interface SourceRegistry {
  featureSource(name: string | undefined): FeatureSource;
  /** An image asset (brush tip, sprite, pattern) by its style-relative path or URL, loaded once per style (src/sources/assets.ts). */
  sprite?(ref: string, signal?: AbortSignal): Promise<Sprite>;
  /** A MapLibre sprite sheet by its base path or URL (`<base>.json` + `.png`, `@2x` at ratio 2), loaded once per style. */
  spriteSheet?(base: string, ratio: number, signal?: AbortSignal): Promise<import('./sprites.js').SpriteSheet>;
  demSource(name: string | undefined): DemSource;
  /** A font (TTF, OTF, WOFF, WOFF2) by its style-relative path, URL or npm: reference, loaded once per style (src/ops/text/fonts.ts). */
  font?(ref: string, signal?: AbortSignal): Promise<import('../ops/text/font.js').TextFont>;
  /**
   * Reports something a render could only partly honour (a character no font holds): each distinct
   * message once per style, to the host's warning handler (RendererOptions.onWarning).
   */
  warn?(message: string): void;
  /** Set on the legend's stand-in registry: ops may draw a sample where the stand-in feature gives them nothing (a text node's label). */
  readonly standIn?: boolean;
  rasterSource(name: string | undefined): RasterSource;
  /** Merged, de-duplicated attribution of the style and its sources. */
  attribution(): Promise<string[]>;
  /** The tile cache the sources decode into (absent on stand-ins such as the legend's). */
  readonly cache?: TileCache;
}
