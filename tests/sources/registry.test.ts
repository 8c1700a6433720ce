// The registry of a style's sources: attribution merged and de-duplicated, the dem op through a
// Renderer (decoder carried by the loader), source selection errors, a cache shared by renderers.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Renderer, TileCache, RenderError } from '../../src/index.js';
import { NodeLoader } from '../../src/hosts/node/loader.js';
import { dedupeAttribution } from '../../src/sources/registry.js';
import { MemoryLoader, MVT_FIXTURES, readBytes, solidPng } from './helpers.js';
import { rampOut } from '../helpers/scalars.js';
import { writePmtiles } from './pmtiles-writer.js';

const chicago = () => readBytes(path.join(MVT_FIXTURES, 'chicago/13-2101-3044.mvt'));

describe('source registry', () => {
  test('attribution: the style, each source and archive metadata, de-duplicated', async () => {
    const archive = writePmtiles([{ z: 13, x: 2101, y: 3044, data: chicago() }], { tileType: 1, metadata: { attribution: '© OpenStreetMap contributors' } });
    const r = Renderer.create(
      {
        attribution: 'Style © Example',
        output: 'bg',
        sources: {
          a: { type: 'mvt', tiles: ['t/{z}/{x}/{y}'], attribution: '© Mapbox' },
          b: { type: 'pmtiles', url: 'a.pmtiles', attribution: '© Mapbox' },
          c: { type: 'geojson', data: { type: 'FeatureCollection', features: [] }, attribution: ' © OpenStreetMap contributors ' },
        },
        nodes: { bg: { op: 'solid', color: '#ffffff' } },
      },
      { loader: new MemoryLoader({ 'a.pmtiles': archive }) },
    );
    expect(await r.attribution()).toEqual(['Style © Example', '© Mapbox', '© OpenStreetMap contributors']);
  });

  test("attribution: a credit another entry already holds is listed once (issue 23: the terrain example said 'AWS Terrain Tiles' twice)", async () => {
    const terrain = JSON.parse(readFileSync(path.resolve('examples/terrain/style.json'), 'utf8')) as { attribution: string };
    const r = Renderer.create(terrain, { loader: new NodeLoader({ baseDir: path.resolve('examples/terrain') }) });
    const list = await r.attribution();
    expect(list).toEqual([terrain.attribution]);
    expect(list.join(' | ').match(/AWS Terrain Tiles/g)).toHaveLength(1);
    // Words compared without tags, entities, spacing or case; the first of two equal ones stays; unrelated ones all stay.
    expect(
      dedupeAttribution(['<a href="x">© OpenStreetMap</a> contributors', '© openstreetmap   contributors', '© OpenStreetMap', 'Natural Earth', '© Mapbox']),
    ).toEqual(['<a href="x">© OpenStreetMap</a> contributors', 'Natural Earth', '© Mapbox']);
  });

  test('the dem op renders through a Renderer whose loader carries the image decoder', async () => {
    const png = await solidPng(256, [0x80, 0x10, 0x40, 255]); // Terrarium: 0x80 * 256 + 0x10 + 0x40 / 256 - 32768 = 16.25 m
    const r = Renderer.create(
      {
        output: 'out',
        sources: { relief: { type: 'dem', tiles: ['d/{z}/{x}/{y}.png'], tileSize: 256, encoding: 'terrarium', maxzoom: 3 } },
        nodes: {
          e: { op: 'dem' },
          out: rampOut('@e', [-100, '#000000'], [100, '#ffffff']),
        },
      },
      { loader: new MemoryLoader({ 'd/3/2/2.png': png }) },
    );
    const raster = await r.renderTile({ z: 3, x: 2, y: 2 });
    // 16.25 m on a ramp from black at -100 m to white at 100 m: grey (16.25 + 100) / 200.
    expect(raster.data[0]).toBeCloseTo(116.25 / 200, 4);
    expect(raster.data[3]).toBe(1);
  });

  test('choosing a source: none of the kind, several without a name', () => {
    const two = Renderer.create({
      output: 'bg',
      sources: { a: { type: 'dem', tiles: ['a/{z}/{x}/{y}'] }, b: { type: 'dem', tiles: ['b/{z}/{x}/{y}'] } },
      nodes: { bg: { op: 'solid', color: '#ffffff' } },
    });
    expect(() => two.sources.demSource(undefined)).toThrow(/2 dem sources \(a, b\); name one/);
    expect(() => two.sources.featureSource(undefined)).toThrow(RenderError);
    expect(() => two.sources.featureSource('a')).toThrow(/'a' is a dem source, not a feature source/);
    expect(two.sources.demSource('b').name).toBe('b');
  });

  test('one tile cache shared by two renderers of the same files loads each tile once', async () => {
    let reads = 0;
    const counting = (baseDir: string) => {
      const l = new NodeLoader({ baseDir });
      const load = l.load.bind(l);
      l.load = async (ref, range, signal) => (reads++, load(ref, range, signal));
      return l;
    };
    const style = (tiles: string) => ({
      output: 'out',
      sources: { s: { type: 'mvt', tiles: [tiles], minzoom: 13, maxzoom: 13 } },
      nodes: { f: { op: 'features', layer: 'water' }, out: { op: 'fill-solid', features: '@f', fill: '#0000ff' } },
    });
    const cache = new TileCache();
    // Two styles in different directories naming the same files by different relative paths.
    const a = Renderer.create(style('chicago/{z}-{x}-{y}.mvt'), { loader: counting(MVT_FIXTURES), tileCache: cache });
    const b = Renderer.create(style('{z}-{x}-{y}.mvt'), { loader: counting(path.join(MVT_FIXTURES, 'chicago')), tileCache: cache });
    await Promise.all([a.renderTile({ z: 13, x: 2101, y: 3044 }), b.renderTile({ z: 13, x: 2101, y: 3044 }), a.renderTile({ z: 13, x: 2101, y: 3044 })]);
    expect(reads).toBe(1);
  });

  // A server's render worker shares one cache among every style it renders (issue 23): two styles
  // reading one file differently (B over-zooms z13 from a z12 tile) must not take each other's entries.
  test('a shared cache keeps apart styles that read the same files differently', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-shared-'));
    writeFileSync(path.join(dir, '13-2101-3044.mvt'), chicago());
    writeFileSync(path.join(dir, '12-1050-1522.mvt'), chicago()); // another tile's content one zoom up
    const style = (maxzoom: number) => ({
      output: 'out',
      sources: { s: { type: 'mvt', tiles: ['{z}-{x}-{y}.mvt'], minzoom: 12, maxzoom } },
      nodes: { f: { op: 'features', layer: 'water' }, out: { op: 'fill-solid', features: '@f', fill: '#0000ff' } },
    });
    const t = { z: 13, x: 2101, y: 3044 };
    const loader = () => new NodeLoader({ baseDir: dir });
    const soloA = await Renderer.create(style(13), { loader: loader() }).renderTile(t);
    const soloB = await Renderer.create(style(12), { loader: loader() }).renderTile(t);
    expect(Buffer.compare(Buffer.from(soloA.data.buffer), Buffer.from(soloB.data.buffer))).not.toBe(0);
    const cache = new TileCache();
    const a = Renderer.create(style(13), { loader: loader(), tileCache: cache });
    const b = Renderer.create(style(12), { loader: loader(), tileCache: cache });
    expect(Buffer.compare(Buffer.from((await a.renderTile(t)).data.buffer), Buffer.from(soloA.data.buffer))).toBe(0);
    expect(Buffer.compare(Buffer.from((await b.renderTile(t)).data.buffer), Buffer.from(soloB.data.buffer))).toBe(0);
  });
});
