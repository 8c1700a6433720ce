// Issue 23 part 3: what a hostile client finds, bounded. Each probe of the audit (bench/hostile.mjs
// runs them at full size) as a small test: slow clients are cut off by our own header and request
// timeouts, connections are capped.
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { RenderError, type ParamValues, type Window } from '../../src/index.js';
import type { PngRenderer } from '../../src/hosts/node/render-pool.js';
import { loadStyleFile, type LoadedStyle } from '../../src/hosts/node/style-file.js';
import { serve, HTTP_DEFAULTS } from '../../src/hosts/server/serve.js';
import { requireBuild, shapesStyle, writeFixtures, type Fixture } from './fixtures.js';

let fx: Fixture;
beforeAll(() => {
  requireBuild();
  fx = writeFixtures();
});

/** A client that sends `text` one byte every `everyMs`; resolves with what it got and when the server closed it. */
function slowClient(port: number, text: string, everyMs: number): Promise<{ ms: number; got: string }> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const c = net.connect(port, '127.0.0.1');
    let got = '';
    let i = 0;
    const iv = setInterval(() => {
      if (i < text.length && !c.destroyed) c.write(text[i++]!);
    }, everyMs);
    c.on('data', (d) => (got += d.toString('latin1')));
    c.on('error', () => undefined);
    c.on('close', () => {
      clearInterval(iv);
      resolve({ ms: Date.now() - t0, got });
    });
  });
}

describe('slow clients and connection count', () => {
  test('the defaults are ours, not Node’s (headers 10 s, request 20 s, keep-alive 5 s, 1,024 connections)', async () => {
    const s = await serve({ style: fx.shapes, port: 0, workers: 0, backend: 'cpu', log: () => undefined });
    try {
      expect(HTTP_DEFAULTS).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 20_000, keepAliveTimeoutMs: 5_000, maxConnections: 1024 });
      expect(s.server.headersTimeout).toBe(10_000);
      expect(s.server.requestTimeout).toBe(20_000);
      expect(s.server.keepAliveTimeout).toBe(5_000);
    } finally {
      await s.close();
    }
  });

  // The audit: 200 sockets sending one byte a second were held ~90 s (Node's 60 s headersTimeout,
  // checked every 30 s). Witness: RFC 9110 §15.5.9, 408 Request Timeout.
  test('a client trickling its headers gets 408 once headersTimeout has passed', async () => {
    const s = await serve({ style: fx.shapes, port: 0, workers: 0, backend: 'cpu', headersTimeoutMs: 600, requestTimeoutMs: 1000, log: () => undefined });
    try {
      const port = Number(new URL(s.url).port);
      const clients = await Promise.all(
        Array.from({ length: 20 }, () => slowClient(port, 'GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(100), 100)),
      );
      for (const c of clients) {
        expect(c.got).toMatch(/^HTTP\/1\.1 408 /);
        expect(c.ms).toBeGreaterThanOrEqual(500);
        expect(c.ms).toBeLessThan(3000);
      }
    } finally {
      await s.close();
    }
  });

  test('a connection past maxConnections gets a JSON 503 with Retry-After and is closed; those within it are served', async () => {
    const s = await serve({
      style: fx.shapes,
      port: 0,
      workers: 0,
      backend: 'cpu',
      maxConnections: 3,
      headersTimeoutMs: 2000,
      requestTimeoutMs: 2000,
      log: () => undefined,
    });
    try {
      const port = Number(new URL(s.url).port);
      const held = await Promise.all(
        Array.from(
          { length: 3 },
          () =>
            new Promise<net.Socket>((resolve) => {
              const c = net.connect(port, '127.0.0.1', () => resolve(c));
              c.on('error', () => undefined);
            }),
        ),
      );
      await new Promise((r) => setTimeout(r, 100));
      const extra = await slowClient(port, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n', 1);
      expect(extra.got).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
      expect(extra.got).toMatch(/\r\nRetry-After: 1\r\n/);
      expect(JSON.parse(extra.got.split('\r\n\r\n')[1]!)).toMatchObject({ error: 'too many connections' });
      expect(extra.ms).toBeLessThan(1000);
      // fetch() reads the same answer (a socket closed without one, it retries until its own timeout).
      const r = await fetch(`${s.url}health`, { signal: AbortSignal.timeout(2000) });
      expect(r.status).toBe(503);
      for (const c of held) c.destroy();
      await new Promise((r) => setTimeout(r, 100));
      expect((await fetch(`${s.url}health`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('the size of an error answer is bounded by ours, not the request', () => {
  // The audit: 1,500 unknown params got a 400 of 125 KB (11x the request), each detail listing the
  // declared params again.
  test('600 unknown params: a 400 listing the first 20 and how many more, smaller than the request', async () => {
    const s = await serve({ style: fx.shapes, port: 0, workers: 0, backend: 'cpu', log: () => undefined });
    try {
      const query = Array.from({ length: 600 }, (_, i) => `p${i}=1`).join('&');
      expect(query.length).toBeLessThan(8192);
      const r = await fetch(`${s.url}tiles/0/0/0.png?${query}`);
      const text = await r.text();
      expect(r.status).toBe(400);
      expect(text.length).toBeLessThan(query.length);
      const body = JSON.parse(text) as { error: string; details: { param?: string; field?: string; message: string }[] };
      expect(body.error).toBe('invalid params');
      expect(body.details).toHaveLength(21);
      expect(body.details.slice(0, 20).map((d) => d.param)).toEqual(Array.from({ length: 20 }, (_, i) => `p${i}`));
      expect(body.details[20]).toEqual({ field: 'details', message: 'and 580 more problems, not listed' });
    } finally {
      await s.close();
    }
  });

  test('a query string over 8 KiB is a 414 with a short JSON body; the 1,500 params of the audit too', async () => {
    const s = await serve({ style: fx.shapes, port: 0, workers: 0, backend: 'cpu', log: () => undefined });
    try {
      const audit = Array.from({ length: 1500 }, (_, i) => `p${i}=1`).join('&');
      for (const q of [audit, `fill=%23ff0000&x=${'a'.repeat(8200)}`]) {
        const r = await fetch(`${s.url}tiles/0/0/0.png?${q}`);
        const text = await r.text();
        expect(r.status).toBe(414);
        expect(text.length).toBeLessThan(400);
        expect(JSON.parse(text)).toMatchObject({ error: 'query string too long', details: [{ field: 'query' }] });
        expect(r.headers.get('cache-control')).toBe('no-store');
      }
      // 8 KiB exactly still parses (a long but honest query).
      const pad = `fill=%23ff0000&alpha=${'0'.repeat(8192 - 'fill=%23ff0000&alpha='.length - 2)}.5`;
      expect(pad.length).toBe(8192);
      expect((await fetch(`${s.url}tiles/0/0/0.png?${pad}`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('shutdown (SIGTERM) with renders still queued at the grace limit', () => {
  // The audit: requests still queued when the grace period ran out were logged as
  // "500: the render pool is closed" and their sockets destroyed. Now they are answered 503 with
  // Retry-After (RFC 9110 §15.6.4, §10.2.3): the client may retry on another instance.
  test('running and queued renders answer 503 server shutting down with Retry-After; nothing is logged as 500', async () => {
    const style = await loadStyleFile(fx.shapes);
    const pending = new Set<(e: unknown) => void>();
    // Like the worker pool: a render runs until aborted; close() fails what is left.
    const renderer: PngRenderer = {
      capacity: 1,
      render(_s: LoadedStyle, _w: Window, _p: ParamValues, signal?: AbortSignal) {
        return new Promise<Uint8Array>((_resolve, reject) => {
          pending.add(reject);
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      },
      async close() {
        for (const r of pending) r(new RenderError('the render pool is closed'));
      },
    };
    void style;
    const log: string[] = [];
    const s = await serve({ style: fx.shapes, port: 0, renderer, log: (l) => log.push(l) });
    const answers = [0, 1, 2].map((x) =>
      fetch(`${s.url}tiles/1/${x % 2}/${x >> 1}.png`).then(async (r) => ({ status: r.status, retry: r.headers.get('retry-after'), body: await r.json() })),
    );
    const until = Date.now() + 5000;
    while ((s.service.queue.running < 1 || s.service.queue.waiting < 2) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect([s.service.queue.running, s.service.queue.waiting]).toEqual([1, 2]);
    const t0 = Date.now();
    await s.close(300);
    expect(Date.now() - t0).toBeLessThan(3000);
    for (const a of await Promise.all(answers)) {
      expect(a.status).toBe(503);
      expect(a.retry).toBe('1');
      expect(a.body).toMatchObject({ error: 'server shutting down', details: [{ field: 'shutdown' }] });
    }
    expect(log).toEqual(['tilegraph: stopping: 3 renders not done after the 0.3 s grace period answered 503']);
  });
});

describe('a source that never answers', () => {
  // Issue 23: the render's timeout and the network read's were both 30 s, so the render's fired
  // first (503 render timed out, CLI "took longer than --timeout") and the cause was lost. The
  // network read's is half the render's by default (at most 10 s): the answer names the source.
  test('the tile is a 502 naming the source and the timeout, before the render timeout', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((c) => sockets.push(c)); // accepts, never answers
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/x.geojson`;
    const file = path.join(fx.dir, 'silent-source.json');
    writeFileSync(file, JSON.stringify(shapesStyle({ data: url })));
    const s = await serve({ style: file, port: 0, workers: 0, backend: 'cpu', timeoutMs: 2000, log: () => undefined });
    try {
      const t0 = Date.now();
      const r = await fetch(`${s.url}tiles/0/0/0.png`);
      const body = (await r.json()) as { error: string; details: { message: string }[] };
      expect(r.status).toBe(502);
      expect(Date.now() - t0).toBeLessThan(1900);
      expect(body.error).toBe("source 'shapes' failed");
      expect(body.details[0]!.message).toContain(`cannot fetch ${url}: timed out after 1 s`);
    } finally {
      await s.close();
      for (const c of sockets) c.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });
});
