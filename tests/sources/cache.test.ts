// The tile cache: LRU bounded by bytes, one load for concurrent requests, abort only when every
// waiter aborted, failures not kept.
import { TileCache } from '../../src/sources/cache.js';

const deferred = <T>() => {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};

describe('TileCache', () => {
  test('concurrent requests for one key load it once and share the value', async () => {
    const cache = new TileCache();
    let loads = 0;
    const d = deferred<{ value: string; bytes: number }>();
    const load = async () => {
      loads++;
      return d.promise;
    };
    const all = Promise.all([cache.get('a', load), cache.get('a', load), cache.get('a', load)]);
    await Promise.resolve();
    d.resolve({ value: 'tile', bytes: 10 });
    expect(await all).toEqual(['tile', 'tile', 'tile']);
    expect(loads).toBe(1);
    expect(await cache.get('a', load)).toBe('tile');
    expect(loads).toBe(1);
    expect(cache.stats).toMatchObject({ loads: 1, joins: 2, hits: 1, bytes: 10, entries: 1 });
  });

  test('least recently used entries are evicted to stay within maxBytes', async () => {
    const cache = new TileCache({ maxBytes: 100 });
    const put = (k: string, bytes: number) => cache.get(k, async () => ({ value: k, bytes }));
    await put('a', 40);
    await put('b', 40);
    await put('a', 40); // a is now the most recent
    await put('c', 40); // over budget: b goes
    expect(cache.stats.bytes).toBe(80);
    let reloaded = 0;
    await cache.get('b', async () => (reloaded++, { value: 'b', bytes: 40 }));
    expect(reloaded).toBe(1); // b was gone; loading it again evicts a (older than c)
    await cache.get('c', async () => (reloaded++, { value: 'c', bytes: 40 }));
    expect(reloaded).toBe(1);
    expect(cache.stats.evictions).toBe(2);
    // An entry bigger than the budget is returned, not kept.
    expect(await put('huge', 1000)).toBe('huge');
    expect(cache.stats.bytes).toBeLessThanOrEqual(100);
  });

  test('a failed load rejects every waiter and is not cached', async () => {
    const cache = new TileCache();
    let n = 0;
    const failing = async () => {
      n++;
      throw new Error('boom');
    };
    await expect(Promise.all([cache.get('x', failing), cache.get('x', failing)])).rejects.toThrow('boom');
    await expect(cache.get('x', failing)).rejects.toThrow('boom');
    expect(n).toBe(2);
    expect(await cache.get('x', async () => ({ value: 7, bytes: 1 }))).toBe(7);
  });

  test('a shared load is aborted only when every waiter has aborted', async () => {
    const cache = new TileCache();
    let signal!: AbortSignal;
    const d = deferred<{ value: number; bytes: number }>();
    const load = async (s: AbortSignal) => {
      signal = s;
      return d.promise;
    };
    const a = new AbortController();
    const b = new AbortController();
    const pa = cache.get('k', load, a.signal);
    const pb = cache.get('k', load, b.signal);
    await Promise.resolve();
    a.abort();
    await expect(pa).rejects.toBeDefined();
    expect(signal.aborted).toBe(false);
    b.abort();
    await expect(pb).rejects.toBeDefined();
    expect(signal.aborted).toBe(true);
    // The aborted load is forgotten: the next request starts a new one.
    let fresh = 0;
    expect(await cache.get('k', async () => (fresh++, { value: 2, bytes: 1 }))).toBe(2);
    expect(fresh).toBe(1);
    d.resolve({ value: 1, bytes: 1 }); // the orphan settles without effect
  });
});
