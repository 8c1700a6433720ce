// The browser binding in chromium: same params schema and param errors as the server, and tiles
// rendered in the browser (CPU worker, CPU on the page, WebGPU) equal to the server's PNGs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compareRGBA } from '../helpers/compare.js';
import { decodePng, encodePng, httpGet, openSession, ROOT, saveArtifact, type Session } from './harness.js';

let s: Session;

beforeAll(async () => {
  s = await openSession();
  // Any page of the server's origin will do: 127.0.0.1 is a secure context, so WebGPU is offered.
  await s.page.goto(s.base + 'health');
}, 120_000);

afterAll(async () => {
  await s?.close();
});

interface BrowserTile {
  width: number;
  height: number;
  b64: string;
  backend: string;
  adapter?: string;
}

/** Render one tile with the bundle in the page; pixels come back as base64 RGBA. */
async function browserTile(
  config: { backend: string; workers?: number },
  tile: { z: number; x: number; y: number },
  params: Record<string, string>,
  pixelRatio = 1,
): Promise<BrowserTile> {
  return s.page.evaluate(
    async ({ config, tile, params, pixelRatio }) => {
      const bundle = '/preview/tilegraph.js';
      const { Renderer } = await import(bundle);
      const r = await Renderer.create({ style: '/style', dataUrl: '/data/', ...config });
      try {
        const img: ImageData = await r.renderTile(tile, { params, pixelRatio });
        const u8 = new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength);
        let bin = '';
        for (let i = 0; i < u8.length; i += 0x8000) bin += String.fromCharCode(...u8.subarray(i, i + 0x8000));
        return { width: img.width, height: img.height, b64: btoa(bin), backend: r.backend, adapter: r.adapter };
      } finally {
        r.destroy();
      }
    },
    { config, tile, params, pixelRatio },
  );
}

async function serverTile(tile: { z: number; x: number; y: number }, params: Record<string, string>, at2x = false) {
  const res = await httpGet(`${s.base}tiles/${tile.z}/${tile.x}/${tile.y}${at2x ? '@2x' : ''}.png?${new URLSearchParams(params)}`);
  expect(res.status).toBe(200);
  return decodePng(res.body);
}

test('paramsSchema is the document the server serves at /style/params', async () => {
  const served = (await httpGet(s.base + 'style/params')).json();
  const schema = await s.page.evaluate(async () => {
    const bundle = '/preview/tilegraph.js';
    const { Renderer } = await import(bundle);
    const r = await Renderer.create({ style: '/style', dataUrl: '/data/', backend: 'cpu', workers: 0 });
    return r.paramsSchema;
  });
  expect(schema).toEqual(served);
  expect(Object.keys(schema.properties)).toEqual(['ocean', 'land', 'border', 'border-width', 'shadow', 'shadow-opacity', 'names', 'name-colour']);
});

test('params set by name from strings fail exactly as the server answers', async () => {
  const bad: Record<string, string>[] = [{ 'border-width': '9' }, { 'border-width': 'wide' }, { land: 'sand' }, { land: '#12345' }, { nope: '1' }];
  for (const params of bad) {
    const res = await httpGet(`${s.base}tiles/0/0/0.png?${new URLSearchParams(params)}`);
    expect(res.status).toBe(400);
    const body = res.json<{ details: { param?: string; message: string }[] }>();
    const [name, value] = Object.entries(params)[0]!;
    const thrown = await s.page.evaluate(
      async ({ name, value }) => {
        const bundle = '/preview/tilegraph.js';
        const { Renderer, ParamError } = await import(bundle);
        const r = await Renderer.create({ style: '/style', dataUrl: '/data/', backend: 'cpu', workers: 0 });
        try {
          r.setParam(name, value);
          return undefined;
        } catch (e) {
          return { isParamError: e instanceof ParamError, code: (e as { code: string }).code, problems: (e as { problems: unknown[] }).problems };
        }
      },
      { name, value },
    );
    expect(thrown).toBeDefined();
    expect(thrown!.isParamError).toBe(true);
    expect(thrown!.code).toBe('param');
    expect(thrown!.problems).toEqual(body.details.map((d) => ({ pointer: '', param: d.param, message: d.message })));
  }
});

test('setParams is all or nothing, and a render with invalid params rejects before rendering', async () => {
  const r = await s.page.evaluate(async () => {
    const bundle = '/preview/tilegraph.js';
    const { Renderer } = await import(bundle);
    const r = await Renderer.create({ style: '/style', dataUrl: '/data/', backend: 'cpu', workers: 0 });
    r.setParam('border-width', '2');
    let message = '';
    try {
      r.setParams({ 'border-width': '3', land: 'sand' });
    } catch (e) {
      message = (e as Error).message;
    }
    const after = r.params.get('border-width');
    let renderError = '';
    await r.renderTile({ z: 0, x: 0, y: 0 }, { params: { shadow: '99' } }).catch((e: Error) => (renderError = `${e.name}: ${e.message}`));
    r.resetParams();
    return { message, after, renderError, reset: r.params.get('border-width') };
  });
  expect(r.message).toBe("param 'land': 'sand' is not a colour; use #rrggbb, #rrggbbaa or a CSS colour name");
  expect(r.after).toBe(2);
  expect(r.renderError).toBe("ParamError: param 'shadow': 99 is above its max 12");
  expect(r.reset).toBe(0.8);
});

const TILE = { z: 2, x: 2, y: 1 };
const PARAMS = { 'border-width': '2.5', land: '#ddccaa', shadow: '7', ocean: '#4a90c0' };

describe.each([
  { name: 'CPU in a worker', config: { backend: 'cpu' }, expect: 'cpu' },
  { name: 'CPU on the page', config: { backend: 'cpu', workers: 0 }, expect: 'cpu' },
  { name: 'WebGPU (SwiftShader) in a worker', config: { backend: 'gpu' }, expect: 'gpu' },
])('a tile rendered in the browser, $name', ({ name, config, expect: backend }) => {
  test("matches the server's PNG for the same params within the golden tolerance", async () => {
    const [b, server] = await Promise.all([browserTile(config, TILE, PARAMS), serverTile(TILE, PARAMS)]);
    expect(b.backend).toBe(backend);
    expect([b.width, b.height]).toEqual([256, 256]);
    const pixels = new Uint8Array(Buffer.from(b.b64, 'base64'));
    const slug = name.replace(/\W+/g, '-').toLowerCase();
    saveArtifact(`tile-${slug}.png`, encodePng(b.width, b.height, pixels));
    saveArtifact('tile-server.png', encodePng(server.width, server.height, server.data));
    const cmp = compareRGBA(pixels, server.data, 256, 256);
    if (!cmp.ok) saveArtifact(`tile-${slug}-diff.png`, encodePng(256, 256, cmp.diff));
    expect({ badFraction: cmp.badFraction, maxDiff: cmp.maxDiff, ok: cmp.ok }).toEqual(expect.objectContaining({ ok: true }));
    // The params reached the render: open sea (away from the coastal shadow) has the `ocean` param's colour.
    let sea = 0;
    for (let i = 0; i < pixels.length; i += 4)
      if (Math.abs(pixels[i]! - 0x4a) <= 2 && Math.abs(pixels[i + 1]! - 0x90) <= 2 && Math.abs(pixels[i + 2]! - 0xc0) <= 2) sea++;
    expect(sea / (256 * 256)).toBeGreaterThan(0.03);
  });
});

// renderTileBitmap (what the preview hands MapLibre): a GPU worker makes the bitmap, a CPU worker
// sends its pixels and the page makes it (issue 25), then gives the pixels' buffer back to that
// worker (transferred: empty on the page afterwards), which writes a later tile's pixels into it.
// Either way each bitmap holds its tile's pixels: drawn on Chromium's own 2D canvas and read back,
// they equal renderTile's (the tiles are opaque, so no premultiplied round trip can move a value).
describe.each([
  { name: 'CPU worker', backend: 'cpu' },
  { name: 'WebGPU (SwiftShader) worker', backend: 'gpu' },
])('renderTileBitmap from a $name', ({ backend }) => {
  test("each bitmap holds its tile's pixels, the buffers recycled", async () => {
    const got = await s.page.evaluate(
      async ({ backend, tile, params }) => {
        const bundle = '/preview/tilegraph.js';
        const { Renderer } = await import(bundle);
        const r = await Renderer.create({ style: '/style', dataUrl: '/data/', backend });
        // Count the pixel buffers the page hands back (the pool's recycle, named as in the source).
        const pool = (r as unknown as { pool: { recycle(d: Uint8ClampedArray): void } }).pool;
        const recycle = pool.recycle.bind(pool);
        let givenBack = 0;
        pool.recycle = (d) => {
          recycle(d);
          if (d.buffer.byteLength === 0) givenBack++;
        };
        const out = [];
        try {
          // The same tile and its neighbours, twice over: later renders write into given-back buffers.
          for (const dx of [0, 1, 0, 1, 0, 1]) {
            const t = { ...tile, x: tile.x + dx };
            const img: ImageData = await r.renderTile(t, { params });
            const bmp: ImageBitmap = await r.renderTileBitmap(t, { params });
            const c = new OffscreenCanvas(bmp.width, bmp.height);
            const ctx = c.getContext('2d')!;
            ctx.drawImage(bmp, 0, 0);
            const back = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
            let differ = 0;
            let opaque = 0;
            for (let i = 0; i < back.length; i++) if (back[i] !== img.data[i]) differ++;
            for (let i = 3; i < img.data.length; i += 4) if (img.data[i] === 255) opaque++;
            out.push({ width: bmp.width, height: bmp.height, differ, opaque });
          }
          return { backend: r.backend, tiles: out, givenBack };
        } finally {
          r.destroy();
        }
      },
      { backend, tile: TILE, params: PARAMS },
    );
    expect(got.backend).toBe(backend);
    expect(got.tiles).toEqual(Array(6).fill({ width: 256, height: 256, differ: 0, opaque: 256 * 256 }));
    // A GPU worker's bitmaps come made: no pixels to give back.
    expect(got.givenBack).toBe(backend === 'cpu' ? 6 : 0);
  });
});

test("pixelRatio 2: the browser's 512 px tile matches the server's @2x tile", async () => {
  const [b, server] = await Promise.all([browserTile({ backend: 'cpu' }, TILE, PARAMS, 2), serverTile(TILE, PARAMS, true)]);
  expect([b.width, b.height]).toEqual([512, 512]);
  expect([server.width, server.height]).toEqual([512, 512]);
  const pixels = new Uint8Array(Buffer.from(b.b64, 'base64'));
  saveArtifact('tile-cpu-worker-2x.png', encodePng(512, 512, pixels));
  const cmp = compareRGBA(pixels, server.data, 512, 512);
  expect({ badFraction: cmp.badFraction, maxDiff: cmp.maxDiff, ok: cmp.ok }).toEqual(expect.objectContaining({ ok: true }));
});

test('an aborted render rejects with AbortError and the renderer keeps working', async () => {
  const r = await s.page.evaluate(async () => {
    const bundle = '/preview/tilegraph.js';
    const { Renderer } = await import(bundle);
    const r = await Renderer.create({ style: '/style', dataUrl: '/data/', backend: 'cpu', workers: 1 });
    const ac = new AbortController();
    const first = r.renderTile({ z: 1, x: 0, y: 0 }, { signal: ac.signal });
    ac.abort();
    const name = await first.then(
      () => 'resolved',
      (e: Error) => e.name,
    );
    const img: ImageData = await r.renderTile({ z: 1, x: 0, y: 0 });
    r.destroy();
    return { name, width: img.width, alpha: img.data[3] };
  });
  expect(r).toEqual({ name: 'AbortError', width: 256, alpha: 255 });
});

test("docs/browser.md's embedding snippet works from a page on another origin", async () => {
  const doc = readFileSync(path.join(ROOT, 'docs/browser.md'), 'utf8');
  const snippet = /```html\n([\s\S]*?)```/.exec(doc)![1]!.replace('http://127.0.0.1:8080/', 'http://tiles.example/');
  const page = await s.context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  // Two made-up origins: the page's, and the tile server's (proxied to the real one, CORS headers
  // and all). Real loopback origins would meet Chrome's local-network permission prompt instead.
  await s.context.route('http://embed.example/', (route) => route.fulfill({ contentType: 'text/html', body: snippet }));
  await s.context.route('http://tiles.example/**', async (route) => {
    const response = await route.fetch({ url: route.request().url().replace('http://tiles.example/', s.base) });
    await route.fulfill({ response });
  });
  try {
    await page.goto('http://embed.example/');
    const canvasState = () =>
      page.evaluate(() => {
        const c = document.getElementById('tile') as HTMLCanvasElement;
        const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let opaque = 0;
        for (let i = 3; i < d.length; i += 4) if (d[i] === 255) opaque++;
        return { url: c.toDataURL(), opaque: opaque / (d.length / 4) };
      });
    await page.waitForFunction(
      () => (document.getElementById('tile') as HTMLCanvasElement).getContext('2d')!.getImageData(0, 0, 1, 1).data[3] === 255,
      undefined,
      { timeout: 60_000 },
    );
    const before = await canvasState();
    expect(before.opaque).toBe(1); // the whole tile is drawn (sea or land everywhere)
    await page.locator('#width').fill('4');
    await page.waitForFunction((prev) => (document.getElementById('tile') as HTMLCanvasElement).toDataURL() !== prev, before.url, { timeout: 60_000 });
    const after = await page.locator('#tile').screenshot();
    saveArtifact('embed-snippet.png', after);
    const a = decodePng(Buffer.from(before.url.split(',')[1]!, 'base64'));
    const b = decodePng(Buffer.from((await canvasState()).url.split(',')[1]!, 'base64'));
    expect(compareRGBA(a.data, b.data, a.width, a.height).badFraction).toBeGreaterThan(0.01); // 4 px borders
    expect(errors).toEqual([]);
  } finally {
    await page.close();
  }
});
