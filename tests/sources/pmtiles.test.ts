// pmtiles source: archives written here from real MVT tiles (always run) and the real archives of
// ../shared/fixtures (Florence, test_fixture_1, the Stamen raster archive).
import path from 'node:path';
import { createPmtilesSource } from '../../src/sources/pmtiles.js';
import { createMvtSource } from '../../src/sources/mvt.js';
import { NodeLoader } from '../../src/hosts/node/loader.js';
import { tileWindow, type Canvas } from '../../src/types.js';
import { ctxOf, FIXTURES, MemoryLoader, MVT_FIXTURES, polygonArea, lineLength, readBytes } from './helpers.js';
import { writePmtiles } from './pmtiles-writer.js';
import { fixturesTest } from '../helpers/fixtures.js';

const BLOCK = [
  [2101, 3044],
  [2102, 3044],
  [2101, 3045],
  [2102, 3045],
] as const;

function chicagoArchive(): Uint8Array {
  const tiles = BLOCK.map(([x, y]) => ({ z: 13, x, y, data: readBytes(path.join(MVT_FIXTURES, `chicago/13-${x}-${y}.mvt`)) }));
  return writePmtiles(tiles, {
    tileType: 1,
    gzipTiles: true,
    metadata: { attribution: '© Mapbox © OpenStreetMap', vector_layers: ['landuse', 'road', 'water', 'building'].map((id) => ({ id })) },
  });
}

describe('pmtiles source', () => {
  test('an archive of real tiles gives exactly what the same tiles give from templates', async () => {
    const pm = createPmtilesSource('pm', { type: 'pmtiles', url: 'chicago.pmtiles' }, ctxOf(new MemoryLoader({ 'chicago.pmtiles': chicagoArchive() })));
    const tpl = createMvtSource(
      'tpl',
      { type: 'mvt', tiles: ['chicago/{z}-{x}-{y}.mvt'], minzoom: 13, maxzoom: 13 },
      ctxOf(new NodeLoader({ baseDir: MVT_FIXTURES })),
    );
    const block: Canvas = { z: 13, x0: 2101 * 256 + 100, y0: 3044 * 256 + 100, width: 312, height: 312, tileSize: 256 };
    for (const layer of ['landuse', 'road']) {
      const a = await pm.features(layer, block);
      const b = await tpl.features(layer, block);
      expect(a.length).toBe(b.length);
      expect(polygonArea(a)).toBeCloseTo(polygonArea(b), 6);
      expect(lineLength(a)).toBeCloseTo(lineLength(b), 6);
    }
    // Zooms and layers come from the archive.
    expect([pm.minzoom, pm.maxzoom]).toEqual([13, 13]);
    expect(pm.layers()).toEqual(['landuse', 'road', 'water', 'building']);
    expect(await pm.attribution()).toEqual(['© Mapbox © OpenStreetMap']);
    // Over-zoom from the archive's maxzoom; below its minzoom nothing.
    expect((await pm.features('water', tileWindow({ z: 15, x: 8406, y: 12178 }, 256))).length).toBeGreaterThan(0);
    expect(await pm.features('water', tileWindow({ z: 12, x: 1050, y: 1522 }, 256))).toEqual([]);
  });

  test('tiles the archive does not hold are empty, not errors', async () => {
    const pm = createPmtilesSource('pm', { type: 'pmtiles', url: 'chicago.pmtiles' }, ctxOf(new MemoryLoader({ 'chicago.pmtiles': chicagoArchive() })));
    expect(await pm.features('road', tileWindow({ z: 13, x: 2200, y: 3044 }, 256))).toEqual([]);
  });

  fixturesTest('Florence: zooms, layers and attribution from the real archive; roads in central Florence', async () => {
    const pm = createPmtilesSource(
      'fi',
      { type: 'pmtiles', url: 'protomaps_vector_ODbL_firenze.pmtiles' },
      ctxOf(new NodeLoader({ baseDir: path.join(FIXTURES, 'pmtiles') })),
    );
    const roads = await pm.features('roads', tileWindow({ z: 14, x: 8704, y: 5972 }, 256));
    // Manifest: 2331 road lines in this tile (pieces inside the tile; a few may fall in the buffer only).
    expect(roads.length).toBeGreaterThan(2000);
    expect([pm.minzoom, pm.maxzoom]).toEqual([0, 14]);
    expect(pm.layers()).toEqual(expect.arrayContaining(['earth', 'water', 'roads', 'buildings', 'pois']));
    const attr = (await pm.attribution()).join(' ');
    expect(attr).toMatch(/OpenStreetMap/);
    // Over-zoomed to z16 (a quarter of the z14 tile): still the same roads, four times the scale.
    const z16 = await pm.features('roads', tileWindow({ z: 16, x: 8704 * 4 + 1, y: 5972 * 4 + 1 }, 256));
    expect(z16.length).toBeGreaterThan(100);
    await expect(pm.features('road', tileWindow({ z: 14, x: 8704, y: 5972 }, 256))).rejects.toThrow(/source 'fi'.*unknown layer 'road'.*roads/);
    // The archive's metadata omits 'landuse', but its tiles hold it (139 features in this tile): accepted.
    expect(pm.layers()).not.toContain('landuse');
    expect((await pm.features('landuse', tileWindow({ z: 14, x: 8704, y: 5972 }, 256))).length).toBeGreaterThan(100);
  });

  fixturesTest('test_fixture_1: one polygon at z0', async () => {
    const pm = createPmtilesSource('t', { type: 'pmtiles', url: 'test_fixture_1.pmtiles' }, ctxOf(new NodeLoader({ baseDir: path.join(FIXTURES, 'pmtiles') })));
    const g = await pm.features('test_fixture_1pmtiles', tileWindow({ z: 0, x: 0, y: 0 }, 256));
    expect(g.length).toBe(1);
    expect(g[0]!.polygons.length).toBe(1);
    // Bounds [0, 0, 1, 1] degrees: a tiny square just north-east of (128, 128).
    const ring = g[0]!.polygons[0]![0]!;
    for (let i = 0; i < ring.length; i += 2) {
      expect(ring[i]).toBeGreaterThanOrEqual(127.9);
      expect(ring[i]).toBeLessThanOrEqual(129);
      expect(ring[i + 1]).toBeGreaterThanOrEqual(127);
      expect(ring[i + 1]).toBeLessThanOrEqual(128.1);
    }
  });
});
