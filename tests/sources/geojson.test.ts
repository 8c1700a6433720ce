// geojson source: inline data with known geometry, world-atlas TopoJSON (npm), and Natural Earth
// from ../shared/fixtures.
import path from 'node:path';
import { GEOJSON_CONVERTED_MAX, GEOJSON_DRILLED_MAX, GEOJSON_SAMPLED_ONCE_MAX, GeojsonSource } from '../../src/sources/geojson.js';
import { TileCache } from '../../src/sources/cache.js';
import { NodeLoader } from '../../src/hosts/node/loader.js';
import { lngLatToPixel } from '../../src/sources/tiles.js';
import { ringArea } from '../../src/geometry/clip.js';
import { tileWindow, type Canvas } from '../../src/types.js';
import { FIXTURES, pointCount, polygonArea } from './helpers.js';
import type { SourceDecl } from '../../src/style/types.js';
import { fixturesTest } from '../helpers/fixtures.js';

const inline = (data: object, extra: Partial<SourceDecl> = {}) => new GeojsonSource({ name: 'g', decl: { type: 'geojson', data, ...extra } });

describe('geojson source', () => {
  test('a square polygon with an id, spanning four tiles, comes back as one group with its exact area', async () => {
    // Square from lng/lat (-10, -10) to (10, 10): straddles the z2 tile corner at (0, 0).
    const sq = [
      [-10, -10],
      [10, -10],
      [10, 10],
      [-10, 10],
      [-10, -10],
    ];
    const src = inline(
      { type: 'FeatureCollection', features: [{ type: 'Feature', id: 7, properties: { k: 1 }, geometry: { type: 'Polygon', coordinates: [sq] } }] },
      { tolerance: 0 },
    );
    const canvas: Canvas = { z: 2, x0: 256, y0: 256, width: 512, height: 512, tileSize: 256 };
    const groups = await src.features('g', canvas);
    expect(groups.length).toBe(1);
    expect(groups[0]!.id).toBe(7);
    expect(groups[0]!.polygons.length).toBe(4); // one piece per tile, merged by id
    const [x0, y0] = lngLatToPixel(-10, 10, 2, 256);
    const [x1, y1] = lngLatToPixel(10, -10, 2, 256);
    // geojson-vt quantizes to 1/8192 of a tile.
    expect(polygonArea(groups)).toBeCloseTo((x1 - x0) * (y1 - y0), 0);
    for (const p of groups[0]!.polygons) expect(ringArea(p[0]!)).toBeGreaterThan(0);
  });

  test('x wraps at the antimeridian: a canvas west of x = 0 sees features near lng 180', async () => {
    const src = inline({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [179, 0] } });
    // One tile-width west of the world's left edge at z1: the unwrapped column -1 is column 1.
    const canvas: Canvas = { z: 1, x0: -256, y0: 0, width: 256, height: 512, tileSize: 256 };
    const g = await src.features('g', canvas);
    expect(pointCount(g)).toBe(1);
    const [px] = lngLatToPixel(179, 0, 1, 256);
    expect(g[0]!.points[0]).toBeCloseTo(px - 512, 1);
  });

  test('y clamps at the poles: a canvas reaching above the world gets the top row only', async () => {
    const src = inline({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [10, 80] } });
    const g = await src.features('g', { z: 0, x0: 0, y0: -100, width: 256, height: 200, tileSize: 256 });
    expect(pointCount(g)).toBe(1);
  });

  test('TopoJSON through the npm: scheme (world-atlas countries)', async () => {
    const src = new GeojsonSource({
      name: 'world',
      decl: { type: 'geojson', data: 'npm:world-atlas/countries-110m.json' },
      loader: new NodeLoader({ baseDir: process.cwd() }),
    });
    const g = await src.features('world', tileWindow({ z: 0, x: 0, y: 0 }, 256));
    expect(g.length).toBeGreaterThan(150);
  });

  test('one feature is one group whether a canvas covers one source tile or several (world-atlas land, a tile holding two copies of it)', async () => {
    // The stipple example's land at 2/0/1 at pixel ratio 2: geojson-vt's tile 2/1/1 holds the
    // MultiPolygon twice (a world copy), and the canvas of a 2x2 window put the copy's pieces in a
    // group of their own, which a buffer then eroded apart from its neighbours along the tile edge.
    const src = new GeojsonSource({
      name: 'land',
      decl: { type: 'geojson', data: 'npm:world-atlas/land-110m.json', maxzoom: 6 },
      loader: new NodeLoader({ baseDir: process.cwd() }),
    });
    for (const canvas of [
      { z: 2, x0: -34, y0: 478, width: 580, height: 580, tileSize: 512 },
      { z: 2, x0: -34, y0: 478, width: 1092, height: 1092, tileSize: 512 },
      { z: 1, x0: 0, y0: 0, width: 256, height: 256, tileSize: 256 },
    ]) {
      const groups = await src.features('land', canvas);
      expect({ canvas, groups: groups.length }).toEqual({ canvas, groups: 1 });
    }
  });

  test('edges along the antimeridian are cuts, in a canvas of one source tile as in a canvas across x = W (world-atlas Antarctica)', async () => {
    // Antarctica is closed through the pole along ±180°: never a boundary to stroke. A tile canvas
    // holding that edge inside one source tile's data, and a window whose source tiles meet there,
    // must both flag it (before, only the second did: the world example's borders differed at z0).
    const src = new GeojsonSource({
      name: 'w',
      decl: { type: 'geojson', data: 'npm:world-atlas/countries-110m.json' },
      loader: new NodeLoader({ baseDir: process.cwd() }),
    });
    for (const canvas of [
      { z: 1, x0: -1, y0: 255, width: 258, height: 258, tileSize: 256 },
      { z: 1, x0: 384, y0: 255, width: 256, height: 258, tileSize: 256 },
    ]) {
      const W = 512;
      const ant = (await src.features('w', canvas)).find((g) => g.properties.name === 'Antarctica')!;
      let onMeridian = 0,
        flagged = 0;
      ant.polygons.forEach((poly, p) =>
        poly.forEach((ring, k) => {
          const n = ring.length / 2;
          for (let i = 0; i < n; i++) {
            const x = ring[i * 2]!;
            if (x !== ring[((i + 1) % n) * 2] || x % W !== 0) continue;
            onMeridian++;
            if (ant.polygonCuts?.[p]?.[k]?.[i] === 1) flagged++;
          }
        }),
      );
      expect({ canvas, onMeridian: onMeridian > 0, flagged }).toEqual({ canvas, onMeridian: true, flagged: onMeridian });
    }
  });

  test('a feature without properties still merges across tiles', async () => {
    const sq = [
      [-10, -10],
      [10, -10],
      [10, 10],
      [-10, 10],
      [-10, -10],
    ];
    const src = inline(
      { type: 'FeatureCollection', features: [{ type: 'Feature', properties: null, geometry: { type: 'Polygon', coordinates: [sq] } }] },
      { tolerance: 0 },
    );
    const groups = await src.features('g', { z: 2, x0: 256, y0: 256, width: 512, height: 512, tileSize: 256 });
    expect(groups.map((g) => g.polygons.length)).toEqual([4]);
    const bare = inline({ type: 'Polygon', coordinates: [sq] }, { tolerance: 0 });
    expect((await bare.features('g', { z: 2, x0: 256, y0: 256, width: 512, height: 512, tileSize: 256 })).map((g) => g.polygons.length)).toEqual([4]);
  });

  fixturesTest('Natural Earth countries and places; the null-geometry feature is skipped', async () => {
    const loader = new NodeLoader({ baseDir: path.join(FIXTURES, 'geojson') });
    const countries = new GeojsonSource({ name: 'c', decl: { type: 'geojson', data: 'ne_110m_admin_0_countries.geojson' }, loader });
    const world = await countries.features('c', tileWindow({ z: 0, x: 0, y: 0 }, 256));
    // Every country is there, once: geojson-vt's copies of a feature across the antimeridian (which
    // share a tile with the feature) are pieces of its one group.
    expect(new Set(world.map((g) => g.properties.ADMIN)).size).toBe(177);
    expect(world).toHaveLength(177);
    const places = new GeojsonSource({ name: 'p', decl: { type: 'geojson', data: 'supercluster-places.geojson' }, loader });
    // 162 points plus one null geometry ("Null Island"), which yields nothing.
    const all = await places.features('p', tileWindow({ z: 0, x: 0, y: 0 }, 256));
    let inWorld = 0;
    for (const g of all) for (let i = 0; i < g.points.length; i += 2) if (g.points[i]! >= 0 && g.points[i]! < 256) inWorld++;
    expect(inWorld).toBe(162);
    expect(all.some((g) => g.properties.name === 'Null Island')).toBe(false);
  });
});

// geojson-vt keeps every tile it drills down to; a server asked for ever new deep tiles grew
// without bound (issue 23). Witness of the result: the same source freshly built (never trimmed).
test('the tiles geojson-vt drills down to stay bounded, and a trimmed index samples as a fresh one', async () => {
  const decl: SourceDecl = { type: 'geojson', data: 'npm:world-atlas/countries-110m.json' };
  const make = () => new GeojsonSource({ name: 'c', decl, loader: new NodeLoader({ baseDir: process.cwd() }) });
  const src = make();
  // Distinct z14 tiles scattered over Europe and Africa (each drills down through up to 14 zooms).
  const canvas = (i: number): Canvas => {
    const x = 8192 + ((i * 7919) % 1200) * 3;
    const y = 5200 + ((i * 104729) % 900) * 4;
    return tileWindow({ z: 14, x, y }, 256);
  };
  let peak = 0;
  let trims = 0;
  let last = 0;
  for (let i = 0; i < 700; i++) {
    await src.features('c', canvas(i));
    const d = src.drilled;
    if (d.tiles < last) trims++;
    last = d.tiles;
    peak = Math.max(peak, d.tiles);
    expect(d.points).toBeLessThanOrEqual(GEOJSON_DRILLED_MAX.points + 100_000);
  }
  expect(trims).toBeGreaterThan(0);
  // One sample drills at most 4 tiles a zoom past the bound.
  expect(peak).toBeLessThanOrEqual(GEOJSON_DRILLED_MAX.tiles + 4 * 15);
  const fresh = make();
  let groups = 0;
  for (const i of [0, 1, 350, 699]) {
    const got = await src.features('c', canvas(i));
    expect(got).toEqual(await fresh.features('c', canvas(i)));
    groups += got.length;
  }
  expect(groups).toBeGreaterThan(0); // land, not only sea
});

// One tile render samples the same source tiles for each canvas that reads the source (a padded
// fill, a stroke, labels): each geojson-vt tile is converted once, and the cache of conversions is
// bounded. Witnesses: the count of source tiles a canvas covers (closed form: a 256 px canvas on
// the tile grid with a pad reaches its neighbours) and a fresh source's answer (never cached).
test('geojson-vt tiles are converted once and the conversions stay bounded', async () => {
  const decl: SourceDecl = { type: 'geojson', data: 'npm:world-atlas/countries-110m.json', maxzoom: 6 };
  const make = () => new GeojsonSource({ name: 'c', decl, loader: new NodeLoader({ baseDir: process.cwd() }) });
  const src = make();
  const tile = tileWindow({ z: 4, x: 8, y: 5 }, 256);
  const padded: Canvas = { ...tile, x0: tile.x0 - 36, y0: tile.y0 - 36, width: 328, height: 328 };
  const first = await src.features('c', tile);
  const one = src.conversions;
  expect(one.converted).toBeGreaterThanOrEqual(1);
  expect(one.hits).toBe(0);
  // The padded canvas covers the same tile and its 8 neighbours: only those 8 are new.
  const second = await src.features('c', padded);
  expect(src.conversions.converted - one.converted).toBeLessThanOrEqual(8);
  expect(src.conversions.hits).toBeGreaterThanOrEqual(one.converted);
  const again = src.conversions.converted;
  await src.features('c', tile);
  await src.features('c', padded);
  expect(src.conversions.converted).toBe(again); // every tile from the cache
  const fresh = make();
  expect(await fresh.features('c', tile)).toEqual(first);
  expect(await make().features('c', padded)).toEqual(second);

  const saved = { ...GEOJSON_CONVERTED_MAX };
  GEOJSON_CONVERTED_MAX.tiles = 5;
  try {
    for (let x = 0; x < 16; x++) await src.features('c', tileWindow({ z: 4, x, y: 6 }, 256));
    expect(src.conversions.tiles).toBeLessThanOrEqual(5);
    expect(await src.features('c', padded)).toEqual(second); // evicted tiles convert again, to the same
  } finally {
    Object.assign(GEOJSON_CONVERTED_MAX, saved);
  }
});

// A canvas's sampled groups enter the source cache the second time it is sampled (a server's
// uncached tiles are each sampled once; keeping them cost the collector, issue 25). Witnesses: the
// cache's own counters, and the answer of a source without a cache.
test("sampled groups are kept from a canvas's second sample on", async () => {
  const decl: SourceDecl = { type: 'geojson', data: 'npm:world-atlas/countries-110m.json', maxzoom: 6 };
  const cache = new TileCache();
  const src = new GeojsonSource({ name: 'c', decl, loader: new NodeLoader({ baseDir: process.cwd() }), cache });
  const plain = new GeojsonSource({ name: 'c', decl, loader: new NodeLoader({ baseDir: process.cwd() }) });
  const tile = tileWindow({ z: 3, x: 4, y: 2 }, 256);
  const want = await plain.features('c', tile);
  expect(want.length).toBeGreaterThan(0);
  expect(await src.features('c', tile)).toEqual(want);
  expect(cache.stats).toMatchObject({ loads: 0, entries: 0 });
  expect(await src.features('c', tile)).toEqual(want);
  expect(cache.stats).toMatchObject({ loads: 1, hits: 0, entries: 1 });
  const third = await src.features('c', tile);
  expect(third).toEqual(want);
  expect(cache.stats).toMatchObject({ loads: 1, hits: 1, entries: 1 });
  expect(await src.features('c', tile)).toBe(third); // the kept groups themselves
  // The keys of canvases seen once are bounded: past GEOJSON_SAMPLED_ONCE_MAX others, the first is new again.
  const shifted = (i: number): Canvas => ({ ...tile, x0: tile.x0 + 1 + i });
  for (let i = 0; i <= GEOJSON_SAMPLED_ONCE_MAX; i++) await src.features('c', shifted(i));
  expect(cache.stats.entries).toBe(1);
  await src.features('c', shifted(0)); // forgotten: seen once again, not kept
  expect(cache.stats.entries).toBe(1);
  await src.features('c', shifted(GEOJSON_SAMPLED_ONCE_MAX)); // remembered: kept
  expect(cache.stats.entries).toBe(2);
}, 120_000);
