// Window -> PNG rendering for the CLI's `tiles` and the tile server, either in this thread (any
// backend) or spread over worker threads (all cores): on the CPU backend, or on the GPU with a
// device per worker, so that the CPU side of GPU renders (sources, geometry, readback decode, PNG
// encode) runs on every core while the GPU executes the passes.
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { RenderError, releaseRaster, type Backend, type ParamValues, type Window } from '../../index.js';
import type { GpuTimings, PipeliningStats } from '../../backends/gpu/session.js';
import { fromWire, type FromWorker, type ToWorker, type WireParams } from '../protocol.js';
import { encodePngSync } from './png.js';
import type { LoadedStyle } from './style-file.js';

export interface PngRenderer {
  /** How many renders are worth running at once (more only queue inside). */
  readonly capacity: number;
  render(style: LoadedStyle, window: Window, params: ParamValues, signal?: AbortSignal): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** What a Node worker builds a style from: the same text the main thread validated. */
export interface NodeInit {
  text: string;
  baseDir: string;
  allowOutside: boolean;
  fetchTimeoutMs?: number;
  nodeCacheBytes?: number;
  sourceCacheBytes?: number;
}

/** One window to render and encode. */
export interface NodeJob {
  window: Window;
  params: WireParams;
  compressionLevel?: number;
}

/** What a worker renders on (its `workerData`). */
export interface PoolWorkerData {
  backend?: 'cpu' | 'gpu';
  /** GPU workers: whether a software adapter (SwiftShader) will do; the main thread chose the adapter kind. */
  allowFallback?: boolean;
  /** Style versions the worker keeps built, least recently used out (the pool keeps the same list: WORKER_STYLES). */
  maxStyles?: number;
}

/**
 * Style versions each worker keeps built, least recently rendered first out: every style of a
 * gallery, and after a reload the previous version for renders still queued. It was two, so a
 * gallery's round robin over seven styles rebuilt a style (its sources, its GeoJSON index) for
 * nearly every tile (issue 23). A built style costs its plan and its sources' indexes (a few MiB
 * for the bundled examples); decoded tiles go to the worker's one source cache.
 */
export const WORKER_STYLES = 16;

/** What a worker has done so far (the GPU bench's per-tile breakdown): renders, PNG encodes, its GPU backend's counters. */
export interface WorkerStats {
  renders: number;
  /** Styles built (an `init`: a style version the worker did not hold), and held now. */
  builds: number;
  styles: number;
  png: { count: number; ms: number };
  gpu?: { timings: GpuTimings; pipelining: PipeliningStats };
  /** The worker's memory in bytes: its own V8 heap, and what its caches estimate they hold. */
  memory: WorkerMemory;
}

/** A render thread's memory (bytes), for `/metrics` and the memory bench. */
export interface WorkerMemory {
  /** V8 heap of this thread: used, and reserved (what it costs in RSS). */
  heapUsed: number;
  heapTotal: number;
  /** Typed arrays' buffers and other memory V8 is told about outside its heap (this thread's). */
  external: number;
  arrayBuffers: number;
  /** Estimated bytes of the source cache (decoded source tiles, sampled geometry), shared by the thread's styles. */
  sourceCache: number;
  /** Free canvas buffers kept for reuse (src/backends/cpu/pool.ts). */
  bufferPool: number;
}

/** The hosts' protocol, plus the Node pool's own `stats` (counters) and `close` (release the GPU device, then end). */
export type WorkerRequest = ToWorker<NodeInit, NodeJob> | { type: 'stats'; id: number } | { type: 'close' };
export type WorkerReply = FromWorker<Record<string, never>, Uint8Array> | { type: 'stats'; id: number; stats: WorkerStats };

/** Renders on the calling thread with one backend (the GPU backend must stay on one device). */
export class InProcessRenderer implements PngRenderer {
  constructor(
    private readonly backend: Backend,
    readonly capacity = 2,
    private readonly compressionLevel?: number,
  ) {}

  async render(style: LoadedStyle, window: Window, params: ParamValues, signal?: AbortSignal): Promise<Uint8Array> {
    // Encoded and given back at once: a raster in the canvas arena is read where it lies.
    const { raster } = await style.renderer.renderWindow(window, params, { backend: this.backend, signal, arenaOutput: true });
    const png = encodePngSync(raster, { compressionLevel: this.compressionLevel });
    releaseRaster(raster); // encoded: its buffer serves the next render
    return png;
  }

  async close(): Promise<void> {}
}

interface Job {
  resolve(png: Uint8Array): void;
  reject(e: unknown): void;
  slot: Slot;
}

interface Slot {
  worker: Worker;
  /** Style versions the worker holds, least recently rendered first (it keeps WORKER_STYLES, as this list does). */
  loaded: string[];
  busy: number;
  jobs: Set<number>;
  answered?: boolean;
}

export interface WorkerPoolOptions {
  /** Worker threads (default: one per core). */
  size?: number;
  /**
   * What the workers render on (default cpu). `gpu`: each worker makes its own device on the
   * adapter the main thread found (run selectBackend first: it sets up the environment, such as
   * XDG_RUNTIME_DIR or SwiftShader's VK_ICD_FILENAMES, that worker threads inherit).
   */
  backend?: 'cpu' | 'gpu';
  /** GPU workers: accept a software adapter (default false). */
  allowFallback?: boolean;
  /** Renders in flight per worker; 2 overlaps one render's PNG encode with the next render. */
  perWorker?: number;
  /** The compiled worker script (default: render-worker.js beside this module). */
  workerUrl?: URL | string;
  compressionLevel?: number;
  /**
   * Heap of each worker in MiB. Node ends a worker past it (replaced by the pool), best-effort only:
   * some allocations abort the process (nodejs/node#47224); the render limits are the real guard.
   */
  maxHeapMb?: number;
  /** Young generation of each worker in MiB (default WORKER_YOUNG_MB). */
  maxYoungMb?: number;
  /** V8's old-generation growth after a full collection, in percent (default WORKER_HEAP_GROWTH; see setHeapGrowth). */
  heapGrowthPercent?: number;
}

/** Default heap of a render worker: rasters live outside it (typed arrays); geometry and caches inside. */
const WORKER_HEAP_MB = 2048;
/**
 * Young generation of a render worker in MiB (`serve --worker-young-mb`). A render allocates ~1
 * MB of short-lived objects (label candidates, outlines, sampled lines): with 16 MiB (issue 23's
 * choice, for ~40 MiB less RSS a worker) a worker scavenged every ~8 text-heavy tiles, and V8's
 * other threads spent 2.5-3.7 ms a maplibre-effects or toner tile collecting; with 64 they spend
 * 1.5-2.3, and those servers answer ~10-20% more uncached tiles a second, for ~40 MiB more RSS a
 * worker (docs/server.md, "The render workers' young generation").
 */
export const WORKER_YOUNG_MB = 64;

/**
 * How far V8 lets a heap grow past what survived a full collection before the next one, in
 * percent (`serve --worker-heap-growth`). V8's own rule aims at 3% of the thread's time in the
 * collector and, measuring its marking as fast against a render worker's allocation, grew each
 * worker's heap by only 10-30%: a maplibre-effects worker (~90 MB live, its source and label
 * caches) marked all of it every ~100 renders, on the same two cores as the renders. At 100 the
 * server's full collections fell from 47 to 30-31 over a bench run, its rows read 182.4 / 178.5 /
 * 184.5 tiles/s against 174.9 / 175.7 / 158.8 alternated, and the memory bench's peak RSS did not
 * rise (world 472 against 475 MiB, gallery 556 against 580; docs/server.md "V8's heap growth").
 * 200 since the sampled canvases are kept packed (~27 MB less live heap a maplibre-effects worker):
 * maplibre-effects in six alternated pairs 205-219 tiles/s against 185-216, p99 118-125 ms against
 * 126-178; the gallery's memory run 778 MiB peak RSS after 40,000 requests against 733 (300: 857;
 * docs/server.md "Sampled canvases kept packed").
 */
export const WORKER_HEAP_GROWTH = 200;

/**
 * Sets V8's heap growth (`--heap-growing-percent`; 0: V8's own rule) for every thread of this
 * process, the render workers' included: it is one V8 flag for the process, read at each full
 * collection. A growth given to node itself (`node --heap-growing-percent=N`) is left as it is.
 */
export function setHeapGrowth(percent: number): void {
  if (!(Number.isInteger(percent) && percent >= 0 && percent <= MAX_HEAP_GROWTH))
    throw new RangeError(`heap growth must be an integer percent from 0 to ${MAX_HEAP_GROWTH}, not ${percent}`);
  if (process.execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))) return;
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/** The largest heap growth setHeapGrowth takes: a heap up to 5x what survived. */
export const MAX_HEAP_GROWTH = 400;

/** CPU renders spread over worker threads; each worker builds the style from the same text. */
export class WorkerPool implements PngRenderer {
  readonly capacity: number;
  private readonly slots: Slot[] = [];
  private readonly jobs = new Map<number, Job>();
  private readonly waiting: (() => void)[] = [];
  private nextId = 1;
  private closed = false;
  /** Workers that died before answering anything, in a row: a broken worker script must not respawn forever. */
  private crashes = 0;
  private broken?: string;
  private readonly perWorker: number;
  private readonly workerUrl: URL | string;
  private readonly compressionLevel?: number;
  private readonly maxHeapMb: number;
  private readonly data: PoolWorkerData;
  private readonly statsWaiting = new Map<number, (s: WorkerStats) => void>();
  /** What the workers render on. */
  readonly backend: 'cpu' | 'gpu';
  private readonly maxYoungMb?: number;

  constructor(options: WorkerPoolOptions = {}) {
    const size = Math.max(1, options.size ?? availableParallelism());
    this.perWorker = Math.max(1, options.perWorker ?? 2);
    this.capacity = size * this.perWorker;
    this.workerUrl = options.workerUrl ?? new URL('./render-worker.js', import.meta.url);
    this.compressionLevel = options.compressionLevel;
    this.maxHeapMb = options.maxHeapMb ?? WORKER_HEAP_MB;
    this.backend = options.backend ?? 'cpu';
    this.data = { backend: this.backend, allowFallback: options.allowFallback ?? false, maxStyles: WORKER_STYLES };
    this.maxYoungMb = options.maxYoungMb ?? WORKER_YOUNG_MB;
    setHeapGrowth(options.heapGrowthPercent ?? WORKER_HEAP_GROWTH);
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  /** Worker threads. */
  get size(): number {
    return this.slots.length;
  }

  private spawn(): Slot {
    const worker = new Worker(this.workerUrl, {
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb, ...(this.maxYoungMb ? { maxYoungGenerationSizeMb: this.maxYoungMb } : {}) },
      workerData: this.data,
    });
    const slot: Slot = { worker, loaded: [], busy: 0, jobs: new Set() };
    worker.on('message', (m: WorkerReply) => this.settle(slot, m));
    const fail = (why: string) => {
      for (const id of slot.jobs) {
        const job = this.jobs.get(id);
        this.jobs.delete(id);
        job?.reject(new RenderError(`a render worker stopped: ${why}`));
      }
      slot.jobs.clear();
      slot.busy = 0;
      const i = this.slots.indexOf(slot);
      if (!slot.answered && ++this.crashes > 3) {
        this.broken = `render workers fail to start: ${why}`;
        for (const w of this.waiting.splice(0)) w();
        return;
      }
      if (i >= 0 && !this.closed) {
        this.slots[i] = this.spawn();
        this.wake();
      }
    };
    worker.on('error', (e) => fail(e.message));
    worker.on('exit', (code) => {
      if (!this.closed) fail(`exit code ${code}`);
    });
    return slot;
  }

  private settle(slot: Slot, m: WorkerReply): void {
    if (m.type === 'stats') {
      this.statsWaiting.get(m.id)?.(m.stats);
      this.statsWaiting.delete(m.id);
      return;
    }
    slot.answered = true;
    // A failed init surfaces as the error of the renders of that version.
    if (m.type === 'ready' || m.type === 'init-error') return;
    this.crashes = 0;
    if (slot.jobs.delete(m.id)) slot.busy--;
    const job = this.jobs.get(m.id);
    this.jobs.delete(m.id);
    this.wake();
    if (!job) return; // aborted already
    if (m.type === 'done') job.resolve(m.result);
    else job.reject(fromWire(m.error));
  }

  private wake(): void {
    this.waiting.shift()?.();
  }

  private async freeSlot(): Promise<Slot> {
    for (;;) {
      if (this.closed) throw new RenderError('the render pool is closed');
      if (this.broken) throw new RenderError(this.broken);
      let best: Slot | undefined;
      for (const s of this.slots) if (s.busy < this.perWorker && (!best || s.busy < best.busy)) best = s;
      if (best) return best;
      await new Promise<void>((r) => this.waiting.push(r));
    }
  }

  async render(style: LoadedStyle, window: Window, params: ParamValues, signal?: AbortSignal): Promise<Uint8Array> {
    signal?.throwIfAborted();
    const slot = await this.freeSlot();
    signal?.throwIfAborted();
    const version = style.renderer.version;
    if (!slot.loaded.includes(version)) {
      const init: NodeInit = {
        text: style.text,
        baseDir: style.baseDir,
        allowOutside: style.allowOutside,
        fetchTimeoutMs: style.fetchTimeoutMs,
        nodeCacheBytes: style.nodeCacheBytes,
        sourceCacheBytes: style.sourceCacheBytes,
      };
      slot.worker.postMessage({ type: 'init', key: version, init } satisfies WorkerRequest);
      slot.loaded.push(version);
      if (slot.loaded.length > WORKER_STYLES) slot.loaded.shift();
    } else if (slot.loaded.at(-1) !== version) {
      // Most recently used last, as the worker orders its styles on the same messages.
      slot.loaded.splice(slot.loaded.indexOf(version), 1);
      slot.loaded.push(version);
    }
    const id = this.nextId++;
    slot.busy++;
    slot.jobs.add(id);
    return new Promise<Uint8Array>((resolve, reject) => {
      const onAbort = () => {
        this.jobs.delete(id);
        slot.worker.postMessage({ type: 'cancel', id } satisfies WorkerRequest);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.jobs.set(id, {
        slot,
        resolve: (png) => (done(), resolve(png)),
        reject: (e) => (done(), reject(e)),
      });
      slot.worker.postMessage({
        type: 'render',
        id,
        key: version,
        job: { window, params: params.toValues(), compressionLevel: this.compressionLevel },
      } satisfies WorkerRequest);
    });
  }

  /** Each worker's counters (a worker that does not answer within `timeoutMs`, busy in a long render, is left out). */
  async stats(timeoutMs = 5000): Promise<WorkerStats[]> {
    if (this.closed) return [];
    const asked = this.slots.map((slot) => {
      const id = this.nextId++;
      return new Promise<WorkerStats | undefined>((resolve) => {
        const timer = setTimeout(() => {
          this.statsWaiting.delete(id);
          resolve(undefined);
        }, timeoutMs);
        this.statsWaiting.set(id, (s) => {
          clearTimeout(timer);
          resolve(s);
        });
        slot.worker.postMessage({ type: 'stats', id } satisfies WorkerRequest);
      });
    });
    return (await Promise.all(asked)).filter((s): s is WorkerStats => !!s);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.waiting.splice(0)) w();
    for (const job of this.jobs.values()) job.reject(new RenderError('the render pool is closed'));
    this.jobs.clear();
    if (this.backend === 'gpu') {
      // A GPU worker destroys its device and ends by itself; one that does not within 5 s is terminated.
      await Promise.all(
        this.slots.map(
          (s) =>
            new Promise<void>((resolve) => {
              const timer = setTimeout(() => void s.worker.terminate().then(() => resolve()), 5000);
              s.worker.once('exit', () => {
                clearTimeout(timer);
                resolve();
              });
              s.worker.postMessage({ type: 'close' } satisfies WorkerRequest);
            }),
        ),
      );
      return;
    }
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}

/** GPU worker threads by default: one per core, at most this many (each holds a GPU device of its own). */
export const MAX_DEFAULT_GPU_WORKERS = 16;

export interface PngRendererChoice {
  /** The backend the hosts' `--backend` names. */
  backend: Backend;
  /** Whether the adapter behind a GPU backend is a software one (SwiftShader). */
  fallback?: boolean;
  /** Worker threads; undefined: one per core (GPU: at most MAX_DEFAULT_GPU_WORKERS); 0 or 1 with `inProcess`: this thread. */
  workers?: number;
  /** Render in this thread with `backend` (few tiles, `--workers 0`). */
  inProcess?: boolean;
  workerUrl?: URL | string;
  /** Young generation of each worker in MiB (default WORKER_YOUNG_MB). */
  youngMb?: number;
  /** V8's heap growth in percent (default WORKER_HEAP_GROWTH; setHeapGrowth). */
  heapGrowthPercent?: number;
  /** Releases `backend` (the main thread's GPU device): called when workers render instead, or at close. */
  release(): Promise<void>;
}

/**
 * The PNG renderer of a host (`tiles`, `serve`): in this thread with the selected backend, or a
 * pool of worker threads on the same backend kind. A GPU pool gives each worker its own device
 * (the main thread's, which found the adapter, is released first): the GPU then executes the
 * passes of every worker while each worker's CPU work (sources, geometry, readback, PNG encoding)
 * runs on its own core. One device in one thread was bound by that thread on a real GPU
 * (docs/gpu.md, "Device results").
 */
export async function makePngRenderer(o: PngRendererChoice): Promise<{ renderer: PngRenderer; close(): Promise<void> }> {
  if (o.inProcess) return { renderer: new InProcessRenderer(o.backend, 2), close: () => o.release() };
  const gpu = o.backend.name === 'gpu';
  await o.release();
  const size = o.workers ?? (gpu ? Math.min(availableParallelism(), MAX_DEFAULT_GPU_WORKERS) : availableParallelism());
  const pool = new WorkerPool({
    size,
    workerUrl: o.workerUrl,
    backend: gpu ? 'gpu' : 'cpu',
    allowFallback: gpu && !!o.fallback,
    maxYoungMb: o.youngMb,
    heapGrowthPercent: o.heapGrowthPercent,
  });
  return { renderer: pool, close: () => pool.close() };
}
