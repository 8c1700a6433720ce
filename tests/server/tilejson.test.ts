// TileJSON `bounds`, `center` and `minzoom` from where the style's data is (issue 15 item 2, issue
// 19 part 6): declared source bounds, a PMTiles header, a GeoJSON extent; the world only when a
// source cannot say. Witnesses: the PMTiles header as the `pmtiles` package reads it; coordinates
// written in the test (a GeoJSON extent is their minimum and maximum).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PMTiles, type Source } from 'pmtiles';
import { serve } from '../../src/hosts/server/serve.js';
import { geojsonExtent, pmtilesHeaderExtent, fitZoom } from '../../src/sources/extent.js';
import { fixture, fixturesTest } from '../helpers/fixtures.js';
import { ROOT } from './fixtures.js';

interface TileJson {
  bounds: number[];
  center: number[];
  minzoom: number;
  maxzoom: number;
}

const WORLD = [-180, -85.0511287798066, 180, 85.0511287798066];

async function tilejson(style: string, extra: object = {}): Promise<TileJson> {
  const s = await serve({ style, port: 0, workers: 0, backend: 'cpu', log: () => undefined, allowOutside: true, ...extra });
  try {
    return (await (await fetch(`${s.url}tilejson.json`)).json()) as TileJson;
  } finally {
    await s.close(0);
  }
}

/** A style file in a temp dir: a background and one node per source. */
function styleFile(sources: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tg-tilejson-'));
  const nodes: Record<string, unknown> = { bg: { op: 'solid', color: '#ffffff' } };
  for (const name of Object.keys(sources)) nodes[name] = { op: 'features', source: name, ...(name.startsWith('v') ? { layer: 'x' } : {}) };
  const file = path.join(dir, 'style.json');
  writeFileSync(file, JSON.stringify({ name: 't', output: 'bg', sources, nodes }));
  return file;
}

/** A Source for the pmtiles package over a file's bytes (the package's own header parser reads it). */
function fileSource(file: string): Source {
  const buf = readFileSync(file);
  return {
    getKey: () => file,
    getBytes: async (offset: number, length: number) => ({ data: new Uint8Array(buf.subarray(offset, offset + length)).buffer }),
  };
}

fixturesTest('the Florence PMTiles style says Florence: bounds, centre and minzoom of the header as the pmtiles package reads it', async () => {
  const h = await new PMTiles(fileSource(fixture('pmtiles/protomaps_vector_ODbL_firenze.pmtiles'))).getHeader();
  const tj = await tilejson(path.join(ROOT, 'golden/source-pmtiles-florence/style.json'));
  // The header stores degrees as int32 * 1e-7: equal to that precision.
  expect(tj.bounds).toHaveLength(4);
  [h.minLon, h.minLat, h.maxLon, h.maxLat].forEach((v, i) => expect(tj.bounds[i]).toBeCloseTo(v, 7));
  expect(tj.center[0]).toBeCloseTo(h.centerLon, 7);
  expect(tj.center[1]).toBeCloseTo(h.centerLat, 7);
  expect(tj.minzoom).toBe(h.minZoom);
  // The header's centre zoom is 0 (unset): the zoom at which the bounds fit 512 px (0.175 deg of
  // longitude: log2(360 / 0.175) = 11.0).
  expect(h.centerZoom).toBe(0);
  expect(tj.center[2]).toBe(Math.floor(Math.log2(360 / (h.maxLon - h.minLon))));
  // Tiles are rendered past the archive's maxzoom (over-zoomed): the server's deepest zoom.
  expect([h.maxZoom, tj.maxzoom]).toEqual([14, 22]);
  // Our own header reader agrees with the package's.
  const ours = pmtilesHeaderExtent(new Uint8Array(readFileSync(fixture('pmtiles/protomaps_vector_ODbL_firenze.pmtiles')).subarray(0, 127)));
  expect(ours!.bounds).toEqual([h.minLon, h.minLat, h.maxLon, h.maxLat]);
});

test("declared mvt bounds and minzoom (San Francisco): the declared bounds, their middle, no zoom below the source's", async () => {
  const tj = await tilejson(path.join(ROOT, 'examples/heatmap/style.json'));
  const decl = JSON.parse(readFileSync(path.join(ROOT, 'examples/heatmap/style.json'), 'utf8')).sources;
  const declared = (Object.values(decl) as { bounds: number[] }[])[0]!.bounds;
  expect(tj.bounds).toEqual(declared);
  expect(tj.center[0]).toBeCloseTo((-122.464589 + -122.431652) / 2, 5);
  expect(tj.center[1]).toBeCloseTo((37.753353 + 37.77939) / 2, 5);
  // The bounds fit at z13, but the source's tiles start at its minzoom 15 (below, the heatmap is empty).
  expect(fitZoom(declared as [number, number, number, number], 0, 22)).toBe(13);
  expect([tj.minzoom, tj.center[2]]).toEqual([15, 15]);
  // --max-zoom clamps the zooms.
  const sf = await tilejson(path.join(ROOT, 'examples/heatmap/style.json'), { maxZoom: 10 });
  expect([sf.center[2], sf.maxzoom]).toEqual([10, 10]);
});

test('a GeoJSON source: the extent of its coordinates; a declared minzoom is the TileJSON minzoom', async () => {
  const data = {
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [2.25, 48.75] } },
      {
        type: 'Feature',
        properties: {},
        geometry: {
          type: 'LineString',
          coordinates: [
            [2.5, 48.5],
            [3, 49],
          ],
        },
      },
    ],
  };
  const tj = await tilejson(styleFile({ g: { type: 'geojson', data, minzoom: 5 } }));
  expect(tj.bounds).toEqual([2.25, 48.5, 3, 49]);
  expect([tj.center[0], tj.center[1]]).toEqual([2.625, 48.75]);
  expect(tj.minzoom).toBe(5);
  // Two sources: their union, and the lower minzoom.
  const two = await tilejson(
    styleFile({ g: { type: 'geojson', data, minzoom: 5 }, h: { type: 'geojson', data: { type: 'Point', coordinates: [-1, 50] }, minzoom: 3 } }),
  );
  expect([two.bounds, two.minzoom]).toEqual([[-1, 48.5, 3, 50], 3]);
});

test('the world when a source cannot say where its data is (a tile template without bounds), when there is no source, or for world-wide data', async () => {
  const point = { type: 'Point', coordinates: [10, 10] };
  const open = await tilejson(styleFile({ g: { type: 'geojson', data: point }, vt: { type: 'mvt', tiles: ['http://127.0.0.1:9/{z}/{x}/{y}.pbf'] } }));
  expect([open.bounds, open.minzoom]).toEqual([WORLD, 0]);
  const none = await tilejson(path.join(ROOT, 'golden/solid-param/style.json'));
  expect([none.bounds, none.center, none.minzoom, none.maxzoom]).toEqual([WORLD, [0, 0, 0], 0, 22]);
  // world-atlas's TopoJSON bbox reaches below -85.05: clamped to the Mercator world.
  const world = await tilejson(path.join(ROOT, 'examples/world/style.json'));
  expect(world.bounds[0]).toBe(-180);
  expect(world.bounds[2]).toBe(180);
  expect(world.bounds[1]).toBeGreaterThanOrEqual(WORLD[1]!);
  expect(world.center[2]).toBe(0);
});

test('bounds given to the server are advertised as they are', async () => {
  const tj = await tilejson(path.join(ROOT, 'examples/heatmap/style.json'), { bounds: [0, 0, 10, 10] });
  expect(tj.bounds).toEqual([0, 0, 10, 10]);
  expect(tj.center).toEqual([5, 5, 0]);
});

test('extent helpers: GeoJSON coordinates, TopoJSON bbox, fitZoom', () => {
  expect(
    geojsonExtent({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          geometry: {
            type: 'MultiPoint',
            coordinates: [
              [1, 2],
              [-3, 5],
            ],
          },
        },
        { type: 'Feature', geometry: { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [7, -1] }] } },
      ],
    }),
  ).toEqual([-3, -1, 7, 5]);
  expect(geojsonExtent({ type: 'Topology', bbox: [0, 1, 2, 3] })).toEqual([0, 1, 2, 3]);
  expect(geojsonExtent({ type: 'FeatureCollection', features: [] })).toBeUndefined();
  expect(fitZoom([-180, -85, 180, 85], 0, 22)).toBe(0);
  expect(fitZoom([0, 0, 1, 1], 0, 22)).toBe(8);
  expect(fitZoom([0, 0, 1, 1], 0, 5)).toBe(5);
});
