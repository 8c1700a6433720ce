// The running server: worker-thread renders under concurrent load, --watch reloads, graceful shutdown.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { toRGBA8, type ParamValues, type Raster, type Window } from '../../src/index.js';
import { encodePng } from '../../src/hosts/node/png.js';
import type { PngRenderer } from '../../src/hosts/node/render-pool.js';
import { loadStyleFile, type LoadedStyle } from '../../src/hosts/node/style-file.js';
import { serve, type RunningServer } from '../../src/hosts/server/serve.js';
import { decodedDifference, differenceFromRaster } from '../helpers/decode.js';
import { requireBuild, shapesStyle, WORKER, writeFixtures, type Fixture } from './fixtures.js';

let fx: Fixture;
beforeAll(() => {
  requireBuild();
  fx = writeFixtures();
});

async function get(url: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const r = await fetch(url);
  return { status: r.status, headers: r.headers, bytes: Buffer.from(await r.arrayBuffer()) };
}

async function until(what: string, ok: () => Promise<boolean>, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('200 concurrent requests over 4 param sets each get the pixels a lone request gets, those of an in-process render (worker threads; decoded by libvips)', async () => {
  const sets: Record<string, string>[] = [{}, { fill: '#00ff00' }, { fill: '#0000ff', alpha: '0.5' }, { alpha: '0.25' }];
  const tiles = [
    [1, 0, 0],
    [1, 1, 0],
    [1, 0, 1],
    [1, 1, 1],
    [2, 1, 1],
  ] as const;
  const url = (base: string, set: number, [z, x, y]: readonly number[]) => {
    const q = new URLSearchParams(sets[set]).toString();
    return `${base}tiles/${z}/${x}/${y}.png${q ? '?' + q : ''}`;
  };
  // No tile cache: every distinct (tile, params) renders under load; identical ones may share a render.
  const s: RunningServer = await serve({ style: fx.shapes, port: 0, workers: 2, workerUrl: WORKER, backend: 'cpu', cacheBytes: 0, log: () => undefined });
  try {
    // Lone requests, one at a time.
    const lone = new Map<string, Buffer>();
    for (let set = 0; set < sets.length; set++) {
      for (const t of tiles) {
        const r = await get(url(s.url, set, t));
        expect(r.status).toBe(200);
        lone.set(`${set}:${t.join('/')}`, r.bytes);
      }
    }
    const jobs = Array.from({ length: 200 }, (_, i) => {
      const set = i % 4;
      const t = tiles[Math.floor(i / 4) % tiles.length]!;
      return get(url(s.url, set, t)).then((r) => ({ r, key: `${set}:${t.join('/')}` }));
    });
    const results = await Promise.all(jobs);
    for (const { r, key } of results) {
      expect(r.status).toBe(200);
      // Decoded by libvips: the same pixels as the lone request's tile.
      expect(await decodedDifference(r.bytes, lone.get(key)!)).toBeUndefined();
    }
    // And the lone tiles are what a render in this process gives.
    const style = await loadStyleFile(fx.shapes);
    for (let set = 0; set < sets.length; set++)
      for (const [z, x, y] of tiles) {
        const raster = await style.renderer.renderTile({ z, x, y }, style.renderer.params(sets[set]!));
        expect(await differenceFromRaster(lone.get(`${set}:${z}/${x}/${y}`)!, raster)).toBeUndefined();
      }
    const distinct = new Set(results.map((x) => x.r.headers.get('etag')));
    expect(distinct.size).toBe(20);
  } finally {
    await s.close();
  }
});

test('--watch reloads a changed style and keeps the old one when the new one is invalid', async () => {
  const file = path.join(fx.dir, 'watched.json');
  writeFileSync(file, JSON.stringify(shapesStyle()));
  const log: string[] = [];
  const s = await serve({ style: file, port: 0, watch: true, workers: 0, backend: 'cpu', log: (l) => log.push(l) });
  try {
    const v1 = (await (await fetch(`${s.url}health`)).json()).version as string;
    const t1 = await get(`${s.url}tiles/1/0/0.png`);
    expect(t1.status).toBe(200);
    // With --watch, tiles without the current v must not be cached by clients.
    expect(t1.headers.get('cache-control')).toBe('no-cache');

    writeFileSync(file, JSON.stringify(shapesStyle({ fill: '#0000ff' })));
    await until('the reload', async () => (await (await fetch(`${s.url}health`)).json()).version !== v1);
    const v2 = s.service.version;
    const t2 = await get(`${s.url}tiles/1/0/0.png`);
    expect(t2.status).toBe(200);
    expect(await decodedDifference(t1.bytes, t2.bytes)).toBeDefined();
    expect((await get(`${s.url}tilejson.json`)).bytes.toString()).toContain(`v=${v2}`);

    writeFileSync(file, '{ "output": "out", "nodes": { "out": { "op": "blurr" } } }');
    // Wait for this file's failure (a reload may also have caught a half-written file before).
    await until('the failed reload', async () => log.some((l) => l.includes('blurr')));
    expect(s.service.version).toBe(v2);
    const t3 = await get(`${s.url}tiles/1/0/0.png`);
    expect(t3.status).toBe(200);
    expect(await decodedDifference(t3.bytes, t2.bytes)).toBeUndefined();
    expect(log.some((l) => l.startsWith(`tilegraph: style reload failed, still serving version ${v2}:`) && l.includes('blurr'))).toBe(true);
    expect(await (await fetch(`${s.url}metrics`)).text()).toMatch(/^tilegraph_style_reloads_total\{result="error"\} [1-9]\d*$/m);
  } finally {
    await s.close();
  }
});

test('graceful shutdown: a request in flight completes, then the port closes', async () => {
  const style: LoadedStyle = await loadStyleFile(fx.shapes);
  const raster = await style.renderer.renderTile({ z: 0, x: 0, y: 0 });
  const png = await encodePng(raster);
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const renderer: PngRenderer = {
    capacity: 1,
    async render(_s: LoadedStyle, _w: Window, _p: ParamValues) {
      await gate;
      return png;
    },
    async close() {},
  };
  const s = await serve({ style: fx.shapes, port: 0, renderer, log: () => undefined });
  const pending = get(`${s.url}tiles/0/0/0.png`);
  await until('the render to start', async () => s.service.queue.running === 1);
  const closing = s.close(5000);
  expect(s.service.draining).toBe(true);
  release();
  const r = await pending;
  expect(r.status).toBe(200);
  expect(await differenceFromRaster(r.bytes, raster)).toBeUndefined();
  await closing;
  await expect(fetch(`${s.url}health`)).rejects.toThrow();
});

test('a source failing inside a worker thread still answers 502 naming the source', async () => {
  const s = await serve({ style: fx.missingSource, port: 0, workers: 1, workerUrl: WORKER, backend: 'cpu', log: () => undefined });
  try {
    const r = await fetch(`${s.url}tiles/0/0/0.png`);
    expect(r.status).toBe(502);
    const body = (await r.json()) as { error: string; source: string; details: { field: string; message: string }[] };
    expect(body.error).toBe("source 'shapes' failed");
    expect(body.source).toBe('shapes');
    expect(body.details[0]!.message).toContain('no-such-file.geojson');
  } finally {
    await s.close();
  }
});

test('sourceCacheBytes bounds the decoded source tiles a style keeps, and changes no pixel', async () => {
  const tiles = [
    [0, 0, 0],
    [1, 0, 0],
    [1, 1, 1],
    [2, 1, 1],
    [2, 2, 1],
  ] as const;
  // Each tile twice: a canvas's sampled GeoJSON groups are kept from its second sample on (docs/sources.md, Cache).
  const render = async (style: LoadedStyle) => {
    const out: Raster[] = [];
    for (const [z, x, y] of tiles) {
      await style.renderer.renderTile({ z, x, y });
      out.push(await style.renderer.renderTile({ z, x, y }));
    }
    return out;
  };
  const plain = await loadStyleFile(fx.shapes);
  const bounded = await loadStyleFile(fx.shapes, { sourceCacheBytes: 1024 });
  const none = await loadStyleFile(fx.shapes, { sourceCacheBytes: 0 });
  const expected = await render(plain);
  expect(plain.renderer.sources.cache!.maxBytes).toBe(128 * 1024 * 1024);
  expect(plain.renderer.sources.cache!.stats.bytes).toBeGreaterThan(1024); // the bound below is reached
  for (const [style, max] of [
    [bounded, 1024],
    [none, 0],
  ] as const) {
    const got = await render(style);
    for (let i = 0; i < tiles.length; i++) expect(Buffer.compare(Buffer.from(toRGBA8(got[i]!)), Buffer.from(toRGBA8(expected[i]!)))).toBe(0);
    expect(style.renderer.sources.cache!.maxBytes).toBe(max);
    expect(style.renderer.sources.cache!.stats.bytes).toBeLessThanOrEqual(max);
  }
  expect(none.renderer.sources.cache!.stats.entries).toBe(0);
  // The render workers build the style with the same bound (NodeInit carries it).
  const s = await serve({ style: fx.shapes, port: 0, workers: 1, workerUrl: WORKER, backend: 'cpu', cacheBytes: 0, sourceCacheBytes: 0, log: () => undefined });
  try {
    expect(s.service.style.sourceCacheBytes).toBe(0);
    const r = await get(`${s.url}tiles/1/1/1.png`);
    expect(r.status).toBe(200);
    expect(await differenceFromRaster(r.bytes, expected[2]!)).toBeUndefined();
  } finally {
    await s.close();
  }
});
