// tilegraph's library API (spec §4.4): load a style, set params by name from strings, render windows.
// The core imports nothing from Node; src/hosts/node/ binds files, PNG and the GPU device.
import { buildPlan, type Plan } from './graph/build.js';
import { ParamValues } from './params/index.js';
import { decide, render, type RenderResult } from './render/render.js';
import type { TextPlacement } from './ops/text/plan.js';
import { renderLegendScale, renderLegendSwatch, type LegendScale } from './render/legend.js';
import type { Backend } from './backends/backend.js';
import type { NodeCache } from './render/node-cache.js';
import { createSourceRegistry } from './sources/registry.js';
import type { ImageDecoder, Loader, SourceRegistry } from './sources/types.js';
import type { TileCache } from './sources/cache.js';
import { loadAnyStyle } from './style/load.js';
import type { ConvertOptions } from './maplibre/convert.js';
import type { Note } from './maplibre/types.js';
import type { StyleDoc } from './style/types.js';
import { tileWindow, type Raster, type TileAddress, type Window } from './types.js';

export interface RendererOptions {
  /** Binds source paths and URLs to bytes; required when the style has file or URL sources. */
  loader?: Loader;
  /** Backend used when a render call names none (default: the CPU backend). */
  backend?: Backend;
  /** Decodes PNG / WebP bytes (DEM tiles) to RGBA; required when the style has a `dem` source. The Node host binds sharp. */
  decodeImage?: ImageDecoder;
  /**
   * Node results kept across renders (interactive hosts: the browser worker, the server), so a
   * param change re-runs only the nodes that read it. Default: none (a one-shot render gains nothing).
   */
  nodeCache?: NodeCache;
  /** Decoded source tiles, shared by every render of this style; pass one cache to several renderers to share it (default: one per renderer). */
  tileCache?: TileCache;
  /**
   * What a render could honour only in part (a character no font of a text node holds), each
   * distinct message once per renderer (default: console.warn).
   */
  onWarning?: (message: string) => void;
  /** How a MapLibre GL style is converted (see convertMapLibre). */
  maplibre?: ConvertOptions;
}

/** One built style: every render of every host goes through the same plan. */
export class Renderer {
  private constructor(
    readonly doc: StyleDoc,
    readonly plan: Plan,
    readonly sources: SourceRegistry,
    public backend?: Backend,
    readonly nodeCache?: NodeCache,
    /**
     * Set when the style given was a MapLibre GL style: what its converted graph (`doc`) does not
     * honour, one note per layer and property (empty when everything is drawn).
     */
    readonly maplibreNotes?: Note[],
  ) {}

  /**
   * Load, validate and build a style (JSON text or object): ours, or a MapLibre GL v8 style,
   * converted to a graph first (`maplibreNotes` lists what it does not honour). Throws StyleError / BuildError.
   */
  static create(style: string | object, options: RendererOptions = {}): Renderer {
    const { doc, maplibre } = loadAnyStyle(style, { maplibre: options.maplibre });
    const plan = buildPlan(doc);
    const sources = createSourceRegistry(doc, {
      loader: options.loader,
      decodeImage: options.decodeImage,
      cache: options.tileCache,
      onWarning: options.onWarning,
    });
    return new Renderer(doc, plan, sources, options.backend, options.nodeCache, maplibre);
  }

  /** The style version: a hash of the document. Caches key on it and on param values. */
  get version(): string {
    return this.plan.version;
  }

  /** JSON Schema of the params (draft 2020-12), as served at /style/params. */
  get paramsSchema(): Record<string, unknown> {
    return this.plan.paramsSchema;
  }

  get legend(): StyleDoc['legend'] {
    return this.plan.legend;
  }

  /** A validated param set: defaults, overridden by `overrides` (strings, parsed against the declarations). */
  params(overrides: Record<string, string | string[] | undefined> = {}, ignore: readonly string[] = []): ParamValues {
    return ParamValues.from(this.plan.params, overrides, ignore);
  }

  /**
   * Render any pixel window at a zoom (a tile, a bbox, ...). `arenaOutput`: the caller reads the
   * raster and gives it back with releaseRaster, never keeping or transferring its buffer, so a
   * raster in the CPU backend's canvas arena comes as it lies (RenderOptions.arenaOutput).
   * `rgba8`: the output comes as 8-bit straight-alpha RGBA in the result's `rgba8`, converted where
   * it lies (RenderOptions.rgba8), the raster without pixels; an array of the output's bytes
   * instead of `true` is written into (a recycled buffer).
   */
  async renderWindow(
    window: Window,
    params?: ParamValues,
    options: { backend?: Backend; signal?: AbortSignal; arenaOutput?: boolean; rgba8?: boolean | Uint8ClampedArray } = {},
  ): Promise<RenderResult> {
    return render(this.plan, window, params, {
      backend: options.backend ?? this.backend,
      sources: this.sources,
      signal: options.signal,
      nodeCache: this.nodeCache,
      arenaOutput: options.arenaOutput,
      rgba8: options.rgba8,
    });
  }

  /**
   * What nodes `ids` publish for a window, decided as a render of that window decides it, nothing
   * drawn (render.ts decide). Default: every text node, each giving its TextPlacement with every
   * candidate label (placed or not) anchored where this window decides it exactly, world pixels.
   */
  async decide(window: Window, params?: ParamValues, options: { ids?: readonly string[]; signal?: AbortSignal } = {}): Promise<Map<string, unknown>> {
    const ids = options.ids ?? [...this.plan.nodes.values()].filter((n) => n.op.decide).map((n) => n.id);
    return decide(this.plan, window, ids, params, { sources: this.sources, signal: options.signal });
  }

  /** Every text node's labels for a window: its candidates and the placed ones (decide). */
  async labels(window: Window, params?: ParamValues, options: { signal?: AbortSignal } = {}): Promise<Map<string, TextPlacement>> {
    const ids = [...this.plan.nodes.values()].filter((n) => n.op.name === 'text').map((n) => n.id);
    return (await this.decide(window, params, { ids, signal: options.signal })) as Map<string, TextPlacement>;
  }

  async renderTile(tile: TileAddress, params?: ParamValues, options: { tileSize?: number; backend?: Backend; signal?: AbortSignal } = {}): Promise<Raster> {
    return (await this.renderWindow(tileWindow(tile, options.tileSize ?? 256), params, options)).raster;
  }

  /** Legend entry `index` drawn over stand-in features (size x size, default 32), with these params. */
  renderLegendSwatch(index: number, params?: ParamValues, options: { size?: number; backend?: Backend } = {}): Promise<Raster> {
    return renderLegendSwatch(this.plan, index, params, { ...options, backend: options.backend ?? this.backend, assets: this.sources });
  }

  /** Legend entry `index` as a colour scale (width x height, default 160 x 12) when its node is a `color-ramp`; else undefined. */
  renderLegendScale(index: number, params?: ParamValues, options: { width?: number; height?: number } = {}): LegendScale | undefined {
    return renderLegendScale(this.plan, index, params, options);
  }

  /** Attribution of the style and every source, de-duplicated. */
  attribution(): Promise<string[]> {
    return this.sources.attribution();
  }
}

export { loadStyle, loadAnyStyle, type LoadedDoc } from './style/load.js';
export { convertMapLibre, type ConvertOptions, type Conversion } from './maplibre/convert.js';
export { isMapLibreStyle, formatNote, type Note as MapLibreNote } from './maplibre/types.js';
export { styleSchema } from './style/schema.js';
export { buildPlan } from './graph/build.js';
export type { Plan, PlanNode } from './graph/build.js';
export type { LegendScale } from './render/legend.js';
export { decide, render } from './render/render.js';
export type { CandidateLabel, PlacedLabel, TextPlacement } from './ops/text/plan.js';
export type { RenderResult, RenderOptions } from './render/render.js';
export { NodeCache, type NodeCacheStats } from './render/node-cache.js';
export type { Backend, RenderStats } from './backends/backend.js';
export { CpuBackend } from './backends/cpu/backend.js';
export { ParamValues, paramsJsonSchema } from './params/index.js';
export { toRGBA8, fromRGBA8 } from './render/encode.js';
export { releaseRaster } from './backends/cpu/raster.js';
export * from './errors.js';
export { LimitError } from './graph/limits.js';
export { LIMITS } from './limits.js';
export * from './types.js';
export type { Loader, SourceRegistry, FeatureSource, DemSource, ImageDecoder, DecodedImage } from './sources/types.js';
export { TileCache, type TileCacheOptions, type TileCacheStats } from './sources/cache.js';
export type { StyleDoc } from './style/types.js';
export { OPS } from './ops/index.js';
