// mvt source: real tiles (Mapbox Streets v7 blocks from @mapbox/mvt-fixtures; the Berlin tile of
// vector-tile-js from ../shared/fixtures), checked against vector-tile-js's own decoding.
import path from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { createMvtSource } from '../../src/sources/mvt.js';
import { NodeLoader } from '../../src/hosts/node/loader.js';
import { clipLine, clipRing, ringArea, type Rect } from '../../src/geometry/clip.js';
import { pixelToLngLat } from '../../src/sources/tiles.js';
import { tileWindow, type Canvas, type FeatureGroup } from '../../src/types.js';
import { TileCache } from '../../src/sources/cache.js';
import { ctxOf, FIXTURES, MVT_FIXTURES, readBytes, pointCount } from './helpers.js';
import { fixturesTest } from '../helpers/fixtures.js';

const chicago = (cache = new TileCache()) =>
  createMvtSource(
    'streets',
    { type: 'mvt', tiles: ['chicago/{z}-{x}-{y}.mvt'], minzoom: 13, maxzoom: 13 },
    ctxOf(new NodeLoader({ baseDir: MVT_FIXTURES }), cache),
  );

const rectOf = (c: Canvas): Rect => ({ x0: c.x0, y0: c.y0, x1: c.x0 + c.width, y1: c.y0 + c.height });

/** Area of the polygons inside a rectangle (a measure, independent of where the source clipped). */
function areaIn(groups: FeatureGroup[], r: Rect): number {
  let a = 0;
  for (const g of groups) for (const p of g.polygons) for (const ring of p) a += ringArea(clipRing(ring, r));
  return a;
}
function lengthIn(groups: FeatureGroup[], r: Rect): number {
  let len = 0;
  for (const g of groups)
    for (const l of g.lines)
      for (const piece of clipLine(l, r))
        for (let i = 2; i < piece.line.length; i += 2) len += Math.hypot(piece.line[i]! - piece.line[i - 2]!, piece.line[i + 1]! - piece.line[i - 1]!);
  return len;
}
function pointsIn(groups: FeatureGroup[], r: Rect): number {
  let n = 0;
  for (const g of groups)
    for (let i = 0; i < g.points.length; i += 2) if (g.points[i]! >= r.x0 && g.points[i]! < r.x1 && g.points[i + 1]! >= r.y0 && g.points[i + 1]! < r.y1) n++;
  return n;
}

/** Reference: vector-tile-js geometry of one layer, scaled to world pixels of tile z/x/y at tileSize. */
function reference(bytes: Uint8Array, layer: string, x: number, y: number, tileSize: number) {
  const l = new VectorTile(new Pbf(bytes)).layers[layer]!;
  const s = tileSize / l.extent;
  const feats = [];
  for (let i = 0; i < l.length; i++) {
    const f = l.feature(i);
    const rings = f.loadGeometry().map((r) => r.flatMap((p) => [x * tileSize + p.x * s, y * tileSize + p.y * s]));
    feats.push({ type: f.type, id: f.id, rings, bbox: f.bbox() });
  }
  return { extent: l.extent, feats };
}

describe('mvt source', () => {
  test('a tile rendered on its own gives the features vector-tile-js decodes, exteriors clockwise', async () => {
    const src = chicago();
    const win = tileWindow({ z: 13, x: 2101, y: 3044 }, 256);
    const groups = await src.features('building', win);
    const ref = reference(readBytes(path.join(MVT_FIXTURES, 'chicago/13-2101-3044.mvt')), 'building', 2101, 3044, 256);
    // Buildings wholly inside the tile come through untouched: same count of rings, same area.
    const inside = ref.feats.filter((f) => f.bbox[0]! >= 0 && f.bbox[1]! >= 0 && f.bbox[2]! <= ref.extent && f.bbox[3]! <= ref.extent);
    expect(inside.length).toBeGreaterThan(5);
    const refArea = inside.reduce((a, f) => a + f.rings.reduce((b, r) => b + ringArea(r.slice(0, -2)), 0), 0);
    const ids = new Set(inside.map((f) => f.id));
    const ours = groups.filter((g) => ids.has(g.id as number));
    expect(ours.length).toBe(inside.length);
    const ourArea = ours.reduce((a, g) => a + g.polygons.reduce((b, p) => b + p.reduce((c, r) => c + ringArea(r), 0), 0), 0);
    expect(ourArea).toBeGreaterThan(0);
    expect(ourArea).toBeCloseTo(refArea, 6);
    for (const g of groups)
      for (const p of g.polygons) {
        expect(ringArea(p[0]!)).toBeGreaterThan(0);
        for (const hole of p.slice(1)) expect(ringArea(hole)).toBeLessThan(0);
      }
  });

  test('gzip-compressed tiles are detected and inflated (mvt-fixtures compressed block)', async () => {
    const src = createMvtSource(
      'c',
      { type: 'mvt', tiles: ['compressed/{z}-{x}-{y}.mvt.gz'], minzoom: 14, maxzoom: 14 },
      ctxOf(new NodeLoader({ baseDir: MVT_FIXTURES })),
    );
    const groups = await src.features('road', tileWindow({ z: 14, x: 9384, y: 9577 }, 512));
    // Real data: the road layer holds 72 line features and 2 point features (fixture manifest).
    expect(groups.filter((g) => g.lines.length).length).toBeGreaterThan(50);
    expect(groups.filter((g) => g.points.length).length).toBe(2);
    expect(pointCount(groups)).toBeGreaterThanOrEqual(2);
  });

  test('seams: a 2x2 block sampled as one canvas equals its four tiles sampled one by one', async () => {
    const src = chicago();
    const block: Canvas = { z: 13, x0: 2101 * 256, y0: 3044 * 256, width: 512, height: 512, tileSize: 256 };
    for (const layer of ['landuse', 'road', 'poi_label', 'water']) {
      const whole = await src.features(layer, block);
      let area = 0,
        length = 0,
        points = 0;
      for (const [x, y] of [
        [2101, 3044],
        [2102, 3044],
        [2101, 3045],
        [2102, 3045],
      ] as const) {
        const w = tileWindow({ z: 13, x, y }, 256);
        const g = await src.features(layer, w);
        area += areaIn(g, rectOf(w));
        length += lengthIn(g, rectOf(w));
        points += pointsIn(g, rectOf(w));
      }
      const r = rectOf(block);
      expect(areaIn(whole, r)).toBeCloseTo(area, 3);
      expect(lengthIn(whole, r)).toBeCloseTo(length, 3);
      expect(pointsIn(whole, r)).toBe(points);
    }
  });

  test('edges made on a seam between source tiles are flagged; reused ids of unrelated features do not merge', async () => {
    const src = chicago();
    const block: Canvas = { z: 13, x0: 2101 * 256, y0: 3044 * 256, width: 512, height: 256, tileSize: 256 };
    const seam = 2102 * 256;
    const crosses = (g: FeatureGroup) =>
      g.polygons.some((p) => p[0]!.some((v, i) => i % 2 === 0 && v < seam)) && g.polygons.some((p) => p[0]!.some((v, i) => i % 2 === 0 && v > seam));
    const landuse = await src.features('landuse', block);
    let onSeam = 0;
    for (const g of landuse)
      g.polygons.forEach((p, pi) =>
        p.forEach((ring, ri) => {
          const n = ring.length / 2;
          for (let i = 0; i < n; i++) {
            const j = (i + 1) % n;
            if (ring[i * 2] === seam && ring[j * 2] === seam) {
              onSeam++;
              expect(g.polygonCuts?.[pi]?.[ri]?.[i]).toBe(1);
            }
          }
        }),
      );
    expect(onSeam).toBeGreaterThan(0);
    // Streets v7 numbers buildings per tile (ids 1..13 in both tiles): they must stay apart.
    const buildings = await src.features('building', block);
    expect(buildings.length).toBeGreaterThan(15);
    expect(buildings.filter(crosses)).toEqual([]);
  });

  test('above maxzoom the maxzoom tile is over-zoomed: a z15 canvas is its z13 ancestor scaled by 4', async () => {
    const src = chicago();
    const z13 = await src.features('landuse', tileWindow({ z: 13, x: 2101, y: 3044 }, 256));
    // z15 tile (8405, 12177) is the second column, second row of the 4x4 grid inside z13 2101/3044.
    const w15 = tileWindow({ z: 15, x: 2101 * 4 + 1, y: 3044 * 4 + 1 }, 256);
    const z15 = await src.features('landuse', w15);
    const quadrant: Rect = { x0: w15.x0 / 4, y0: w15.y0 / 4, x1: (w15.x0 + 256) / 4, y1: (w15.y0 + 256) / 4 };
    expect(areaIn(z15, rectOf(w15))).toBeGreaterThan(1000);
    expect(areaIn(z15, rectOf(w15))).toBeCloseTo(16 * areaIn(z13, quadrant), 2);
  });

  test("neighbours are loaded only where the canvas reaches past a tile's own buffer (64/4096: 4 px at 256)", async () => {
    const base = new NodeLoader({ baseDir: MVT_FIXTURES });
    const loaded: string[] = [];
    const loader = { load: (ref: string) => (loaded.push(ref), base.load(ref)) };
    const src = createMvtSource('s', { type: 'mvt', tiles: ['chicago/{z}-{x}-{y}.mvt'], minzoom: 13, maxzoom: 13 }, ctxOf(loader));
    const tile = tileWindow({ z: 13, x: 2100, y: 3044 }, 256);
    await src.features('road', { ...tile, x0: tile.x0 - 3, y0: tile.y0 - 3, width: 262, height: 262 });
    expect(loaded).toEqual(['chicago/13-2100-3044.mvt']);
    await src.features('road', { ...tile, x0: tile.x0 - 5, y0: tile.y0, width: 261, height: 256 });
    // 5 px west: past the buffer, so the western neighbour comes in (the tile itself is cached).
    expect(loaded.slice(1)).toEqual(['chicago/13-2099-3044.mvt']);
  });

  test('below minzoom nothing is loaded', async () => {
    const cache = new TileCache();
    const src = chicago(cache);
    expect(await src.features('road', tileWindow({ z: 12, x: 1050, y: 1522 }, 256))).toEqual([]);
    expect(cache.stats.loads).toBe(0);
  });

  test('a declared layer list makes an unknown layer an error naming the source and the layer', async () => {
    const src = createMvtSource(
      'streets',
      { type: 'mvt', tiles: ['chicago/{z}-{x}-{y}.mvt'], minzoom: 13, maxzoom: 13, layers: ['road', 'water'] },
      ctxOf(new NodeLoader({ baseDir: MVT_FIXTURES })),
    );
    await expect(src.features('roads', tileWindow({ z: 13, x: 2101, y: 3044 }, 256))).rejects.toThrow(/source 'streets'.*unknown layer 'roads'.*road, water/);
    // A layer absent from a tile (tilesets omit empty layers) is no error, just no features.
    expect(await chicago().features('no_such_layer', tileWindow({ z: 13, x: 2101, y: 3044 }, 256))).toEqual([]);
  });

  fixturesTest('the Berlin street tile: Mauerpark lands where vector-tile-js puts it', async () => {
    const src = createMvtSource(
      'berlin',
      { type: 'mvt', tiles: ['{z}-{x}-{y}.mvt'], minzoom: 14, maxzoom: 14 },
      ctxOf(new NodeLoader({ baseDir: path.join(FIXTURES, 'mvt/vector-tile-js') })),
    );
    const groups = await src.features('poi_label', tileWindow({ z: 14, x: 8801, y: 5371 }, 512));
    const park = groups.find((g) => g.properties.name === 'Mauerpark')!;
    expect(park).toBeDefined();
    const [lng, lat] = pixelToLngLat(park.points[0]!, park.points[1]!, 14, 512);
    // The upstream unit test's expectation for this feature.
    expect(lng).toBeCloseTo(13.402258157730103, 6);
    expect(lat).toBeCloseTo(52.54398925380624, 6);
    // Layer version 1: buildings still come out as polygons with clockwise exteriors.
    const buildings = await src.features('building', tileWindow({ z: 14, x: 8801, y: 5371 }, 512));
    expect(buildings.length).toBeGreaterThan(900);
    for (const g of buildings) for (const p of g.polygons) expect(ringArea(p[0]!)).toBeGreaterThan(0);
  });
});
