// The host-supplied loader and the source registry the ops sample through.
import type { Canvas, FeatureGroup, ScalarField } from '../types.js';

/**
 * Bytes by reference, supplied by the host (in the spirit of the pmtiles `Source`): a path
 * relative to the style, or a URL. The core never touches a file system or the network.
 */
export interface Loader {
  /** The whole resource, or `length` bytes from `offset`. Rejects with an Error saying why. */
  load(ref: string, range?: { offset: number; length: number }, signal?: AbortSignal): Promise<Uint8Array>;
}

/** A feature source sampled for a canvas. */
export interface FeatureSource {
  readonly name: string;
  readonly type: 'mvt' | 'pmtiles' | 'geojson';
  /** Layer names, when known without loading tiles. */
  layers?(): string[] | undefined;
  /** Feature groups of `layer` intersecting the canvas, in world pixels at canvas.z, clipped near the canvas. */
  features(layer: string, canvas: Canvas, signal?: AbortSignal): Promise<FeatureGroup[]>;
  attribution(): Promise<string | undefined>;
  minzoom: number;
  maxzoom: number;
}

/** A raster elevation source sampled for a canvas. */
export interface DemSource {
  readonly name: string;
  readonly type: 'dem';
  /** Elevation in metres, one sample per canvas pixel centre. */
  field(canvas: Canvas, signal?: AbortSignal): Promise<ScalarField>;
  attribution(): Promise<string | undefined>;
  minzoom: number;
  maxzoom: number;
}

export type AnySource = FeatureSource | DemSource;

export interface SourceRegistry {
  featureSource(name: string | undefined): FeatureSource;
  demSource(name: string | undefined): DemSource;
  /** Merged, de-duplicated attribution of the style and its sources. */
  attribution(): Promise<string[]>;
}
