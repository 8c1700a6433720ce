// The GPU bench's HTTP load generator (bench/gpu/load.mjs) gives every request its own abort
// signal. With one signal shared by all its fetches, undici kept an abort listener per request on
// that signal until the request was garbage-collected: the H100 run's stderr held thousands of
// "MaxListenersExceededWarning: Possible EventTarget memory leak detected. 2600 abort listeners
// added to [AbortSignal]" (when it shows depends on the collector's timing). Witness: Node's own
// count of a signal's listeners (events.getEventListeners) after undici's fetch has used it.
import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ROOT } from './fixtures.js';

interface LoadResult {
  requests: number;
  failed: number;
  unfinished: number;
}

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((_req, res) => res.end('tile'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

test('2,000 requests from 16 clients: each has a signal of its own, and none keeps a pile of abort listeners', async () => {
  const { load } = (await import(path.join(ROOT, 'bench/gpu/load.mjs'))) as {
    load: (urls: string[], seconds: number, concurrency: number, o: { maxRequests: number }) => Promise<LoadResult>;
  };
  const signals = new Set<AbortSignal>();
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    if (init?.signal) signals.add(init.signal);
    return realFetch(input, init);
  };
  const warnings: string[] = [];
  const onWarning = (w: Error) => {
    if (w.name === 'MaxListenersExceededWarning') warnings.push(w.message);
  };
  process.on('warning', onWarning);
  try {
    const r = await load([url], 120, 16, { maxRequests: 2000 });
    expect(r).toMatchObject({ requests: 2000, failed: 0, unfinished: 0 });
    await new Promise((r) => setImmediate(r));
  } finally {
    globalThis.fetch = realFetch;
    process.off('warning', onWarning);
  }
  expect(signals.size).toBe(2000);
  const most = Math.max(...[...signals].map((s) => getEventListeners(s, 'abort').length));
  expect(most).toBeLessThanOrEqual(2);
  expect(warnings).toEqual([]);
}, 150_000);
