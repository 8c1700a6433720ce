// Real sources in the browser: a PMTiles archive read over HTTP Range requests, and Terrarium DEM
// PNG tiles decoded in the render worker, both through the server's /data route; the tiles
// rendered in chromium match the server's PNGs. Data: ../shared/fixtures (real, third-party).
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, type RunningServer } from '../../src/hosts/server/index.js';
import { compareRGBA } from '../helpers/compare.js';
import { FIXTURES, fixturesPresent } from '../sources/helpers.js';
import { decodePng, encodePng, httpGet, openSession, saveArtifact, type Session } from './harness.js';
import { fixturesTest } from '../helpers/fixtures.js';

const florence = {
  name: 'Florence',
  output: 'map',
  params: {
    road: { type: 'color', default: '#c0504d' },
    'road-width': { type: 'number', default: 1.5, min: 0, max: 6 },
    water: { type: 'color', default: '#7fb2d9' },
  },
  sources: { florence: { type: 'pmtiles', url: 'pmtiles/protomaps_vector_ODbL_firenze.pmtiles' } },
  nodes: {
    bg: { op: 'solid', color: '#f4f1ea' },
    water: { op: 'features', source: 'florence', layer: 'water' },
    roads: { op: 'features', source: 'florence', layer: 'roads' },
    'water-fill': { op: 'fill-solid', features: '@water', fill: '$water' },
    'road-lines': { op: 'stroke-solid', features: '@roads', color: '$road', width: '$road-width' },
    'with-water': { op: 'blend', base: '@bg', over: '@water-fill' },
    map: { op: 'blend', base: '@with-water', over: '@road-lines' },
  },
};

const blackForest = {
  name: 'Black Forest',
  output: 'map',
  params: {
    low: { type: 'color', default: '#2e7d32' },
    high: { type: 'color', default: '#f5f5f5' },
    top: { type: 'number', default: 1400, min: 500, max: 3000 },
  },
  sources: { terrain: { type: 'dem', tiles: ['dem/{z}-{x}-{y}.png'], encoding: 'terrarium', tileSize: 256, minzoom: 9, maxzoom: 9 } },
  nodes: {
    elevation: { op: 'dem' },
    map: {
      op: 'color-ramp',
      field: '@elevation',
      stops: [
        { value: 200, color: '$low' },
        { value: '$top', color: '$high' },
      ],
    },
  },
};

let dir: string;
let s: Session;
let demServer: RunningServer;
const dataRequests: { url: string; range?: string }[] = [];

beforeAll(async () => {
  if (!fixturesPresent) return;
  dir = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-browser-sources-'));
  symlinkSync(path.join(FIXTURES, 'pmtiles'), path.join(dir, 'pmtiles'));
  symlinkSync(path.join(FIXTURES, 'dem/terrarium/mapzen-z9-256'), path.join(dir, 'dem'));
  writeFileSync(path.join(dir, 'florence.json'), JSON.stringify(florence));
  writeFileSync(path.join(dir, 'black-forest.json'), JSON.stringify(blackForest));
  s = await openSession(path.join(dir, 'florence.json'));
  demServer = await serve({ style: path.join(dir, 'black-forest.json'), port: 0, host: '127.0.0.1', workers: 0, backend: 'cpu', log: () => undefined });
  // Requests of the page and of its workers.
  s.context.on('request', (r) => {
    if (r.url().includes('/data/')) dataRequests.push({ url: r.url(), range: r.headers().range });
  });
}, 120_000);

afterAll(async () => {
  await demServer?.close(0);
  await s?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Render a tile in the page with the bundle served by `base`; RGBA back as base64. */
async function browserTile(base: string, backend: string, tile: { z: number; x: number; y: number }, params: Record<string, string>) {
  const r = await s.page.evaluate(
    async ({ base, backend, tile, params }) => {
      const { Renderer } = await import(base + 'preview/tilegraph.js');
      const r = await Renderer.create({ style: base + 'style', dataUrl: base + 'data/', backend });
      try {
        const img: ImageData = await r.renderTile(tile, { params });
        const u8 = new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength);
        let bin = '';
        for (let i = 0; i < u8.length; i += 0x8000) bin += String.fromCharCode(...u8.subarray(i, i + 0x8000));
        return { b64: btoa(bin), backend: r.backend as string, attribution: (await r.attribution()) as string[] };
      } finally {
        r.destroy();
      }
    },
    { base, backend, tile, params },
  );
  return { ...r, pixels: new Uint8Array(Buffer.from(r.b64, 'base64')) };
}

async function serverTile(base: string, tile: { z: number; x: number; y: number }, params: Record<string, string>) {
  const res = await httpGet(`${base}tiles/${tile.z}/${tile.x}/${tile.y}.png?${new URLSearchParams(params)}`);
  expect(res.status).toBe(200);
  return decodePng(res.body).data;
}

fixturesTest('a PMTiles archive is read over Range requests and renders as on the server', async () => {
  await s.page.goto(s.base + 'health');
  const tile = { z: 13, x: 4352, y: 2986 }; // central Florence and the Arno
  const params = { road: '#202020', 'road-width': '2.5' };
  const [b, server] = await Promise.all([browserTile(s.base, 'cpu', tile, params), serverTile(s.base, tile, params)]);
  saveArtifact('florence-browser.png', encodePng(256, 256, b.pixels));
  saveArtifact('florence-server.png', encodePng(256, 256, server));
  const cmp = compareRGBA(b.pixels, server, 256, 256);
  expect({ ok: cmp.ok, badFraction: cmp.badFraction }).toEqual({ ok: true, badFraction: expect.any(Number) });
  const archive = dataRequests.filter((r) => r.url.endsWith(encodeURIComponent('pmtiles/protomaps_vector_ODbL_firenze.pmtiles')));
  expect(archive.length).toBeGreaterThan(1); // header, directories, tiles
  for (const r of archive) expect(r.range).toMatch(/^bytes=\d+-\d+$/); // never the whole 4 MB file
  // Roads in the road colour, water in the water colour: the archive's features were drawn.
  const near = (hex: string) => {
    const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    let n = 0;
    for (let i = 0; i < b.pixels.length; i += 4) if (c.every((v, k) => Math.abs(b.pixels[i + k]! - v) <= 3)) n++;
    return n / (256 * 256);
  };
  expect(near('#202020')).toBeGreaterThan(0.02);
  expect(near('#7fb2d9')).toBeGreaterThan(0.005);
  expect(b.attribution.join(' ')).toContain('OpenStreetMap'); // from the archive's metadata, read in the browser
});

fixturesTest('Terrarium DEM tiles are decoded in the worker and colour-ramped as on the server', async () => {
  await s.page.goto(demServer.url + 'health');
  const tile = { z: 9, x: 269, y: 177 }; // Black Forest, inside the 3x2 block of fixture tiles
  const params = { low: '#003300', high: '#ffffff', top: '1200' };
  const [b, server] = await Promise.all([browserTile(demServer.url, 'cpu', tile, params), serverTile(demServer.url, tile, params)]);
  saveArtifact('dem-browser.png', encodePng(256, 256, b.pixels));
  saveArtifact('dem-server.png', encodePng(256, 256, server));
  const cmp = compareRGBA(b.pixels, server, 256, 256);
  expect({ ok: cmp.ok, badFraction: cmp.badFraction }).toEqual({ ok: true, badFraction: expect.any(Number) });
  // Real relief: valleys and summits spread the green channel over a good part of the ramp.
  let lo = 255;
  let hi = 0;
  for (let i = 1; i < b.pixels.length; i += 4) {
    lo = Math.min(lo, b.pixels[i]!);
    hi = Math.max(hi, b.pixels[i]!);
  }
  expect(hi - lo).toBeGreaterThan(60);
  expect(dataRequests.some((r) => r.url.endsWith(encodeURIComponent('dem/9-269-177.png')))).toBe(true);
});
