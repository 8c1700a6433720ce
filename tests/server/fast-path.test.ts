// The tile fast path of `serve` (src/hosts/server/app.ts tileFastPath: tiles answered beside express)
// against express's own tile route on the same requests. Witness: express (its router, query
// parser, res.send and res.json) answering through the tile route: the same status, the same
// headers in the same order (all but Date), the same body, request by request, for tiles, 304s,
// HEAD, WebP, @2x, params, every error before and after the render, and what the fast path leaves
// to express.
import http, { type IncomingHttpHeaders, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CpuBackend, RenderError, SourceError, type ParamValues, type Window } from '../../src/index.js';
import { InProcessRenderer, type PngRenderer } from '../../src/hosts/node/render-pool.js';
import { loadStyleFile, type LoadedStyle } from '../../src/hosts/node/style-file.js';
import { createApp, galleryFastPath, tileFastPath } from '../../src/hosts/server/app.js';
import { galleryApp } from '../../src/hosts/server/gallery.js';
import { TileService, type TileServiceOptions } from '../../src/hosts/server/service.js';
import { writeFixtures, type Fixture } from './fixtures.js';

let fx: Fixture;
let style: LoadedStyle;

beforeAll(async () => {
  fx = writeFixtures();
  style = await loadStyleFile(fx.shapes);
});

interface Answer {
  status: number;
  headers: string[];
  body: Buffer;
}

async function listen(handler: RequestListener): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

function ask(port: number, method: string, path: string, headers: IncomingHttpHeaders = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: headers as http.OutgoingHttpHeaders, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          if (res.rawHeaders[i]!.toLowerCase() !== 'date') h.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve({ status: res.statusCode!, headers: h, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Two services alike (caches, metrics of their own), one behind express alone, one behind the fast path. */
async function pair(o: Partial<TileServiceOptions> = {}) {
  const make = () => new TileService({ style, renderer: new InProcessRenderer(new CpuBackend()), log: () => undefined, ...o });
  const a = make();
  const b = make();
  return compare([a, b], createApp(a), tileFastPath(b, createApp(b)));
}

/** The same requests to `reference` (express alone) and `handler` (the fast path in front). */
async function compare(services: TileService[], reference: RequestListener, handler: RequestListener) {
  const express = await listen(reference);
  const fast = await listen(handler);
  return {
    services,
    async same(method: string, path: string, headers: IncomingHttpHeaders = {}): Promise<Answer> {
      const want = await ask(express.port, method, path, headers);
      const got = await ask(fast.port, method, path, headers);
      // /health's uptime is rounded seconds of each service, asked a few ms apart: it may read one
      // apart across a half second (and its length with it); the rest must be the same bytes.
      const uptime = (a: Answer): Answer =>
        path !== '/health'
          ? a
          : {
              ...a,
              headers: a.headers.filter((h) => !h.startsWith('Content-Length: ')),
              body: Buffer.from(a.body.toString().replace(/"uptimeSeconds":\d+/, '"uptimeSeconds":0')),
            };
      const [w, g] = [uptime(want), uptime(got)];
      expect({ path, method, status: g.status, headers: g.headers }).toEqual({ path, method, status: w.status, headers: w.headers });
      expect(g.body.equals(w.body)).toBe(true);
      return want;
    },
    close: () => Promise.all([express.close(), fast.close()]),
  };
}

describe('the tile fast path answers as express does', () => {
  test('tiles, cache hits, 304s, HEAD, WebP, @2x, params, the version key, and what it leaves to express', async () => {
    const p = await pair();
    try {
      const first = await p.same('GET', '/tiles/1/0/0.png');
      expect(first.status).toBe(200);
      expect(first.headers).toContain('X-Tilegraph-Cache: miss');
      expect((await p.same('GET', '/tiles/1/0/0.png')).headers).toContain('X-Tilegraph-Cache: hit');
      const etag = first.headers.find((h) => h.startsWith('ETag: '))!.slice(6);
      expect((await p.same('GET', '/tiles/1/0/0.png', { 'if-none-match': etag })).status).toBe(304);
      await p.same('GET', '/tiles/1/0/0.png', { 'if-none-match': `W/${etag}, "other"` });
      await p.same('GET', '/tiles/1/0/0.png', { 'if-none-match': '*' });
      await p.same('GET', '/tiles/1/0/0.png', { 'if-none-match': '"other"', 'cache-control': 'no-cache' });
      await p.same('HEAD', '/tiles/1/1/0.png');
      await p.same('HEAD', '/tiles/1/1/0.png?fill=nope');
      await p.same('GET', '/tiles/1/1/1.webp');
      await p.same('GET', '/tiles/1/1/1@2x.png');
      await p.same('GET', '/tiles/2/1/1@2x.webp?alpha=0.5');
      await p.same('GET', '/tiles/1/0/1.png?fill=%2300ff00&unused=%23ffffff');
      const version = p.services[0]!.version;
      expect((await p.same('GET', `/tiles/1/0/1.png?v=${version}`)).headers).toContain('Cache-Control: public, max-age=31536000, immutable');
      await p.same('GET', `/tiles/1/0/1.png?%76=${version}`);
      await p.same('GET', `/tiles/1/0/1.png?v=${version}&v=${version}`);
      await p.same('GET', '/tiles/1/0/1.png?v=old');
      await p.same('GET', '/tiles/1/0/1.png?');
      // Errors before the render: bad and unknown params, a malformed address, outside the zoom
      // range or the world, a query past the limit, routes the fast path does not take.
      expect((await p.same('GET', '/tiles/1/0/0.png?fill=notacolour')).status).toBe(400);
      expect((await p.same('GET', '/tiles/1/0/0.png?nope=1')).status).toBe(400);
      expect((await p.same('GET', '/tiles/1/0/0.jpg')).status).toBe(400);
      expect((await p.same('GET', '/tiles/23/0/0.png')).status).toBe(404);
      expect((await p.same('GET', '/tiles/1/2/0.png')).status).toBe(404);
      expect((await p.same('GET', '/tiles/1/0/2.png')).status).toBe(404);
      expect((await p.same('GET', `/tiles/1/0/0.png?fill=${'a'.repeat(9000)}`)).status).toBe(414);
      await p.same('GET', '/tiles/-1/0/0.png');
      await p.same('GET', '/tiles/01/0/1.png');
      await p.same('GET', '/TILES/1/0/0.png');
      await p.same('GET', '/tiles/1/0/0.png/');
      await p.same('GET', '/tiles/1/0/%30.png');
      await p.same('GET', '/tiles/1/0/0.png?fill=%23ff0000#frag');
      await p.same('OPTIONS', '/tiles/1/0/0.png', { 'access-control-request-headers': 'If-None-Match' });
      await p.same('POST', '/tiles/1/0/0.png');
      await p.same('GET', '/health');
      // The request metrics count tiles under the route's name on both.
      const m = (s: TileService) =>
        s.metrics
          .text({ rss: 0, threads: [] })
          .split('\n')
          .filter((l) => l.includes('/tiles/:z/:x/:file'))
          .join('\n');
      expect(m(p.services[1]!)).toBe(m(p.services[0]!));
      expect(m(p.services[1]!)).toContain('/tiles/:z/:x/:file');
    } finally {
      await p.close();
    }
  });

  test('a tile is answered without express; the rest reaches it', async () => {
    const service = new TileService({ style, renderer: new InProcessRenderer(new CpuBackend()), log: () => undefined });
    const reached: string[] = [];
    const app = ((req: http.IncomingMessage, res: http.ServerResponse) => {
      reached.push(`${req.method} ${req.url}`);
      res.end();
    }) as unknown as Parameters<typeof tileFastPath>[1];
    const s = await listen(tileFastPath(service, app));
    try {
      const a = await ask(s.port, 'GET', '/tiles/1/0/0.png?alpha=0.5');
      expect(a.status).toBe(200);
      expect(a.body.subarray(1, 4).toString()).toBe('PNG');
      await ask(s.port, 'HEAD', '/tiles/1/0/0@2x.webp');
      expect(reached).toEqual([]);
      for (const path of ['/tiles/1/0/0.png?alpha=2', '/tiles/1/2/0.png', '/tiles/1/0/0.png/', '/style']) await ask(s.port, 'GET', path);
      expect(reached).toEqual(['GET /tiles/1/0/0.png?alpha=2', 'GET /tiles/1/2/0.png', 'GET /tiles/1/0/0.png/', 'GET /style']);
    } finally {
      await s.close();
    }
    reached.length = 0;
    const g = await listen(galleryFastPath(new Map([['shapes', service]]), app));
    try {
      expect((await ask(g.port, 'GET', '/styles/shapes/tiles/1/0/0.png')).status).toBe(200);
      expect(reached).toEqual([]);
      await ask(g.port, 'GET', '/styles/other/tiles/1/0/0.png');
      await ask(g.port, 'GET', '/tiles/1/0/0.png');
      expect(reached).toEqual(['GET /styles/other/tiles/1/0/0.png', 'GET /tiles/1/0/0.png']);
    } finally {
      await g.close();
    }
  });

  test('a gallery: /styles/{id}/tiles of each style, and what it leaves to the gallery app', async () => {
    const missing = await loadStyleFile(fx.missingSource);
    const gallery = () =>
      new Map([
        ['shapes', new TileService({ style, renderer: new InProcessRenderer(new CpuBackend()), log: () => undefined })],
        ['missing', new TileService({ style: missing, renderer: new InProcessRenderer(new CpuBackend()), log: () => undefined })],
      ]);
    const a = gallery();
    const b = gallery();
    const p = await compare(
      [a.get('shapes')!, b.get('shapes')!],
      galleryApp(a, { shortMaxAge: 30 }),
      galleryFastPath(b, galleryApp(b, { shortMaxAge: 30 }), 30),
    );
    try {
      const first = await p.same('GET', '/styles/shapes/tiles/1/0/0.png');
      expect(first.status).toBe(200);
      expect(first.headers).toContain('Cache-Control: public, max-age=30');
      await p.same('GET', '/styles/shapes/tiles/1/0/0.png');
      await p.same('GET', '/styles/shapes/tiles/1/0/0.png', { 'if-none-match': first.headers.find((h) => h.startsWith('ETag: '))!.slice(6) });
      await p.same('HEAD', '/styles/shapes/tiles/2/1/1@2x.webp?fill=%2300ff00');
      await p.same('GET', `/styles/shapes/tiles/1/1/1.png?v=${a.get('shapes')!.version}`);
      expect((await p.same('GET', '/styles/missing/tiles/1/0/0.png')).status).toBe(502);
      expect((await p.same('GET', '/styles/shapes/tiles/1/0/0.png?fill=bad')).status).toBe(400);
      expect((await p.same('GET', '/styles/shapes/tiles/1/2/0.png')).status).toBe(404);
      expect((await p.same('GET', '/styles/nope/tiles/1/0/0.png')).status).toBe(404);
      await p.same('GET', '/styles/SHAPES/tiles/1/0/0.png');
      await p.same('GET', '/styles/shapes');
      await p.same('GET', '/styles/tiles/1/0/0.png');
      await p.same('GET', '/styles//tiles/1/0/0.png');
      await p.same('GET', '/health');
      await p.same('GET', '/styles/shapes/health');
    } finally {
      await p.close();
    }
  });

  test('errors after the render starts: a failing source, a failing render, a full queue', async () => {
    const failing = (e: () => Error): PngRenderer => ({
      capacity: 1,
      async render(_s: LoadedStyle, _w: Window, _p: ParamValues): Promise<Uint8Array> {
        throw e();
      },
      async close() {},
    });
    for (const [renderer, status] of [
      [failing(() => new SourceError('shapes', 'tiles/1/0/0', 'cannot read it')), 502],
      [failing(() => new RenderError('out of memory, say')), 500],
      [failing(() => new Error('a bug')), 500],
    ] as const) {
      const p = await pair({ renderer });
      try {
        expect((await p.same('GET', '/tiles/1/0/0.png')).status).toBe(status);
        await p.same('HEAD', '/tiles/1/0/0.webp');
      } finally {
        await p.close();
      }
    }
    // A full queue: one render held, none may wait.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const slow: PngRenderer = {
      capacity: 1,
      async render(): Promise<Uint8Array> {
        await held;
        throw new Error('released');
      },
      async close() {},
    };
    const p = await pair({ renderer: slow, maxQueue: 0, concurrency: 1 });
    try {
      // Hold each service's one slot with a render of another tile.
      const pending = p.services.map((s) => s.tile({ z: 1, x: 1, y: 1 }, 1, s.style.renderer.params({})).catch(() => undefined));
      expect((await p.same('GET', '/tiles/1/0/0.png')).status).toBe(503);
      release();
      await Promise.all(pending);
    } finally {
      await p.close();
    }
  });
});
