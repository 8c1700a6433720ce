// The preview's tile feed (feed.ts): held hand-overs, superseded renders, newest-wins answers.
import { TileFeed, type FeedRenderOptions } from './feed.js';

interface Call {
  key: string;
  q: string;
  o: FeedRenderOptions;
  resolve(v: string): void;
  reject(e: unknown): void;
}

function setup(maxHoldMs = 1000) {
  const calls: Call[] = [];
  const flushes: string[][] = [];
  const feed = new TileFeed<string>({
    render: (key, q, o) => new Promise<string>((resolve, reject) => calls.push({ key, q, o, resolve, reject })),
    maxHoldMs,
    onFlush: (keys) => flushes.push(keys),
  });
  const call = (key: string, q: string) => calls.find((c) => c.key === key && c.q === q)!;
  return { feed, calls, flushes, call };
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const aborted = () => new DOMException('aborted', 'AbortError');

/** Settled state of a promise without waiting for it. */
function track<T>(p: Promise<T>) {
  const s: { value?: T; error?: unknown; done: boolean } = { done: false };
  p.then(
    (v) => Object.assign(s, { value: v, done: true }),
    (e) => Object.assign(s, { error: e, done: true }),
  );
  return s;
}

test('finished tiles are held until the last current render finishes, then handed over together', async () => {
  const { feed, call, flushes } = setup();
  const a = track(feed.get('1/0/0', 'w=1'));
  const b = track(feed.get('1/1/0', 'w=1'));
  call('1/0/0', 'w=1').resolve('A1');
  await tick();
  expect(a.done).toBe(false);
  expect(feed.pending).toBe(1);
  call('1/1/0', 'w=1').resolve('B1');
  await tick();
  expect([a.value, b.value]).toEqual(['A1', 'B1']);
  expect(flushes).toEqual([['1/0/0', '1/1/0']]);
});

test('a finished tile waits at most maxHoldMs for the others', async () => {
  const { feed, call } = setup(20);
  const a = track(feed.get('1/0/0', 'w=1'));
  track(feed.get('1/1/0', 'w=1'));
  call('1/0/0', 'w=1').resolve('A1');
  await tick();
  expect(a.done).toBe(false); // held: the other tile is still rendering
  // Handed over by the hold's timer while the other tile never finishes. Polled rather than one
  // fixed sleep: a loaded machine (the whole suite on two cores) can run the timer late.
  const t0 = Date.now();
  while (!a.done && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 10));
  expect(a.value).toBe('A1');
});

test('the same tile and params share one render', async () => {
  const { feed, calls } = setup();
  const p1 = feed.get('1/0/0', 'w=1');
  const p2 = feed.get('1/0/0', 'w=1');
  expect(calls).toHaveLength(1);
  calls[0]!.resolve('A1');
  await expect(Promise.all([p1, p2])).resolves.toEqual(['A1', 'A1']);
});

test('newer params supersede a render; a dropped render answers its request with the newest image', async () => {
  const { feed, call } = setup();
  const old = track(feed.get('1/0/0', 'w=1'));
  const next = track(feed.get('1/0/0', 'w=2'));
  expect(call('1/0/0', 'w=1').o.superseded.aborted).toBe(true);
  expect(call('1/0/0', 'w=1').o.signal.aborted).toBe(false); // a running render may complete
  call('1/0/0', 'w=1').reject(aborted()); // it had not started: the pool dropped it
  await tick();
  expect(old.done).toBe(false); // waits for the newest instead of failing the map's tile
  call('1/0/0', 'w=2').resolve('A2');
  await tick();
  expect([old.value, next.value]).toEqual(['A2', 'A2']);
});

test('a slow superseded render never overwrites a newer image', async () => {
  const { feed, call } = setup();
  const old = track(feed.get('1/0/0', 'w=1'));
  const next = track(feed.get('1/0/0', 'w=2'));
  call('1/0/0', 'w=2').resolve('A2');
  await tick();
  expect(next.value).toBe('A2');
  call('1/0/0', 'w=1').resolve('A1'); // it was already running and completed late
  await tick();
  expect(old.value).toBe('A2');
  await expect(feed.get('1/0/0', 'w=2')).resolves.toBe('A2');
});

test('a superseded render that completes first is shown (after maxHoldMs) until the newest arrives', async () => {
  const { feed, call } = setup(20);
  const old = track(feed.get('1/0/0', 'w=1'));
  const next = track(feed.get('1/0/0', 'w=2'));
  call('1/0/0', 'w=1').resolve('A1');
  await tick();
  expect(old.done).toBe(false); // held: the current render of the tile is still running
  await new Promise((r) => setTimeout(r, 60));
  expect(old.value).toBe('A1');
  expect(next.done).toBe(false);
  call('1/0/0', 'w=2').resolve('A2');
  await tick();
  expect(next.value).toBe('A2');
});

test('a request the map aborts stops its render when no other request waits for it', async () => {
  const { feed, calls } = setup();
  const ac = new AbortController();
  const p = track(feed.get('1/0/0', 'w=1', ac.signal));
  ac.abort();
  await tick();
  expect((p.error as Error).name).toBe('AbortError');
  expect(calls[0]!.o.signal.aborted).toBe(true);
  // Asked again: a new render.
  track(feed.get('1/0/0', 'w=1'));
  expect(calls).toHaveLength(2);
});

test('a failed render rejects its requests with the error; clear() answers everything still waiting', async () => {
  const { feed, call } = setup();
  const a = track(feed.get('1/0/0', 'w=1'));
  const b = track(feed.get('1/1/0', 'w=1'));
  call('1/0/0', 'w=1').reject(new Error('source down'));
  await tick();
  expect((a.error as Error).message).toBe('source down');
  feed.clear();
  await tick();
  expect((b.error as Error).name).toBe('AbortError');
  expect(call('1/1/0', 'w=1').o.signal.aborted).toBe(true);
});
