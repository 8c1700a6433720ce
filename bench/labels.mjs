// Job 10 of ../shared/peers (Mapnik's TextSymbolizer), our rows: the same labels with the text op.
// 10a: Natural Earth places over the 16 z2 tiles, DejaVu Sans 11 px #222222, 1.5 px white halo,
//      6 px above the point, no overlaps (ranked by scalerank), 256 and 512 px.
// 10b: street names along the Berlin z14 tile's road_label lines, 10 px #333333, 1.5 px white halo,
//      spacing 200 px, 30 degrees between characters (the tile's layers decoded and cached: the
//      peers read pre-decoded GeoJSON).
// Our labels never break at a tile edge, so each tile reads the features around it (the margin);
// Mapnik reads a 64 px buffer and cuts labels at tile edges (peers/README.md).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Renderer, releaseRaster } from '../dist/index.js';
import { NodeLoader } from '../dist/hosts/node/index.js';
import { bench, record } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = process.env.FIXTURES || path.resolve(HERE, '../../shared/fixtures');
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const want = (job) => !only || only.test(job);
const tool = 'tilegraph cpu text';

if (!existsSync(FIXTURES)) {
  console.log('labels: no ../shared/fixtures, no rows');
  process.exit(0);
}

const renderer = (style) => Renderer.create(style, { loader: new NodeLoader({ baseDir: HERE, allowOutside: true }), onWarning: () => {} });

/** Job 10a as a style: white, the places' names (Mapnik's dy -6: the label's centre 6 px above the point). */
export const placesStyle = () => ({
  output: 'out',
  sources: { places: { type: 'geojson', data: path.join(FIXTURES, 'geojson/ne_110m_populated_places_simple.geojson') } },
  nodes: {
    bg: { op: 'solid', color: '#ffffff' },
    p: { op: 'features', source: 'places' },
    names: {
      op: 'text',
      features: '@p',
      'text-expr': ['get', 'name'],
      size: 11,
      color: '#222222',
      'halo-color': '#ffffff',
      'halo-width': 1.5,
      offset: [0, -6],
      'priority-expr': ['-', ['get', 'scalerank']],
      'max-extent': 96,
    },
    out: { op: 'blend', base: '@bg', over: '@names' },
  },
});

/** Job 10b as a style: the Berlin tile alone (`bounds`), street names along road_label. */
export const streetStyle = () => ({
  output: 'out',
  sources: {
    streets: {
      type: 'mvt',
      tiles: [path.join(FIXTURES, 'mvt/vector-tile-js/{z}-{x}-{y}.mvt')],
      minzoom: 14,
      maxzoom: 14,
      bounds: [13.381349, 52.536275, 13.403319, 52.549634],
    },
  },
  nodes: {
    bg: { op: 'solid', color: '#ffffff' },
    rl: { op: 'features', source: 'streets', layer: 'road_label' },
    names: {
      op: 'text',
      features: '@rl',
      'text-expr': ['get', 'name'],
      placement: 'line',
      size: 10,
      color: '#333333',
      'halo-color': '#ffffff',
      'halo-width': 1.5,
      spacing: 200,
      'max-angle': 30,
      'max-extent': 96,
    },
    out: { op: 'blend', base: '@bg', over: '@names' },
  },
});

async function timeTiles(r, tiles, size) {
  const times = [];
  await bench(
    async () => {
      for (const t of tiles) {
        const t0 = process.hrtime.bigint();
        const raster = await r.renderTile(t, undefined, { tileSize: size });
        times.push(Number(process.hrtime.bigint() - t0) / 1e6);
        releaseRaster(raster);
      }
    },
    { minRuns: 3, minTimeS: 2 },
  );
  return times;
}

if (want('10a')) {
  const z2 = [];
  for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) z2.push({ z: 2, x, y });
  const r = renderer(placesStyle());
  for (const size of [256, 512]) {
    record(
      '10a point labels z2',
      tool,
      size,
      await timeTiles(r, z2, size),
      'NE 110m places, DejaVu Sans 11 px, 1.5 px halo, no overlap, never cut; all 16 tiles',
    );
  }
}

if (want('10b')) {
  const r = renderer(streetStyle());
  for (const size of [256, 512]) {
    record(
      '10b line labels street',
      tool,
      size,
      await timeTiles(r, [{ z: 14, x: 8801, y: 5371 }], size),
      'Berlin road_label names along lines, DejaVu Sans 10 px, 1.5 px halo, spacing 200 px; decoded layers cached',
    );
  }
}
