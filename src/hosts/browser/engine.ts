// The rendering half of the browser binding: a core Renderer over a fetch loader, on WebGPU or the
// CPU backend. It runs inside the render worker (or on the page when workers are off).
import { CpuBackend } from '../../backends/cpu/backend.js';
import { TilegraphError } from '../../errors.js';
import { NodeCache, Renderer as CoreRenderer, tileWindow } from '../../index.js';
import { ARENA_BYTES, setArenaBytes } from '../../util/wasm-arena.js';
import type { Backend } from '../../backends/backend.js';
import { requestBrowserGpu } from './gpu.js';
import { FetchLoader } from './loader.js';
import { ParamValues } from '../../params/index.js';
import type { Plan, PlanNode } from '../../graph/build.js';
import type { Window } from '../../types.js';
import type { WireParams } from '../protocol.js';
import type { EngineOptions, RenderedPixels, RenderRequest } from './protocol.js';

/**
 * Pixel buffers given back by the page kept per engine, the oldest dropped past either bound. A
 * tile's 8-bit pixels are transferred to the page, so each render's would be new memory: in
 * Chromium's render worker that was ~2.8 ms of a 256 px tile's ~15 (the fresh pages), a sixth of
 * the world example's worker time per slider step.
 */
const MAX_SPARES = 8;
const MAX_SPARE_BYTES = 16 * 2 ** 20;

/** Node results a worker keeps for the visible tiles across param changes. */
const NODE_CACHE_BYTES = 128 * 2 ** 20;

/**
 * The worker's node cache, except for the nodes that read a param being dragged. A slider sends a
 * new value with every step, so those results would not be read again; keeping them would only pin
 * their buffers (no reuse through the buffer pool: allocations and GC at every step), push out the
 * results that are reused, and make the output a copy. The params that changed at the last change
 * are the hot ones, until another param changes.
 */
export class DragAwareNodeCache extends NodeCache {
  private hot = new Set<string>();
  private last?: Record<string, string>;

  /** The params of the next render: those that differ from the previous render's become the hot ones. */
  observe(params: WireParams): void {
    const now: Record<string, string> = {};
    for (const [k, v] of Object.entries(params)) now[k] = JSON.stringify(v);
    if (this.last) {
      const changed = Object.keys(now).filter((k) => now[k] !== this.last![k]);
      if (changed.length) this.hot = new Set(changed);
    }
    this.last = now;
  }

  override key(plan: Plan, n: PlanNode, window: Window, params: ParamValues): string {
    for (const p of this.hot) if (n.params.has(p)) return undefined as unknown as string; // render.ts: no key, not cached, buffer back to the pool
    return super.key(plan, n, window, params);
  }
}

export type { RenderedPixels } from './protocol.js';

export class TileEngine {
  readonly core: CoreRenderer;
  readonly backendName: 'cpu' | 'gpu';
  readonly adapter?: string;
  private readonly backend: Backend;
  private readonly cache?: DragAwareNodeCache;
  private readonly spares: ArrayBuffer[] = [];

  private constructor(core: CoreRenderer, backend: Backend, adapter?: string) {
    this.core = core;
    this.cache = core.nodeCache instanceof DragAwareNodeCache ? core.nodeCache : undefined;
    this.backend = backend;
    this.backendName = backend.name;
    this.adapter = adapter;
  }

  /** `auto`: a hardware WebGPU adapter when there is one, else the CPU backend; `gpu` accepts a software adapter and fails without one. */
  static async create(o: EngineOptions): Promise<TileEngine> {
    const loader = new FetchLoader({ baseUrl: o.baseUrl, dataUrl: o.dataUrl });
    // A param change in the preview re-runs only the nodes that read it (render/node-cache.ts).
    const nodeCache = o.nodeCache === false ? undefined : new DragAwareNodeCache(NODE_CACHE_BYTES);
    // The cache keeps its canvases where they were made: room for them in the canvas arena, so
    // the next renders' canvases still land there (src/util/wasm-arena.ts setArenaBytes).
    if (nodeCache) setArenaBytes(ARENA_BYTES + NODE_CACHE_BYTES);
    const core = CoreRenderer.create(o.style, { loader, nodeCache });
    if (o.backend === 'cpu') return new TileEngine(core, new CpuBackend());
    const gpu = await requestBrowserGpu(o.backend === 'gpu');
    if (gpu) return new TileEngine(core, gpu.backend, gpu.adapter);
    if (o.backend === 'gpu') throw new TilegraphError('render', "backend 'gpu': this browser offers no WebGPU adapter (navigator.gpu)");
    return new TileEngine(core, new CpuBackend());
  }

  /**
   * A finished render's pixel buffer, no longer read by the page: a later render of the same size
   * writes into it. The oldest kept ones make room (a view whose tile size changed leaves buffers
   * of the old size behind).
   */
  giveBack(buffer: ArrayBuffer): void {
    if (buffer.byteLength === 0 || buffer.byteLength > MAX_SPARE_BYTES) return;
    this.spares.push(buffer);
    let bytes = this.spares.reduce((n, b) => n + b.byteLength, 0);
    while (this.spares.length > MAX_SPARES || bytes > MAX_SPARE_BYTES) bytes -= this.spares.shift()!.byteLength;
  }

  /** Pixel buffers kept for later renders (tests). */
  get spareBuffers(): number {
    return this.spares.length;
  }

  async render(req: RenderRequest, signal?: AbortSignal): Promise<RenderedPixels> {
    const start = performance.timeOrigin + performance.now();
    // Values validated on the page, checked against the declarations here; never re-parsed.
    const params = ParamValues.fromValues(this.core.plan.params, req.params);
    this.cache?.observe(req.params);
    const ratio = req.pixelRatio ?? 1;
    const window = ratio === 1 ? tileWindow(req.tile, req.tileSize) : { ...tileWindow(req.tile, req.tileSize * ratio), pixelRatio: ratio };
    // Converted to 8 bits where the output lies (the canvas arena, the node cache's array): no float
    // copy; into a spare buffer of its size where the page gave one back.
    const k = this.spares.findIndex((b) => b.byteLength === window.width * window.height * 4);
    const spare = k >= 0 ? this.spares.splice(k, 1)[0] : undefined;
    let raster: Awaited<ReturnType<CoreRenderer['renderWindow']>>['raster'];
    let rgba8: Uint8ClampedArray | undefined;
    try {
      ({ raster, rgba8 } = await this.core.renderWindow(window, params, { backend: this.backend, signal, rgba8: spare ? new Uint8ClampedArray(spare) : true }));
    } catch (e) {
      if (spare) this.giveBack(spare);
      throw e;
    }
    return { width: raster.width, height: raster.height, data: rgba8!, timing: { start, end: performance.timeOrigin + performance.now() } };
  }
}
