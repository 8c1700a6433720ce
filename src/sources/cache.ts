// Decoded source tiles in an LRU bounded by bytes, shared by every render of a Renderer (or of
// several, when a host passes one cache to each). Concurrent requests for one key load it once.

export interface TileCacheOptions {
  /** Upper bound of the estimated bytes held (default 128 MiB). */
  maxBytes?: number;
}

export interface TileCacheStats {
  /** Requests answered from a finished entry. */
  hits: number;
  /** Requests that joined a load already under way. */
  joins: number;
  /** Loads started. */
  loads: number;
  /** Entries evicted to stay under maxBytes. */
  evictions: number;
  /** Estimated bytes held now. */
  bytes: number;
  entries: number;
}

/** What a loader hands back: the value and an estimate of the memory it holds. */
export interface Sized<T> {
  value: T;
  bytes: number;
}

interface Pending {
  promise: Promise<Sized<unknown>>;
  controller: AbortController;
  waiters: number;
}

/**
 * The waiters of each signal behind one abort listener: a render waiting for dozens of source
 * tiles at once (a text node reads far around its tile) adds one listener to its signal, not one
 * per tile (Node warns past ten listeners on one signal).
 */
const waiters = new WeakMap<AbortSignal, Set<() => void>>();

/** Call `fn` when `signal` aborts; returns the function that stops that. */
function onAbortOf(signal: AbortSignal, fn: () => void): () => void {
  let set = waiters.get(signal);
  if (!set) {
    const fns = (set = new Set());
    waiters.set(signal, fns);
    signal.addEventListener('abort', () => [...fns].forEach((f) => f()), { once: true });
  }
  set.add(fn);
  return () => set.delete(fn);
}

export class TileCache {
  readonly maxBytes: number;
  private readonly done = new Map<string, Sized<unknown>>();
  private readonly pending = new Map<string, Pending>();
  private total = 0;
  private readonly counters = { hits: 0, joins: 0, loads: 0, evictions: 0 };

  constructor(o: TileCacheOptions = {}) {
    this.maxBytes = o.maxBytes ?? 128 * 1024 * 1024;
  }

  get stats(): TileCacheStats {
    return { ...this.counters, bytes: this.total, entries: this.done.size };
  }

  /**
   * The value under `key`, loading it with `load` when absent. A load shared by several callers is
   * aborted only when every one of them has aborted; failures are not cached.
   */
  get<T>(key: string, load: (signal: AbortSignal) => Promise<Sized<T>>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    const hit = this.done.get(key);
    if (hit) {
      this.counters.hits++;
      // Re-insert: Map order is the LRU order (oldest first).
      this.done.delete(key);
      this.done.set(key, hit);
      return Promise.resolve(hit.value as T);
    }
    let p = this.pending.get(key);
    if (p) this.counters.joins++;
    else {
      this.counters.loads++;
      const controller = new AbortController();
      const promise = (async () => load(controller.signal))().then((sized) => {
        if (this.pending.get(key) === entry) {
          this.pending.delete(key);
          this.store(key, sized);
        }
        return sized;
      });
      const entry: Pending = { promise: promise as Promise<Sized<unknown>>, controller, waiters: 0 };
      // Rejections reach every waiter; this handler only keeps an orphaned load from crashing the process.
      promise.catch(() => {
        if (this.pending.get(key) === entry) this.pending.delete(key);
      });
      this.pending.set(key, entry);
      p = entry;
    }
    return this.wait(key, p, signal) as Promise<T>;
  }

  /** Whether `key` is held or being loaded (no LRU update, no counters). */
  has(key: string): boolean {
    return this.done.has(key) || this.pending.has(key);
  }

  private wait(key: string, p: Pending, signal?: AbortSignal): Promise<unknown> {
    p.waiters++;
    return new Promise((resolve, reject) => {
      let settled = false;
      const onAbort = () => {
        if (settled) return;
        settled = true;
        if (--p.waiters <= 0 && this.pending.get(key) === p) {
          this.pending.delete(key);
          p.controller.abort(signal!.reason);
        }
        reject(signal!.reason);
      };
      const off = signal ? onAbortOf(signal, onAbort) : undefined;
      p.promise.then(
        (s) => {
          if (settled) return;
          settled = true;
          p.waiters--;
          off?.();
          resolve(s.value);
        },
        (e) => {
          if (settled) return;
          settled = true;
          p.waiters--;
          off?.();
          reject(e);
        },
      );
    });
  }

  private store(key: string, sized: Sized<unknown>): void {
    // An entry larger than the whole budget is handed out but not kept.
    if (sized.bytes > this.maxBytes) return;
    const old = this.done.get(key);
    if (old) {
      this.total -= old.bytes;
      this.done.delete(key);
    }
    this.done.set(key, sized);
    this.total += sized.bytes;
    for (const [k, v] of this.done) {
      if (this.total <= this.maxBytes) break;
      this.done.delete(k);
      this.total -= v.bytes;
      this.counters.evictions++;
    }
  }

  /** Drop every entry whose key starts with `prefix` (all entries when omitted), or that `which` picks. */
  clear(which: string | ((key: string) => boolean) = ''): void {
    const drop = typeof which === 'string' ? (k: string) => k.startsWith(which) : which;
    for (const [k, v] of this.done) {
      if (drop(k)) {
        this.done.delete(k);
        this.total -= v.bytes;
      }
    }
  }
}
