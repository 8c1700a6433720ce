// Render workers seen from the page: start them with a style, queue tile renders, cancel on abort
// (the hosts' one worker protocol, src/hosts/protocol.ts, as the Node pool speaks it).
import type { RenderedPixels } from './engine.js';
import { fromWire, type EngineOptions, type FromWorker, type RenderRequest, type ToWorker } from './protocol.js';

interface Job {
  id: number;
  req: RenderRequest;
  resolve(px: RenderedPixels): void;
  reject(e: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
  slot?: Slot;
  settled: boolean;
}

interface Slot {
  worker: Worker;
  jobs: Map<number, Job>;
}

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
      } else resolve({ slot: { worker, jobs: new Map() }, backend: m.info.backend, adapter: m.info.adapter });
    };
    worker.addEventListener('error', onError);
    worker.addEventListener('message', onMessage);
    worker.postMessage({ type: 'init', key: '', init: o } satisfies ToWorker);
  });
}

export class WorkerPool {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private readonly perWorker: number;
  private nextId = 1;
  private broken?: Error;

  /** `perWorker`: renders in flight per worker, so source fetches overlap with drawing. */
  constructor(started: StartedWorker[], perWorker: number) {
    this.slots = started.map((s) => s.slot);
    this.perWorker = perWorker;
    for (const slot of this.slots) {
      slot.worker.addEventListener('message', (ev: MessageEvent<FromWorker>) => this.onMessage(slot, ev.data));
      slot.worker.addEventListener('error', (ev) => this.fail(new Error(`a render worker failed: ${ev.message}`)));
    }
  }

  render(req: RenderRequest, signal?: AbortSignal): Promise<RenderedPixels> {
    if (this.broken) return Promise.reject(this.broken);
    if (signal?.aborted) return Promise.reject(abortError());
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, req, resolve, reject, signal, settled: false };
      if (signal) {
        job.onAbort = () => this.abort(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.pump();
    });
  }

  destroy(): void {
    this.fail(new Error('the renderer was destroyed'));
    for (const s of this.slots) s.worker.terminate();
  }

  private pump(): void {
    while (this.queue.length) {
      let best: Slot | undefined;
      for (const s of this.slots) if (s.jobs.size < this.perWorker && (!best || s.jobs.size < best.jobs.size)) best = s;
      if (!best) return;
      const job = this.queue.shift()!;
      job.slot = best;
      best.jobs.set(job.id, job);
      best.worker.postMessage({ type: 'render', id: job.id, key: '', job: job.req } satisfies ToWorker);
    }
  }

  private settle(job: Job): boolean {
    if (job.settled) return false;
    job.settled = true;
    if (job.onAbort) job.signal!.removeEventListener('abort', job.onAbort);
    return true;
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
      if (m.type === 'done') job.resolve(m.result);
      else job.reject(fromWire(m.error));
    }
    this.pump();
  }

  private fail(e: Error): void {
    this.broken ??= e;
    const all = [...this.queue.splice(0), ...this.slots.flatMap((s) => [...s.jobs.values()])];
    for (const s of this.slots) s.jobs.clear();
    for (const job of all) if (this.settle(job)) job.reject(e);
  }
}
