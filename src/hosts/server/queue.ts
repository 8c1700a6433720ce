// The render queue: at most `concurrency` renders at once, at most `maxWaiting` waiting; a render
// that has not finished `timeoutMs` after it was queued is aborted.
import { NamedError } from '../named-error.js';

export class QueueFullError extends NamedError {}

export class RenderTimeoutError extends NamedError {}

/** The server is stopping: renders still queued or running when the grace period ends (503, Retry-After). */
export class ShuttingDownError extends NamedError {}

export interface RenderQueueOptions {
  concurrency: number;
  maxWaiting: number;
  timeoutMs: number;
}

export class RenderQueue {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  /** Every render not yet answered (waiting or running): close() aborts them. */
  private readonly controllers = new Set<AbortController>();
  private closed?: Error;

  constructor(readonly options: RenderQueueOptions) {}

  get waiting(): number {
    return this.queue.length;
  }

  get running(): number {
    return this.active;
  }

  /** Run `fn` when a slot is free. Throws QueueFullError at once when the queue is full. */
  async run<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.closed) throw this.closed;
    if (this.active >= this.options.concurrency && this.queue.length >= this.options.maxWaiting) {
      throw new QueueFullError(`${this.queue.length} renders are waiting (the limit is ${this.options.maxWaiting})`);
    }
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(new RenderTimeoutError(`the render did not finish within ${this.options.timeoutMs} ms`)), this.options.timeoutMs);
    const aborted = new Promise<never>((_, reject) => ac.signal.addEventListener('abort', () => reject(ac.signal.reason), { once: true }));
    aborted.catch(() => undefined);
    this.controllers.add(ac);
    try {
      await this.acquire(ac.signal);
    } catch (e) {
      clearTimeout(timer);
      this.controllers.delete(ac);
      throw e;
    }
    const work = fn(ac.signal);
    // The slot frees when the work itself settles, even after a timeout has answered the caller.
    work.then(
      () => this.release(),
      () => this.release(),
    );
    try {
      return await Promise.race([work, aborted]);
    } finally {
      clearTimeout(timer);
      this.controllers.delete(ac);
    }
  }

  /** Fail every render waiting or running with `reason` (their renders are aborted), and every later one; returns how many there were. */
  close(reason: Error): number {
    this.closed = reason;
    const open = [...this.controllers];
    for (const ac of open) ac.abort(reason);
    return open.length;
  }

  private acquire(signal: AbortSignal): Promise<void> {
    if (this.active < this.options.concurrency) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      // A released slot is handed over directly (active stays the same), so nobody jumps the queue.
      const entry = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = this.queue.indexOf(entry);
        if (i >= 0) this.queue.splice(i, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.queue.push(entry);
    });
  }

  private release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.active--;
  }
}
