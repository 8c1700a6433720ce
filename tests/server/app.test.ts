// Every endpoint, status code and header of the tile server, through supertest on the express app.
import request from 'supertest';
import { CpuBackend, RenderError, SourceError, type ParamValues, type Raster, type Window } from '../../src/index.js';
import { decodePngRGBA, encodePng } from '../../src/hosts/node/png.js';
import { InProcessRenderer, type PngRenderer } from '../../src/hosts/node/render-pool.js';
import { loadStyleFile, type LoadedStyle } from '../../src/hosts/node/style-file.js';
import { createApp } from '../../src/hosts/server/app.js';
import { TileService, type TileServiceOptions } from '../../src/hosts/server/service.js';
import { differenceFromRaster } from '../helpers/decode.js';
import { writeFixtures, type Fixture } from './fixtures.js';

let fx: Fixture;
let style: LoadedStyle;

beforeAll(async () => {
  fx = writeFixtures();
  style = await loadStyleFile(fx.shapes);
});

function makeApp(o: Partial<TileServiceOptions> = {}, s: LoadedStyle = style) {
  const service = new TileService({ style: s, renderer: new InProcessRenderer(new CpuBackend()), log: () => undefined, ...o });
  return { service, app: createApp(service) };
}

/** What a lone render of the tile gives, through the library API (not the server): the raster. */
async function loneRaster(z: number, x: number, y: number, overrides: Record<string, string> = {}, size = 256): Promise<Raster> {
  const r = style.renderer;
  return r.renderTile({ z, x, y }, r.params(overrides), { tileSize: size, backend: new CpuBackend() });
}

/** A valid PNG of the tile, for fake renderers and cache sizes (never compared with served bytes). */
async function loneTile(z: number, x: number, y: number): Promise<Buffer> {
  return encodePng(await loneRaster(z, x, y));
}

/** 8-bit colour within 1 (float sRGB round trip). */
function expectColour(got: number[], want: number[]): void {
  got.forEach((v, i) => expect(Math.abs(v - want[i]!)).toBeLessThanOrEqual(1));
}

async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data, width } = await decodePngRGBA(png);
  const i = (y * width + x) * 4;
  return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
}

describe('GET /tiles/{z}/{x}/{y}.png', () => {
  test('200 with the PNG a lone render gives, then served from the cache', async () => {
    const { app } = makeApp();
    const a = await request(app).get('/tiles/1/0/0.png');
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('image/png');
    expect(a.headers['x-tilegraph-cache']).toBe('miss');
    expect(a.headers['etag']).toMatch(/^"[\w-]+"$/);
    expect(a.headers['cache-control']).toBe('public, max-age=60');
    expect(a.headers['access-control-allow-origin']).toBe('*');
    // Decoded by libvips: exactly the pixels of a lone render.
    expect(await differenceFromRaster(a.body, await loneRaster(1, 0, 0))).toBeUndefined();
    // Near the bottom of the north-west quarter is inside the triangle (fill #ff8800), top-left is empty.
    expectColour(await pixel(a.body, 200, 250), [255, 136, 0, 255]);
    expect((await pixel(a.body, 5, 5))[3]).toBe(0);
    const b = await request(app).get('/tiles/1/0/0.png');
    expect(b.headers['x-tilegraph-cache']).toBe('hit');
    expect(b.headers['etag']).toBe(a.headers['etag']);
    // One encode served twice: the cache's bytes.
    expect(Buffer.compare(a.body, b.body)).toBe(0);
  });

  test('@2x renders 512 px of the same area', async () => {
    const { app } = makeApp();
    const r = await request(app).get('/tiles/1/0/0@2x.png');
    expect(r.status).toBe(200);
    const img = await decodePngRGBA(r.body);
    expect([img.width, img.height]).toEqual([512, 512]);
    expect(await differenceFromRaster(r.body, await loneRaster(1, 0, 0, {}, 512))).toBeUndefined();
    const one = await request(app).get('/tiles/1/0/0.png');
    expect(r.headers['etag']).not.toBe(one.headers['etag']);
  });

  test('HEAD answers the headers without a body', async () => {
    const { app } = makeApp();
    const r = await request(app).head('/tiles/0/0/0.png');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('image/png');
    expect(r.headers['etag']).toBeDefined();
  });

  test('Cache-Control is immutable only when v is the current version', async () => {
    const { app, service } = makeApp();
    const cur = await request(app).get(`/tiles/0/0/0.png?v=${service.version}`);
    expect(cur.status).toBe(200);
    expect(cur.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const old = await request(app).get('/tiles/0/0/0.png?v=0123456789a');
    expect(old.status).toBe(200);
    expect(old.headers['cache-control']).toBe('public, max-age=60');
    // v is not a param: the bytes and ETag are the same with or without it.
    expect(old.headers['etag']).toBe(cur.headers['etag']);
  });

  test('304 on a matching If-None-Match (also in a list or weak), 200 otherwise', async () => {
    const { app } = makeApp();
    const a = await request(app).get('/tiles/1/1/1.png');
    const etag = a.headers['etag']!;
    const b = await request(app).get('/tiles/1/1/1.png').set('If-None-Match', etag);
    expect(b.status).toBe(304);
    expect(b.headers['etag']).toBe(etag);
    expect(b.headers['cache-control']).toBe('public, max-age=60');
    expect(b.body).toEqual({});
    expect((await request(app).get('/tiles/1/1/1.png').set('If-None-Match', `"x", W/${etag}`)).status).toBe(304);
    expect((await request(app).get('/tiles/1/1/1.png').set('If-None-Match', '"other"')).status).toBe(200);
    // The ETag is known before rendering: a 304 needs no render of a tile never rendered.
    const { app: fresh, service } = makeApp();
    expect((await request(fresh).get('/tiles/1/1/1.png').set('If-None-Match', etag)).status).toBe(304);
    expect(service.metrics.cacheMisses + service.metrics.cacheHits).toBe(0);
  });

  test('query params override the declared params; the ETag keys on the values the output reads', async () => {
    const { app } = makeApp();
    const base = await request(app).get('/tiles/1/0/0.png');
    const green = await request(app).get('/tiles/1/0/0.png?fill=%2300ff00');
    expect(green.status).toBe(200);
    expectColour(await pixel(green.body, 200, 250), [0, 255, 0, 255]);
    expect(green.headers['etag']).not.toBe(base.headers['etag']);
    expect(await differenceFromRaster(green.body, await loneRaster(1, 0, 0, { fill: '#00ff00' }))).toBeUndefined();
    const half = await request(app).get('/tiles/1/0/0.png?alpha=0.5');
    expect((await pixel(half.body, 200, 250))[3]).toBe(128);
    // Where the square overlaps the triangle, two half-covering fills give 1 - 0.5 * 0.5.
    expect(Math.abs((await pixel(half.body, 250, 250))[3]! - 0.75 * 255)).toBeLessThanOrEqual(1);
    // `unused` is declared but read by nothing the output depends on: same entry, same ETag.
    const unused = await request(app).get('/tiles/1/0/0.png?unused=%23ffffff');
    expect(unused.status).toBe(200);
    expect(unused.headers['etag']).toBe(base.headers['etag']);
    expect(unused.headers['x-tilegraph-cache']).toBe('hit');
    // The same colour written differently is the same value.
    const a = await request(app).get('/tiles/1/0/0.png?fill=%23FF8800');
    expect(a.headers['etag']).toBe(base.headers['etag']);
    // A CSS colour name is its hex (CSS Color 4: darkorange is #ff8c00): one value, one ETag.
    const named = await request(app).get('/tiles/1/0/0.png?fill=darkorange');
    const hex = await request(app).get('/tiles/1/0/0.png?fill=%23ff8c00');
    expect([named.status, named.headers['etag']]).toEqual([200, hex.headers['etag']]);
  });

  test('400 with {error, details:[{param, message}]} for bad params', async () => {
    const { app } = makeApp();
    const colour = await request(app).get('/tiles/0/0/0.png?fill=sand');
    expect(colour.status).toBe(400);
    expect(colour.headers['content-type']).toMatch(/^application\/json/);
    expect(colour.headers['cache-control']).toBe('no-store');
    expect(colour.headers['etag']).toBeUndefined();
    expect(colour.body.error).toBe('invalid params');
    expect(colour.body.details).toEqual([{ param: 'fill', message: expect.stringContaining("'sand' is not a colour") }]);
    const several = await request(app).get('/tiles/0/0/0.png?alpha=2&nope=1');
    expect(several.status).toBe(400);
    expect(several.body.details.map((d: { param: string }) => d.param).sort()).toEqual(['alpha', 'nope']);
    expect(several.body.details.find((d: { param: string }) => d.param === 'alpha').message).toMatch(/above its max 1/);
    expect(several.body.details.find((d: { param: string }) => d.param === 'nope').message).toMatch(/unknown param 'nope'/);
  });

  test('400 with {error, details:[{field, message}]} for a malformed address', async () => {
    const { app } = makeApp();
    const r = await request(app).get('/tiles/a/0/0.png');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid tile address', details: [{ field: 'z', message: "'a' is not an integer" }] });
    const y = await request(app).get('/tiles/1/0/1.5.png');
    expect(y.status).toBe(400);
    expect(y.body.details).toEqual([{ field: 'y', message: "'1.5' is not an integer" }]);
    const fmt = await request(app).get('/tiles/1/0/0.jpg');
    expect(fmt.status).toBe(400);
    expect(fmt.body.details[0].field).toBe('format');
  });

  test('404 outside the zoom range or the world', async () => {
    const { app } = makeApp({ minZoom: 0, maxZoom: 5 });
    const deep = await request(app).get('/tiles/6/0/0.png');
    expect(deep.status).toBe(404);
    expect(deep.body).toEqual({ error: 'tile outside the zoom range', details: [{ field: 'z', message: 'zoom 6 is outside 0..5' }] });
    const east = await request(app).get('/tiles/1/2/0.png');
    expect(east.status).toBe(404);
    expect(east.body).toEqual({ error: 'tile outside the world', details: [{ field: 'x', message: 'x 2 is outside 0..1 at zoom 1' }] });
    const neg = await request(app).get('/tiles/1/0/-1.png');
    expect(neg.status).toBe(404);
    expect(neg.body.details[0].field).toBe('y');
  });

  test('a failing source answers a JSON 502 naming it', async () => {
    const missing = await loadStyleFile(fx.missingSource);
    const { app, service } = makeApp({}, missing);
    const r = await request(app).get('/tiles/0/0/0.png');
    expect(r.status).toBe(502);
    expect(r.body.error).toBe("source 'shapes' failed");
    expect(r.body.source).toBe('shapes');
    expect(r.body.details[0]).toEqual({ field: '/sources/shapes', message: expect.stringContaining('no-such-file.geojson') });
    expect(r.headers['cache-control']).toBe('no-store');
    expect(service.metrics.renderErrors).toBe(1);
  });
});

/** A renderer under test control: fails, hangs until aborted, or waits for a gate. */
class FakeRenderer implements PngRenderer {
  readonly capacity = 1;
  calls = 0;
  constructor(private readonly behave: (window: Window, signal?: AbortSignal) => Promise<Uint8Array>) {}
  render(_s: LoadedStyle, window: Window, _p: ParamValues, signal?: AbortSignal): Promise<Uint8Array> {
    this.calls++;
    return this.behave(window, signal);
  }
  async close(): Promise<void> {}
}

async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(ok()).toBe(true);
}

const hang = (_w: Window, signal?: AbortSignal) =>
  new Promise<Uint8Array>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));

describe('failures', () => {
  test('a render failure answers a JSON 500, never a blank 200', async () => {
    const renderer = new FakeRenderer(async () => {
      throw new RenderError([{ pointer: '/nodes/out', message: "node 'out' (fill-solid) failed: boom" }]);
    });
    const { app } = makeApp({ renderer });
    const r = await request(app).get('/tiles/0/0/0.png');
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error: 'render failed', details: [{ field: '/nodes/out', message: "node 'out' (fill-solid) failed: boom" }] });
  });

  test('a source error thrown in a worker keeps its source name', async () => {
    const renderer = new FakeRenderer(async () => {
      throw new SourceError('tiles', '3/1/2', 'HTTP 500 Internal Server Error for https://example.invalid/3/1/2.pbf');
    });
    const r = await request(makeApp({ renderer }).app).get('/tiles/3/1/2.png');
    expect(r.status).toBe(502);
    expect(r.body.source).toBe('tiles');
    expect(r.body.details[0].message).toMatch(/HTTP 500/);
  });

  test('503 with Retry-After when the render times out', async () => {
    const { app } = makeApp({ renderer: new FakeRenderer(hang), timeoutMs: 50 });
    const r = await request(app).get('/tiles/0/0/0.png');
    expect(r.status).toBe(503);
    expect(r.headers['retry-after']).toBe('5');
    expect(r.body).toEqual({ error: 'render timed out', details: [{ field: 'timeout', message: 'the render did not finish within 50 ms' }] });
  });

  test('503 when the render queue is full; identical requests share one render', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const png = await loneTile(0, 0, 0);
    const renderer = new FakeRenderer(async () => {
      await gate;
      return png;
    });
    const { app, service } = makeApp({ renderer, concurrency: 1, maxQueue: 1 });
    const agent = request(app);
    // One render runs, one waits; a third distinct tile finds the queue full.
    const first = agent.get('/tiles/1/0/0.png').then((r) => r);
    const same = agent.get('/tiles/1/0/0.png').then((r) => r);
    await until(() => service.queue.running === 1 && service.metrics.cacheMisses === 2);
    const second = agent.get('/tiles/1/1/0.png').then((r) => r);
    await until(() => service.queue.waiting === 1);
    expect(service.queue.running).toBe(1);
    const metrics = await agent.get('/metrics');
    expect(metrics.text).toMatch(/^tilegraph_render_queue_length 1$/m);
    const full = await agent.get('/tiles/1/1/1.png');
    expect(full.status).toBe(503);
    expect(full.headers['retry-after']).toBe('1');
    expect(full.body.error).toBe('render queue is full');
    release();
    const [a, b, c] = await Promise.all([first, same, second]);
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    expect(renderer.calls).toBe(2);
  });
});

describe('documents', () => {
  test('GET /style/params is the params JSON Schema', async () => {
    const { app, service } = makeApp();
    const r = await request(app).get('/style/params');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/schema\+json/);
    expect(r.headers['etag']).toBe(`"${service.version}"`);
    expect(r.body).toEqual(style.renderer.paramsSchema);
    expect(r.body.properties.alpha).toMatchObject({ type: 'number', minimum: 0, maximum: 1, default: 1 });
    expect(r.body.properties.fill).toMatchObject({ type: 'string', default: '#ff8800', description: 'polygon colour' });
    expect((await request(app).get('/style/params').set('If-None-Match', `"${service.version}"`)).status).toBe(304);
  });

  test('GET /style is the style document; GET /style/legend the legend', async () => {
    const { app, service } = makeApp();
    const s = await request(app).get('/style');
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toMatch(/^application\/json/);
    expect(s.headers['cache-control']).toBe('no-cache');
    expect(s.body.name).toBe('Test shapes');
    expect(s.body.nodes.out.op).toBe('fill-solid');
    expect((await request(app).get('/style').set('If-None-Match', `"${service.version}"`)).status).toBe(304);
    const l = await request(app).get('/style/legend');
    expect(l.status).toBe(200);
    expect(l.body).toEqual({ title: 'Shapes', entries: [{ label: 'Shape', from: 'out', geometry: 'polygon' }] });
  });

  test('GET /tilejson.json is TileJSON 3.0.0 with v=<version> in the tiles URL', async () => {
    const { app, service } = makeApp({ minZoom: 0, maxZoom: 8 });
    const r = await request(app).get('/tilejson.json').set('Host', 'tiles.example:8080');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      tilejson: '3.0.0',
      name: 'Test shapes',
      scheme: 'xyz',
      minzoom: 0,
      maxzoom: 8,
      tiles: [`http://tiles.example:8080/tiles/{z}/{x}/{y}.png?v=${service.version}`],
      // The extent of the shapes' coordinates (tests/server/fixtures.ts), not the world.
      bounds: [-120, -60, 100, 70],
    });
    expect(r.body.attribution).toBe('test data | shapes by tests');
    const p = await request(app).get('/tilejson.json?fill=%23FF0000');
    expect(p.body.tiles[0]).toMatch(new RegExp(`\\?v=${service.version}&fill=%23ff0000ff$`));
    const bad = await request(app).get('/tilejson.json?fill=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].param).toBe('fill');
  });

  test('GET /health', async () => {
    const { app, service } = makeApp();
    const r = await request(app).get('/health');
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.body).toMatchObject({ status: 'ok', version: service.version, style: 'Test shapes', queue: { waiting: 0, running: 0 } });
    service.draining = true;
    const d = await request(app).get('/health');
    expect(d.status).toBe(503);
    expect(d.body.status).toBe('shutting-down');
    expect(d.headers['connection']).toBe('close');
  });

  test('GET /metrics in Prometheus text: requests by status, render histogram, cache, queue', async () => {
    const { app } = makeApp();
    await request(app).get('/tiles/0/0/0.png');
    await request(app).get('/tiles/0/0/0.png');
    await request(app).get('/tiles/0/0/0.png?fill=x');
    await request(app).get('/nowhere');
    const r = await request(app).get('/metrics');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const t = r.text;
    expect(t).toMatch(/^tilegraph_http_requests_total\{route="\/tiles\/:z\/:x\/:file",status="200"\} 2$/m);
    expect(t).toMatch(/^tilegraph_http_requests_total\{route="\/tiles\/:z\/:x\/:file",status="400"\} 1$/m);
    expect(t).toMatch(/^tilegraph_http_requests_total\{route="unmatched",status="404"\} 1$/m);
    expect(t).toMatch(/^# TYPE tilegraph_render_duration_seconds histogram$/m);
    expect(t).toMatch(/^tilegraph_render_duration_seconds_count 1$/m);
    expect(t).toMatch(/^tilegraph_render_duration_seconds_bucket\{le="\+Inf"\} 1$/m);
    expect(t).toMatch(/^tilegraph_tile_cache_hits_total 1$/m);
    expect(t).toMatch(/^tilegraph_tile_cache_misses_total 1$/m);
    expect(t).toMatch(/^tilegraph_render_queue_length 0$/m);
    expect(t).toMatch(/^tilegraph_tile_cache_entries 1$/m);
    // Memory by thread (issue 23): the process's RSS and this thread's heap (an in-process renderer: no workers).
    expect(t).toMatch(/^process_resident_memory_bytes [1-9]\d*$/m);
    expect(t).toMatch(/^tilegraph_thread_memory_bytes\{thread="main",kind="heap_used"\} [1-9]\d*$/m);
    expect(t).not.toMatch(/thread="worker0"/);
    // Every sample line is `name{labels} value`.
    for (const line of t.trim().split('\n')) expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+(\{[^}]*\})? [\d.e+-]+)$/);
  });

  test('unknown routes and methods answer a JSON 404; CORS preflight answers 204', async () => {
    const { app } = makeApp();
    const r = await request(app).get('/nowhere');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'not found', details: [{ field: 'path', message: 'no route for GET /nowhere' }] });
    const post = await request(app).post('/tiles/0/0/0.png');
    expect(post.status).toBe(404);
    expect(post.body.error).toBe('not found');
    const pre = await request(app).options('/tiles/0/0/0.png').set('Origin', 'https://map.example').set('Access-Control-Request-Headers', 'if-none-match');
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    expect(pre.headers['access-control-allow-headers']).toBe('if-none-match');
  });

  test('GET / is an HTML page (the preview)', async () => {
    const r = await request(makeApp().app).get('/');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('cache', () => {
  test('the LRU is bounded by bytes and different param values never share an entry', async () => {
    const one = (await loneTile(1, 0, 0)).length;
    const { app, service } = makeApp({ cacheBytes: Math.floor(one * 2.5) });
    await request(app).get('/tiles/1/0/0.png');
    await request(app).get('/tiles/1/0/0.png?fill=%23000000');
    expect(service.cache.size).toBe(2);
    await request(app).get('/tiles/1/0/0.png?fill=%23ffffff');
    await request(app).get('/tiles/1/0/0.png?fill=%23ffffff');
    expect(service.cache.bytes).toBeLessThanOrEqual(Math.floor(one * 2.5));
    // The default-fill tile was the least recently used and is gone; the white one is a hit.
    expect((await request(app).get('/tiles/1/0/0.png?fill=%23ffffff')).headers['x-tilegraph-cache']).toBe('hit');
    expect((await request(app).get('/tiles/1/0/0.png')).headers['x-tilegraph-cache']).toBe('miss');
  });
});
