// TileJSON `center` from where the style's data is (issue 15 item 2): declared source bounds, a
// PMTiles header, a GeoJSON extent; a world-wide source keeps the served area's centre.
import path from 'node:path';
import { serve } from '../../src/hosts/server/serve.js';
import { geojsonExtent, pmtilesHeaderExtent, fitZoom } from '../../src/sources/extent.js';
import { fixturesTest } from '../helpers/fixtures.js';
import { ROOT } from './fixtures.js';
import { readFileSync } from 'node:fs';

async function tilejson(style: string, extra: object = {}): Promise<{ bounds: number[]; center: number[] }> {
  const s = await serve({ style, port: 0, workers: 0, backend: 'cpu', log: () => undefined, allowOutside: true, ...extra });
  try {
    return (await (await fetch(`${s.url}tilejson.json`)).json()) as { bounds: number[]; center: number[] };
  } finally {
    await s.close(0);
  }
}

test('declared mvt bounds (San Francisco): the centre of the bounds at a zoom that fits them; bounds stay the served area', async () => {
  const tj = await tilejson(path.join(ROOT, 'examples/heatmap/style.json'));
  expect(tj.center[0]).toBeCloseTo((-122.464589 + -122.431652) / 2, 5);
  expect(tj.center[1]).toBeCloseTo((37.753353 + 37.77939) / 2, 5);
  expect(tj.center[2]).toBe(13);
  expect(tj.bounds).toEqual([-180, -85.0511287798066, 180, 85.0511287798066]);
});

test('a world-wide GeoJSON source keeps the default centre; --max-zoom clamps the fitted zoom', async () => {
  const world = await tilejson(path.join(ROOT, 'examples/world/style.json'));
  expect(world.center).toEqual([0, 0, 0]);
  const sf = await tilejson(path.join(ROOT, 'examples/heatmap/style.json'), { maxZoom: 10 });
  expect(sf.center[2]).toBe(10);
});

fixturesTest('a PMTiles archive: its header centre', async () => {
  const tj = await tilejson(path.join(ROOT, 'golden/source-pmtiles-florence/style.json'));
  expect(tj.center[0]).toBeCloseTo(11.2414827, 6);
  expect(tj.center[1]).toBeCloseTo(43.779779, 6);
  // The header's centre zoom is 0 (unset): the zoom that fits the archive's bounds instead.
  expect(tj.center[2]).toBe(11);
  const h = pmtilesHeaderExtent(
    new Uint8Array(readFileSync(path.join(ROOT, '../shared/fixtures/pmtiles/protomaps_vector_ODbL_firenze.pmtiles')).subarray(0, 127)),
  );
  expect(h!.bounds).toEqual([11.154026, 43.7270125, 11.3289395, 43.8325455]);
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
