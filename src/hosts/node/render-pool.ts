// Window -> PNG rendering for the CLI's `tiles` and the tile server, either in this thread (any
// backend, e.g. the GPU) or spread over worker threads on the CPU backend (all cores).
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { RenderError, releaseRaster, type Backend, type ParamValues, type Window } from '../../index.js';
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

export type WorkerRequest = ToWorker<NodeInit, NodeJob>;
export type WorkerReply = FromWorker<Record<string, never>, Uint8Array>;

/** Renders on the calling thread with one backend (the GPU backend must stay on one device). */
export class InProcessRenderer implements PngRenderer {
  constructor(
    private readonly backend: Backend,
    readonly capacity = 2,
    private readonly compressionLevel?: number,
  ) {}

  async render(style: LoadedStyle, window: Window, params: ParamValues, signal?: AbortSignal): Promise<Uint8Array> {
    const { raster } = await style.renderer.renderWindow(window, params, { backend: this.backend, signal });
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
  /** Style versions the worker holds, oldest first (it keeps the last two, as this list does). */
  loaded: string[];
  busy: number;
  jobs: Set<number>;
  answered?: boolean;
}

export interface WorkerPoolOptions {
  /** Worker threads (default: one per core). */
  size?: number;
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
}

/** Default heap of a render worker: rasters live outside it (typed arrays); geometry and caches inside. */
const WORKER_HEAP_MB = 2048;

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

  constructor(options: WorkerPoolOptions = {}) {
    const size = Math.max(1, options.size ?? availableParallelism());
    this.perWorker = Math.max(1, options.perWorker ?? 2);
    this.capacity = size * this.perWorker;
    this.workerUrl = options.workerUrl ?? new URL('./render-worker.js', import.meta.url);
    this.compressionLevel = options.compressionLevel;
    this.maxHeapMb = options.maxHeapMb ?? WORKER_HEAP_MB;
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const worker = new Worker(this.workerUrl, { resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb } });
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
      if (slot.loaded.length > 2) slot.loaded.shift();
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

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.waiting.splice(0)) w();
    for (const job of this.jobs.values()) job.reject(new RenderError('the render pool is closed'));
    this.jobs.clear();
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
