// Render workers seen from the page: start them with a style, queue tile renders, cancel on abort
// (the hosts' one worker protocol, src/hosts/protocol.ts, as the Node pool speaks it).
import type { RenderedPixels } from './engine.js';
import { fromWire, type EngineOptions, type FromWorker, type RenderRequest, type ToWorker } from './protocol.js';

interface Job {
  id: number;
  req: RenderRequest;
  /** Lower first (the preview: distance from the view's centre); ties in request order. */
  priority: number;
  resolve(px: RenderedPixels): void;
  reject(e: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
  superseded?: AbortSignal;
  onSuperseded?: () => void;
  slot?: Slot;
  settled: boolean;
}

interface Slot {
  worker: Worker;
  jobs: Map<number, Job>;
  /** Tiles whose home this worker is (see homeOf). */
  homes: number;
}

/** Tiles remembered with their worker; past this the assignment starts over. */
const MAX_HOMES = 4096;

export interface StartedWorker {
  slot: Slot;
  backend: 'cpu' | 'gpu';
  adapter?: string;
}

function abortError(): DOMException {
  return new DOMException('the render was aborted', 'AbortError');
}

/**
 * Workers must be same-origin: a bundle loaded from another origin (a page embedding the
 * tile server's bundle) starts its worker from a blob that imports the real script (CORS).
 */
function sameOriginUrl(url: string | URL): string | URL {
  const abs = new URL(String(url), globalThis.location?.href);
  if (!globalThis.location || abs.origin === globalThis.location.origin) return url;
  return URL.createObjectURL(new Blob([`import ${JSON.stringify(abs.href)};`], { type: 'text/javascript' }));
}

/** Start one worker and give it the style; resolves once its engine is built. */
export function startWorker(url: string | URL, o: EngineOptions): Promise<StartedWorker> {
  return new Promise((resolve, reject) => {
    let worker: Worker;
    const script = sameOriginUrl(url);
    const release = () => {
      if (script !== url) URL.revokeObjectURL(String(script));
    };
    try {
      worker = new Worker(script, { type: 'module', name: 'tilegraph-render' });
    } catch (e) {
      release();
      reject(e);
      return;
    }
    const onError = (ev: ErrorEvent) => {
      release();
      worker.terminate();
      reject(
        new Error(
          `the render worker (${String(url)}) failed to start: ${ev.message || 'the script did not load'}; pass workerUrl, or workers: 0 to render on this thread`,
        ),
      );
    };
    const onMessage = (ev: MessageEvent<FromWorker>) => {
      const m = ev.data;
      if (m.type !== 'ready' && m.type !== 'init-error') return;
      release();
      worker.removeEventListener('error', onError);
      worker.removeEventListener('message', onMessage);
      if (m.type === 'init-error') {
        worker.terminate();
        reject(fromWire(m.error));
      } else resolve({ slot: { worker, jobs: new Map(), homes: 0 }, backend: m.info.backend, adapter: m.info.adapter });
    };
    worker.addEventListener('error', onError);
    worker.addEventListener('message', onMessage);
    worker.postMessage({ type: 'init', key: '', init: o } satisfies ToWorker);
  });
}

export interface PoolRenderOptions {
  /** Abort: a queued render is dropped, a running one stopped; the promise rejects with AbortError at once. */
  signal?: AbortSignal;
  /** Superseded: a render that has not started is dropped (AbortError); one already running completes. */
  superseded?: AbortSignal;
  /** Lower renders first (default 0). */
  priority?: number;
}

export class WorkerPool {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private readonly perWorker: number;
  private nextId = 1;
  private broken?: Error;
  private pumpSoon = false;
  private readonly homes = new Map<string, Slot>();
  /** The worker each finished render's pixel buffer came from (recycle gives it back there). */
  private readonly origins = new WeakMap<ArrayBuffer, Slot>();

  /** `perWorker`: renders in flight per worker, so source fetches overlap with drawing. */
  constructor(started: StartedWorker[], perWorker: number) {
    this.slots = started.map((s) => s.slot);
    this.perWorker = perWorker;
    for (const slot of this.slots) {
      slot.worker.addEventListener('message', (ev: MessageEvent<FromWorker>) => this.onMessage(slot, ev.data));
      slot.worker.addEventListener('error', (ev) => this.fail(new Error(`a render worker failed: ${ev.message}`)));
    }
  }

  render(req: RenderRequest, o: PoolRenderOptions = {}): Promise<RenderedPixels> {
    const { signal, superseded } = o;
    if (this.broken) return Promise.reject(this.broken);
    if (signal?.aborted || superseded?.aborted) return Promise.reject(abortError());
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, req, priority: o.priority ?? 0, resolve, reject, signal, superseded, settled: false };
      if (signal) {
        job.onAbort = () => this.abort(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      if (superseded) {
        job.onSuperseded = () => this.drop(job);
        superseded.addEventListener('abort', job.onSuperseded, { once: true });
      }
      this.queue.push(job);
      if (!this.pumpSoon) {
        this.pumpSoon = true;
        // After the current task's synchronous requests: a burst (all the tiles of a view) is sorted by priority before any is sent.
        queueMicrotask(() => {
          this.pumpSoon = false;
          this.pump();
        });
      }
    });
  }

  destroy(): void {
    this.fail(new Error('the renderer was destroyed'));
    for (const s of this.slots) s.worker.terminate();
  }

  /**
   * The worker a tile always renders on: each worker keeps its own node cache, so a param change
   * re-runs only the nodes that read it only if the tile goes back to the worker that has the rest.
   * New tiles go to the worker with the fewest.
   */
  private homeOf(req: RenderRequest): Slot {
    if (this.slots.length === 1) return this.slots[0]!;
    const key = `${req.tile.z}/${req.tile.x}/${req.tile.y}@${req.tileSize}`;
    let home = this.homes.get(key);
    if (!home) {
      if (this.homes.size >= MAX_HOMES) {
        this.homes.clear();
        for (const s of this.slots) s.homes = 0;
      }
      home = this.slots.reduce((a, b) => (b.homes < a.homes ? b : a));
      home.homes++;
      this.homes.set(key, home);
    }
    return home;
  }

  /** Each worker with room takes its most urgent queued tile. */
  private pump(): void {
    for (let sent = true; sent && this.queue.length; ) {
      sent = false;
      for (const slot of this.slots) {
        if (slot.jobs.size >= this.perWorker) continue;
        let next = -1;
        for (let i = 0; i < this.queue.length; i++)
          if (this.homeOf(this.queue[i]!.req) === slot && (next < 0 || this.queue[i]!.priority < this.queue[next]!.priority)) next = i;
        if (next < 0) continue;
        const job = this.queue.splice(next, 1)[0]!;
        job.slot = slot;
        slot.jobs.set(job.id, job);
        slot.worker.postMessage({ type: 'render', id: job.id, key: '', job: job.req } satisfies ToWorker);
        sent = true;
      }
    }
  }

  private settle(job: Job): boolean {
    if (job.settled) return false;
    job.settled = true;
    if (job.onAbort) job.signal!.removeEventListener('abort', job.onAbort);
    if (job.onSuperseded) job.superseded!.removeEventListener('abort', job.onSuperseded);
    return true;
  }

  /** Superseded: drop it if it has not started (here or in its worker); a running render completes. */
  private drop(job: Job): void {
    if (job.settled) return;
    const q = this.queue.indexOf(job);
    if (q >= 0) {
      this.queue.splice(q, 1);
      this.settle(job);
      job.reject(abortError());
    } else job.slot?.worker.postMessage({ type: 'drop', id: job.id } satisfies ToWorker);
  }

  private abort(job: Job): void {
    if (!this.settle(job)) return;
    const q = this.queue.indexOf(job);
    if (q >= 0) this.queue.splice(q, 1);
    // A running render is told to stop; its slot frees when the worker answers.
    else job.slot?.worker.postMessage({ type: 'cancel', id: job.id } satisfies ToWorker);
    job.reject(abortError());
  }

  private onMessage(slot: Slot, m: FromWorker): void {
    if (m.type !== 'done' && m.type !== 'error') return;
    const job = slot.jobs.get(m.id);
    if (!job) return;
    slot.jobs.delete(m.id);
    if (this.settle(job)) {
      if (m.type === 'done') {
        if (m.result.data.byteLength) this.origins.set(m.result.data.buffer as ArrayBuffer, slot);
        job.resolve(m.result);
      } else job.reject(fromWire(m.error));
    }
    this.pump();
  }

  /**
   * Give a finished render's pixels back to the worker that rendered them (transferred: `data` is
   * empty afterwards), for a later render's pixels; the caller no longer reads them.
   */
  recycle(data: Uint8ClampedArray): void {
    const buffer = data.buffer as ArrayBuffer;
    const slot = this.origins.get(buffer);
    if (!slot || this.broken || buffer.byteLength === 0) return;
    this.origins.delete(buffer);
    slot.worker.postMessage({ type: 'spare', buffer } satisfies ToWorker, [buffer]);
  }

  private fail(e: Error): void {
    this.broken ??= e;
    const all = [...this.queue.splice(0), ...this.slots.flatMap((s) => [...s.jobs.values()])];
    for (const s of this.slots) s.jobs.clear();
    for (const job of all) if (this.settle(job)) job.reject(e);
  }
}
