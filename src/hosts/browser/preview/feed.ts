// The preview's tile feed between MapLibre's tile requests and the render workers.
//
// - A request for a tile with newer params supersedes the tile's previous render: if that render
//   has not started it is dropped (it never runs); if it has, it completes and is still shown
//   (it is newer than what the map shows), which keeps the view's centre live during a drag.
// - Every request is answered with the newest image of its tile, so a slow old render can never
//   overwrite a newer one, and a request whose render was dropped waits for the tile's newest.
// - Finished tiles are held and handed to the map together, when no render of a current request
//   is left or `maxHoldMs` after the first was held: one map repaint for a whole param change
//   instead of one per tile (a repaint costs far more than a tile on a software-GL browser).

export interface FeedRenderOptions {
  /** Hard abort: no request wants this render any more. */
  signal: AbortSignal;
  /** Soft abort: newer params asked for the same tile; a render already running completes. */
  superseded: AbortSignal;
}

export interface TileFeedOptions<T> {
  /** Render tile `key` with the params `q` (whatever the caller encodes in it). */
  render(key: string, q: string, o: FeedRenderOptions): Promise<T>;
  /** The longest a finished tile waits for the others before it is handed over (default 100 ms). */
  maxHoldMs?: number;
  /** Called after each hand-over with the tiles it held (the page's trace). */
  onFlush?(keys: string[]): void;
}

interface Slot<T> {
  key: string;
  q: string;
  seq: number;
  epoch: number;
  abort: AbortController;
  supersede: AbortController;
  waiters: number;
  state: 'running' | 'held' | 'done' | 'failed' | 'dropped';
  value?: T;
  error?: unknown;
  /** Callbacks of the requests waiting on this slot, run when it settles or is handed over. */
  listeners: (() => void)[];
}

interface TileState<T> {
  latest?: Slot<T>;
  /** The newest image handed to the map, and its slot's sequence number. */
  shown?: { seq: number; value: T };
}

/** Tiles remembered (their newest image each, ~256 KiB at 256 px); the least recently asked for go first. */
const MAX_TILES = 128;

function abortError(): DOMException {
  return new DOMException('the tile request was aborted', 'AbortError');
}

export class TileFeed<T> {
  private readonly tiles = new Map<string, TileState<T>>();
  private readonly held = new Set<Slot<T>>();
  private running = 0;
  private seq = 0;
  private epoch = 0;
  private timer?: ReturnType<typeof setTimeout>;
  private readonly o: TileFeedOptions<T>;

  constructor(o: TileFeedOptions<T>) {
    this.o = o;
  }

  /** Renders started and not finished (superseded ones that still run are not counted). */
  get pending(): number {
    return this.running;
  }

  /** The newest image of tile `key` for params `q` (or newer). `signal`: the map no longer wants it. */
  get(key: string, q: string, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortError());
    let t = this.tiles.get(key);
    if (!t) this.tiles.set(key, (t = {}));
    else {
      // Most recently used last: the oldest idle tiles are forgotten past MAX_TILES.
      this.tiles.delete(key);
      this.tiles.set(key, t);
    }
    let slot = t.latest;
    if (!slot || slot.q !== q || slot.state === 'failed' || slot.state === 'dropped') {
      const old = slot;
      slot = this.start(key, q);
      t.latest = slot;
      if (old?.state === 'running') this.supersede(old);
      this.prune();
    }
    return this.wait(t, slot, signal);
  }

  private prune(): void {
    if (this.tiles.size <= MAX_TILES) return;
    for (const [key, t] of this.tiles) {
      if (this.tiles.size <= MAX_TILES) break;
      const s = t.latest;
      if (s && (s.state === 'running' || s.state === 'held' || s.waiters > 0)) continue;
      this.tiles.delete(key);
    }
  }

  /** Forget everything (another renderer now answers the requests): running renders are aborted. */
  clear(): void {
    this.epoch++;
    const tiles = [...this.tiles.values()];
    this.tiles.clear();
    // Requests still waiting are answered (AbortError): the map's image requests must not hang.
    for (const t of tiles) {
      const s = t.latest;
      if (!s || s.state === 'done' || s.state === 'failed') continue;
      if (s.state === 'running') s.abort.abort();
      s.state = 'dropped';
      this.notify(s);
    }
    this.held.clear();
    this.running = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private start(key: string, q: string): Slot<T> {
    const slot: Slot<T> = {
      key,
      q,
      seq: ++this.seq,
      epoch: this.epoch,
      abort: new AbortController(),
      supersede: new AbortController(),
      waiters: 0,
      state: 'running',
      listeners: [],
    };
    this.running++;
    const counted = () => slot.supersede.signal.aborted === false && slot.abort.signal.aborted === false;
    this.o.render(key, q, { signal: slot.abort.signal, superseded: slot.supersede.signal }).then(
      (value) => {
        if (slot.epoch !== this.epoch) return this.forget(slot); // cleared meanwhile
        const wasCounted = counted();
        slot.value = value;
        slot.state = 'held';
        this.held.add(slot);
        if (wasCounted) this.running--;
        this.schedule();
      },
      (error) => {
        if (slot.epoch !== this.epoch) return this.forget(slot);
        const wasCounted = counted();
        slot.error = error;
        slot.state = (error as Error)?.name === 'AbortError' ? 'dropped' : 'failed';
        if (wasCounted) this.running--;
        this.notify(slot);
        this.schedule();
      },
    );
    return slot;
  }

  /** Newer params want this tile: drop the render if it has not started. */
  private supersede(slot: Slot<T>): void {
    if (!slot.supersede.signal.aborted && !slot.abort.signal.aborted) this.running--;
    slot.supersede.abort();
    this.schedule();
  }

  /** Hand the held tiles over now if nothing current is still rendering, else at most `maxHoldMs` from now. */
  private schedule(): void {
    if (this.held.size === 0) return;
    if (this.running <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.o.maxHoldMs ?? 100);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const slots = [...this.held];
    this.held.clear();
    for (const slot of slots) {
      const t = this.tiles.get(slot.key);
      slot.state = 'done';
      if (t && (!t.shown || slot.seq > t.shown.seq)) t.shown = { seq: slot.seq, value: slot.value as T };
    }
    for (const slot of slots) this.notify(slot);
    this.o.onFlush?.(slots.map((s) => s.key));
  }

  private forget(slot: Slot<T>): void {
    slot.state = 'dropped';
    this.notify(slot);
  }

  private notify(slot: Slot<T>): void {
    const ls = slot.listeners.splice(0);
    for (const l of ls) l();
  }

  /** Settle when `slot` is handed over (with the tile's newest image) or fails; a dropped slot follows the tile's newest. */
  private wait(t: TileState<T>, slot: Slot<T>, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let current = slot;
      let onAbort: (() => void) | undefined;
      const finish = (f: () => void) => {
        if (onAbort) signal!.removeEventListener('abort', onAbort);
        current.waiters--;
        f();
      };
      const check = () => {
        if (current.state === 'done') return finish(() => resolve(t.shown?.value ?? (current.value as T)));
        // A superseded render that failed or was dropped: wait for the tile's newest instead.
        const superseded = current.state === 'dropped' || (current.state === 'failed' && current.supersede.signal.aborted);
        if (current.state === 'failed' && !superseded) return finish(() => reject(current.error));
        if (superseded) {
          const next = t.latest;
          if (next && next !== current && this.tiles.get(current.key) === t) {
            current.waiters--;
            current = next;
            current.waiters++;
            return check();
          }
          return finish(() => reject(current.error ?? abortError()));
        }
        current.listeners.push(check);
      };
      current.waiters++;
      if (signal) {
        onAbort = () => {
          const i = current.listeners.indexOf(check);
          if (i >= 0) current.listeners.splice(i, 1);
          current.waiters--;
          // Nobody wants this render any more: stop it (the map dropped the tile).
          if (current.waiters === 0 && current.state === 'running' && t.latest === current) {
            this.supersede(current);
            current.abort.abort();
            t.latest = undefined;
          }
          reject(abortError());
        };
        signal.addEventListener('abort', onAbort, { once: true });
      }
      check();
    });
  }
}
