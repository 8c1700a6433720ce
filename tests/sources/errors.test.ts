// Bad data: every failure is a SourceError naming the source, the tile and the cause; a render
// rejects with it and the process carries on.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SourceError, Renderer } from '../../src/index.js';
import { createMvtSource } from '../../src/sources/mvt.js';
import { createPmtilesSource } from '../../src/sources/pmtiles.js';
import { createDemSource } from '../../src/sources/dem.js';
import { GeojsonSource } from '../../src/sources/geojson.js';
import { TileCache } from '../../src/sources/cache.js';
import { NodeLoader } from '../../src/hosts/node/loader.js';
import { tileWindow } from '../../src/types.js';
import { ctxOf, FIXTURES, fixturesPresent, MemoryLoader, MVT_FIXTURES, readBytes, solidPng } from './helpers.js';
import { writePmtiles } from './pmtiles-writer.js';

const T = tileWindow({ z: 13, x: 2101, y: 3044 }, 256);
const chicagoTile = () => readBytes(path.join(MVT_FIXTURES, 'chicago/13-2101-3044.mvt'));
const gzTile = () => readBytes(path.join(MVT_FIXTURES, 'compressed/14-9384-9577.mvt.gz'));

async function sourceError(p: Promise<unknown>): Promise<SourceError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(SourceError);
  return e as SourceError;
}

const mvt = (loader: MemoryLoader | NodeLoader, tiles = ['t/{z}/{x}/{y}.mvt']) =>
  createMvtSource('streets', { type: 'mvt', tiles, minzoom: 13, maxzoom: 14 }, ctxOf(loader));

describe('bad data', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url?.startsWith('/ok/')) {
        res.writeHead(200, { 'content-type': 'application/x-protobuf' });
        res.end(chicagoTile());
      } else if (req.url?.startsWith('/broken/')) {
        res.writeHead(500, 'Internal Server Error');
        res.end('oops');
      } else {
        res.writeHead(404, 'Not Found');
        res.end('<html>not found</html>');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  test('missing file: names the source, the tile and the file', async () => {
    const e = await sourceError(mvt(new NodeLoader({ baseDir: MVT_FIXTURES }), ['chicago/{z}-{x}-{y}.pbf']).features('road', T));
    expect(e.source).toBe('streets');
    expect(e.tile).toBe('13/2101/3044');
    expect(e.message).toMatch(/source 'streets' tile 13\/2101\/3044: cannot load the tile: cannot read 'chicago\/13-2101-3044.pbf': no such file$/);
    expect(e.message).not.toContain(MVT_FIXTURES);
    expect(e.problems[0]!.pointer).toBe('/sources/streets');
  });

  test('HTTP errors: 404 and 500 name the status and the URL; a good URL works', async () => {
    const ok = await mvt(new NodeLoader({ baseDir: '.' }), [`${base}/ok/{z}/{x}/{y}.mvt`]).features('road', T);
    expect(ok.length).toBeGreaterThan(100);
    const e404 = await sourceError(mvt(new NodeLoader({ baseDir: '.' }), [`${base}/missing/{z}/{x}/{y}.mvt`]).features('road', T));
    expect(e404.message).toMatch(new RegExp(`tile 13/2101/3044: .*HTTP 404 Not Found for ${base}/missing/13/2101/3044.mvt`));
    const e500 = await sourceError(
      createDemSource('relief', { type: 'dem', tiles: [`${base}/broken/{z}/{x}/{y}.png`], maxzoom: 12 }, ctxOf(new NodeLoader({ baseDir: '.' }))).field(
        tileWindow({ z: 12, x: 1, y: 2 }, 512),
      ),
    );
    expect(e500.message).toMatch(/source 'relief' tile 12\/1\/2: .*HTTP 500/);
  });

  test('truncated protobuf, garbage bytes and corrupt gzip', async () => {
    const full = chicagoTile();
    const truncated = await sourceError(mvt(new MemoryLoader({ 't/13/2101/3044.mvt': full.subarray(0, full.length >> 1) })).features('road', T));
    expect(truncated.message).toMatch(/tile 13\/2101\/3044: the tile is not a valid vector tile.*: /);
    const html = await sourceError(mvt(new MemoryLoader({ 't/13/2101/3044.mvt': new TextEncoder().encode('<html>oops</html>') })).features('road', T));
    expect(html.tile).toBe('13/2101/3044');
    const gz = gzTile().slice();
    for (let i = 40; i < 60; i++) gz[i] ^= 0x5a;
    const g = createMvtSource(
      'gz',
      { type: 'mvt', tiles: ['c/{z}/{x}/{y}.mvt.gz'], minzoom: 14, maxzoom: 14 },
      ctxOf(new MemoryLoader({ 'c/14/9384/9577.mvt.gz': gz })),
    );
    const eg = await sourceError(g.features('road', tileWindow({ z: 14, x: 9384, y: 9577 }, 256)));
    expect(eg.message).toMatch(/source 'gz' tile 14\/9384\/9577: the tile is not a valid vector tile/);
    const cut = createMvtSource(
      'gz',
      { type: 'mvt', tiles: ['c/{z}/{x}/{y}.mvt.gz'], minzoom: 14, maxzoom: 14 },
      ctxOf(new MemoryLoader({ 'c/14/9384/9577.mvt.gz': gzTile().subarray(0, 2000) })),
    );
    expect((await sourceError(cut.features('road', tileWindow({ z: 14, x: 9384, y: 9577 }, 256)))).message).toMatch(/unexpected end of file/);
  });

  test('corrupt PNG, wrong image size, no decoder', async () => {
    const png = await solidPng(256, [10, 20, 30, 255]);
    const bad = png.slice();
    for (let i = 60; i < bad.length; i += 7) bad[i] ^= 0xff;
    const dem = (bytes: Uint8Array, decl: object = {}) =>
      createDemSource('relief', { type: 'dem', tiles: ['d/{z}/{x}/{y}.png'], maxzoom: 3, ...decl }, ctxOf(new MemoryLoader({ 'd/3/2/2.png': bytes })));
    const e = await sourceError(dem(bad, { tileSize: 256 }).field(tileWindow({ z: 3, x: 2, y: 2 }, 256)));
    expect(e.message).toMatch(/source 'relief' tile 3\/2\/2: the tile is not a readable PNG or WebP image/);
    // The PNG is 256 px; the source declares the default 512.
    const size = await sourceError(dem(png).field(tileWindow({ z: 4, x: 4, y: 4 }, 256)));
    expect(size.message).toMatch(/256x256 px but the source's tileSize is 512; set "tileSize": 256/);
    const noDecoder = createDemSource(
      'relief',
      { type: 'dem', tiles: ['d/{z}/{x}/{y}.png'], maxzoom: 3, tileSize: 256 },
      { ...ctxOf(new MemoryLoader({ 'd/3/2/2.png': png })), decodeImage: undefined },
    );
    expect((await sourceError(noDecoder.field(tileWindow({ z: 3, x: 2, y: 2 }, 256)))).message).toMatch(/no image decoder/);
  });

  test('unknown layer: pmtiles (from the archive metadata) and geojson', async () => {
    const archive = writePmtiles([{ z: 13, x: 2101, y: 3044, data: chicagoTile() }], {
      tileType: 1,
      metadata: { vector_layers: [{ id: 'road' }, { id: 'water' }] },
    });
    const pm = createPmtilesSource('arch', { type: 'pmtiles', url: 'a.pmtiles' }, ctxOf(new MemoryLoader({ 'a.pmtiles': archive })));
    expect((await sourceError(pm.features('roads', T))).message).toMatch(/source 'arch': unknown layer 'roads'; the source has: road, water/);
    const gj = new GeojsonSource({ name: 'pts', decl: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } } });
    expect((await sourceError(gj.features('points', T))).message).toMatch(/unknown layer 'points'.*'pts'/);
  });

  test('a PMTiles archive of the wrong tile type, and a file that is no archive', async () => {
    const raster = writePmtiles([{ z: 0, x: 0, y: 0, data: await solidPng(256, [1, 2, 3, 255]) }], { tileType: 2 });
    const vector = writePmtiles([{ z: 13, x: 2101, y: 3044, data: chicagoTile() }], { tileType: 1 });
    const loader = new MemoryLoader({ 'r.pmtiles': raster, 'v.pmtiles': vector, 'x.pmtiles': chicagoTile() });
    const asVector = createPmtilesSource('basemap', { type: 'pmtiles', url: 'r.pmtiles' }, ctxOf(loader));
    expect((await sourceError(asVector.features('road', T))).message).toMatch(
      /source 'basemap': the PMTiles archive 'r.pmtiles' holds PNG tiles; a pmtiles \(vector\) source needs vector \(MVT\) tiles/,
    );
    const asDem = createDemSource('relief', { type: 'dem', url: 'v.pmtiles' }, ctxOf(loader));
    expect((await sourceError(asDem.field(T))).message).toMatch(/holds vector \(MVT\) tiles; a dem source needs PNG or WebP tiles/);
    const notArchive = createPmtilesSource('basemap', { type: 'pmtiles', url: 'x.pmtiles' }, ctxOf(loader));
    expect((await sourceError(notArchive.features('road', T))).message).toMatch(/cannot read the PMTiles archive 'x.pmtiles'.*magic/i);
    if (fixturesPresent) {
      const stamen = createPmtilesSource(
        'toner',
        { type: 'pmtiles', url: 'stamen_toner_raster_CC-BY_ODbL_z3.pmtiles' },
        ctxOf(new NodeLoader({ baseDir: path.join(FIXTURES, 'pmtiles') })),
      );
      expect((await sourceError(stamen.features('roads', tileWindow({ z: 2, x: 1, y: 1 }, 256)))).message).toMatch(/holds PNG tiles/);
    }
  });

  test('through a Renderer: the render rejects with the SourceError, the next render of good tiles works', async () => {
    const style = {
      output: 'out',
      sources: { streets: { type: 'mvt', tiles: ['t/{z}/{x}/{y}.mvt'], minzoom: 13, maxzoom: 13 } },
      nodes: { f: { op: 'features', source: 'streets', layer: 'road' }, out: { op: 'fill-solid', features: '@f', fill: '#ff0000' } },
    };
    const loader = new MemoryLoader({ 't/13/2101/3044.mvt': chicagoTile(), 't/13/2102/3044.mvt': new Uint8Array([0x1a, 0xff, 0xff, 0xff]) });
    const r = Renderer.create(style, { loader, tileCache: new TileCache() });
    const results = await Promise.allSettled([r.renderTile({ z: 13, x: 2102, y: 3044 }), r.renderTile({ z: 13, x: 2101, y: 3044 })]);
    expect(results[0]!.status).toBe('rejected');
    expect((results[0] as PromiseRejectedResult).reason).toBeInstanceOf(SourceError);
    if (results[1]!.status === 'rejected') throw (results[1] as PromiseRejectedResult).reason;
  });
});
