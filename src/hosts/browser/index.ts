// tilegraph's browser binding (spec §4.3): load a style, read its params schema, set params by
// name from strings, render tiles to ImageData / ImageBitmap. Rendering runs in a Web Worker
// (WebGPU there when the browser has a hardware adapter, else the CPU backend).
import { Renderer as CoreRenderer } from '../../index.js';
import { ParamValues } from '../../params/index.js';
import type { StyleDoc } from '../../style/types.js';
import type { TileAddress } from '../../types.js';
import { TileEngine, type RenderedPixels } from './engine.js';
import { FetchLoader } from './loader.js';
import { startWorker, WorkerPool, type StartedWorker } from './pool.js';
import type { BackendChoice, EngineOptions, RenderRequest } from './protocol.js';

export interface BrowserRendererOptions {
  /** The style: a document object, its JSON text, or the URL of a style file (fetched). */
  style: object | string | URL;
  /** Relative source refs resolve against this URL (default: the style's URL, else the page's). */
  baseUrl?: string | URL;
  /** A host route serving refs a browser cannot fetch (npm:, files): `dataUrl + encodeURIComponent(ref)`. See FetchLoader. */
  dataUrl?: string | URL;
  /** `auto` (default): WebGPU on a hardware adapter, else the CPU backend; `gpu`: WebGPU or fail; `cpu`. */
  backend?: BackendChoice;
  /** Render workers for the CPU backend (default: cores - 1, 1..4); 0 renders on the calling thread. WebGPU uses one. */
  workers?: number;
  /** URL of tilegraph-worker.js (default: beside this bundle). */
  workerUrl?: string | URL;
  /** Tile size in pixels (default 256). */
  tileSize?: number;
  /** Each worker keeps node results across renders (default true), so a param change re-runs only the nodes that read it. */
  nodeCache?: boolean;
}

export interface RenderTileOptions {
  tileSize?: number;
  /**
   * Pixel density 1..4 (default 1), as MapLibre's @2x: the tile in tileSize x ratio pixels with
   * every size the style gives in pixels scaled by it (a crisp tile on a high-density screen).
   */
  pixelRatio?: number;
  /** Overrides on top of the defaults, as strings (the tile server's query semantics), or a ParamValues. Default: the renderer's current params. */
  params?: ParamValues | Record<string, string | undefined>;
  /** Abort: a queued render is dropped, a running one stops at its next check; rejects with AbortError. */
  signal?: AbortSignal;
  /** Superseded (e.g. by a newer param value): the render is dropped if it has not started; once started it completes. */
  superseded?: AbortSignal;
  /** Renders waiting for a worker start lowest first (default 0; the preview uses the distance from the view's centre). */
  priority?: number;
  /** Told when and how long the render ran (ms since the epoch, `performance.timeOrigin + now()`): for tracing. */
  onTiming?(timing: { start: number; end: number }): void;
}

const isStyleText = (s: string) => s.trimStart().startsWith('{');

async function resolveStyle(style: BrowserRendererOptions['style']): Promise<{ doc: object | string; url?: string }> {
  if (style instanceof URL || (typeof style === 'string' && !isStyleText(style))) {
    const url = new URL(String(style), globalThis.document?.baseURI ?? globalThis.location?.href).href;
    const res = await fetch(url);
    if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText} for the style ${url}`);
    return { doc: await res.text(), url };
  }
  return { doc: style };
}

function defaultWorkers(): number {
  const cores = globalThis.navigator?.hardwareConcurrency ?? 2;
  return Math.max(1, Math.min(4, cores - 1));
}

/** Every declared param as canonical text (numbers, #rrggbbaa, true/false): what a URL carries (ParamValues.strings). */
export function paramStrings(values: ParamValues): Record<string, string> {
  return values.strings();
}

/** A style loaded for the browser. Create with `await Renderer.create({ style, baseUrl })`. */
export class Renderer {
  /** The core renderer on this thread: schema, legend, attribution and param validation. */
  readonly core: CoreRenderer;
  /** The backend tiles render on. */
  readonly backend: 'cpu' | 'gpu';
  /** The WebGPU adapter in use, when `backend` is 'gpu'. */
  readonly adapter?: string;
  readonly tileSize: number;
  private current: ParamValues;
  private readonly pool?: WorkerPool;
  private readonly local?: TileEngine;

  private constructor(core: CoreRenderer, tileSize: number, exec: { pool: WorkerPool; first: StartedWorker } | { local: TileEngine }) {
    this.core = core;
    this.tileSize = tileSize;
    this.current = core.params();
    if ('pool' in exec) {
      this.pool = exec.pool;
      this.backend = exec.first.backend;
      this.adapter = exec.first.adapter;
    } else {
      this.local = exec.local;
      this.backend = exec.local.backendName;
      this.adapter = exec.local.adapter;
    }
  }

  /** Load, validate and build the style, then start the render worker(s). Throws StyleError / BuildError. */
  static async create(o: BrowserRendererOptions): Promise<Renderer> {
    const { doc, url } = await resolveStyle(o.style);
    const baseUrl = new URL(String(o.baseUrl ?? url ?? globalThis.document?.baseURI ?? globalThis.location?.href)).href;
    const dataUrl = o.dataUrl === undefined ? undefined : new URL(String(o.dataUrl), baseUrl).href;
    const core = CoreRenderer.create(doc, { loader: new FetchLoader({ baseUrl, dataUrl }) });
    const engine: EngineOptions = { style: core.doc as StyleDoc, baseUrl, dataUrl, backend: o.backend ?? 'auto', nodeCache: o.nodeCache };
    const tileSize = o.tileSize ?? 256;
    const workers = o.workers ?? defaultWorkers();
    if (workers <= 0 || typeof Worker === 'undefined') return new Renderer(core, tileSize, { local: await TileEngine.create(engine) });

    const workerUrl = o.workerUrl ?? new URL('./tilegraph-worker.js', import.meta.url);
    const first = await startWorker(workerUrl, engine);
    const started = [first];
    // One GPU device is enough; the CPU backend gets one worker per spare core.
    if (first.backend === 'cpu') {
      const rest = await Promise.allSettled(Array.from({ length: workers - 1 }, () => startWorker(workerUrl, { ...engine, backend: 'cpu' })));
      for (const r of rest) if (r.status === 'fulfilled') started.push(r.value);
    }
    return new Renderer(core, tileSize, { pool: new WorkerPool(started, first.backend === 'gpu' ? 4 : 2), first });
  }

  /** JSON Schema of the params: the same document as the tile server's /style/params. */
  get paramsSchema(): Record<string, unknown> {
    return this.core.paramsSchema;
  }

  get legend(): StyleDoc['legend'] {
    return this.core.legend;
  }

  get name(): string | undefined {
    return this.core.doc.name;
  }

  /** The style version (a hash of the document); caches key on it and on param values. */
  get version(): string {
    return this.core.version;
  }

  /** Attribution of the style and its sources, de-duplicated; entries may hold HTML. */
  attribution(): Promise<string[]> {
    return this.core.attribution();
  }

  /** The current param values (defaults until set). */
  get params(): ParamValues {
    return this.current;
  }

  /** Set one param from a string, validated like a tile-server query. Throws ParamError. */
  setParam(name: string, value: string): this {
    return this.setParams({ [name]: value });
  }

  /** Set several params at once; nothing changes if any is invalid (the ParamError lists them all). */
  setParams(values: Record<string, string | undefined>): this {
    this.current = ParamValues.from(this.core.plan.params, { ...paramStrings(this.current), ...values });
    return this;
  }

  resetParams(): this {
    this.current = this.core.params();
    return this;
  }

  /** Render one tile to straight-alpha RGBA pixels. Rejects with ParamError before rendering when params are invalid. */
  async renderTile(tile: TileAddress, options: RenderTileOptions = {}): Promise<ImageData> {
    const px = await this.renderPixels(tile, options, false);
    if (px.timing) options.onTiming?.(px.timing);
    return new ImageData(px.data as Uint8ClampedArray<ArrayBuffer>, px.width, px.height);
  }

  /**
   * Render one tile to an ImageBitmap (what a canvas or MapLibre's addProtocol takes): a GPU worker
   * makes it and hands it over without a copy; a CPU worker hands over its pixels and the bitmap is
   * made here, so the worker starts its next tile at once.
   */
  async renderTileBitmap(tile: TileAddress, options: RenderTileOptions = {}): Promise<ImageBitmap> {
    const px = await this.renderPixels(tile, options, true);
    if (px.timing) options.onTiming?.(px.timing);
    if (px.bitmap) return px.bitmap;
    const bitmap = await createImageBitmap(new ImageData(px.data as Uint8ClampedArray<ArrayBuffer>, px.width, px.height));
    // The bitmap holds its own copy: the pixels' buffer goes back to the worker for a later tile.
    if (this.pool) this.pool.recycle(px.data);
    else this.local?.giveBack(px.data.buffer as ArrayBuffer);
    return bitmap;
  }

  /** Stop the workers; later renders reject. */
  destroy(): void {
    this.pool?.destroy();
  }

  private renderPixels(tile: TileAddress, options: RenderTileOptions, bitmap: boolean): Promise<RenderedPixels> {
    const p = options.params;
    const values = p === undefined ? this.current : p instanceof ParamValues ? p : this.core.params(p);
    const req: RenderRequest = { tile, tileSize: options.tileSize ?? this.tileSize, params: values.toValues() };
    if (options.pixelRatio !== undefined && options.pixelRatio !== 1) req.pixelRatio = options.pixelRatio;
    if (this.pool) return this.pool.render(bitmap ? { ...req, bitmap } : req, options);
    if (options.superseded?.aborted) return Promise.reject(new DOMException('the render was aborted', 'AbortError'));
    return this.local!.render(req, options.signal);
  }
}

export { FetchLoader, type FetchLoaderOptions } from './loader.js';
export { ParamValues } from '../../params/index.js';
export type { BackendChoice } from './protocol.js';
export * from '../../errors.js';
