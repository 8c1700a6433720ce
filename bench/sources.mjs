// Source costs, short (about 40 s): decode and sampling per source type, and the street-tile job of
// ../shared/peers (job 5b: landuse and water fills, tunnel/road/bridge line strokes of the Berlin
// MVT, 256 and 512 px), timed with the peers' rule (bench/lib.mjs) so run.mjs puts the rows beside
// Mapnik's. Bytes are held in memory: file reads are outside the timer, as for the peers.
// Needs `npm run build` first. BENCH_ONLY=<regex> picks rows.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Renderer, TileCache, releaseRaster } from '../dist/index.js';
import { decodeImage } from '../dist/hosts/node/index.js';
import { decodeImageElevation } from '../dist/hosts/node/image.js';
import { parseTile, decodeLayer } from '../dist/sources/mvt-decode.js';
import { createMvtSource } from '../dist/sources/mvt.js';
import { createPmtilesSource } from '../dist/sources/pmtiles.js';
import { createDemSource, decodeElevation } from '../dist/sources/dem.js';
import { GeojsonSource } from '../dist/sources/geojson.js';
import { bench, record } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = process.env.FIXTURES || path.resolve(HERE, '../../shared/fixtures');
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const want = (job) => !only || only.test(job);
if (!existsSync(FIXTURES)) {
  console.log('!!! bench/sources.mjs: ../shared/fixtures is absent; no source rows');
  process.exit(0);
}
const fx = (p) => new Uint8Array(readFileSync(path.join(FIXTURES, p)));

/** Refs to in-memory bytes; the host's image decoder (sharp). */
class MemoryLoader {
  constructor(files) {
    this.files = new Map(Object.entries(files));
    this.decodeImage = decodeImage;
    this.decodeElevation = decodeImageElevation; // as the Node loader
  }
  async load(ref, range) {
    const b = this.files.get(ref);
    if (!b) throw new Error(`ENOENT: '${ref}'`);
    return range ? b.subarray(range.offset, range.offset + range.length) : b;
  }
}
const ctx = (loader, cache = new TileCache()) => ({ loader, decodeImage, cache, cachePrefix: '' });
const tile = (z, x, y, size) => ({ z, x0: x * size, y0: y * size, width: size, height: size, tileSize: size });

const berlin = fx('mvt/vector-tile-js/14-8801-5371.mvt');

// MVT decode: protobuf -> flat geometry, every layer of the Berlin tile (3 500 features).
if (want('mvt decode')) {
  const times = await bench(() => {
    const vt = parseTile(berlin);
    for (const name of vt.names()) decodeLayer(vt.layer(name));
  });
  record('S mvt decode', 'tilegraph (pbf -> flat arrays)', '-', times, 'Berlin 14/8801/5371, all 14 layers, 178 KB');
}

// MVT sampling: decoded layers (cache warm) -> feature groups in world pixels, clipped. The
// sampled groups of a canvas are cached too (keys 'vs|...'): dropped before each run, so the row
// measures the sampling itself.
if (want('mvt sampling')) {
  const cache = new TileCache();
  const src = createMvtSource('s', { type: 'mvt', tiles: ['{z}/{x}/{y}'], minzoom: 14, maxzoom: 14 }, ctx(new MemoryLoader({ '14/8801/5371': berlin }), cache));
  for (const size of [256, 512]) {
    const w = tile(14, 8801, 5371, size);
    const times = await bench(async () => {
      cache.clear('vs|');
      for (const l of ['landuse', 'water', 'building', 'road']) await src.features(l, w);
    });
    record('S mvt sampling', 'tilegraph (decoded, cached)', size, times, 'landuse+water+building+road of the Berlin tile');
  }
}

// PMTiles: directory lookup + range read + gunzip + decode of central Florence (cold cache), then warm sampling.
if (want('pmtiles')) {
  const archive = fx('pmtiles/protomaps_vector_ODbL_firenze.pmtiles');
  const loader = new MemoryLoader({ 'fi.pmtiles': archive });
  const w = tile(14, 8704, 5972, 256);
  const cold = await bench(
    async () => {
      const src = createPmtilesSource('fi', { type: 'pmtiles', url: 'fi.pmtiles' }, ctx(loader));
      await src.features('roads', w);
    },
    { minRuns: 10 },
  );
  record('S pmtiles read+decode', 'tilegraph (pmtiles, cold)', '-', cold, 'Florence 14/8704/5972 (334 KB gunzipped), header + directory + roads layer');
  const cache = new TileCache();
  const src = createPmtilesSource('fi', { type: 'pmtiles', url: 'fi.pmtiles' }, ctx(loader, cache));
  // Sampled groups dropped before each run (as for the MVT row): the sampling itself.
  const warm = await bench(() => {
    cache.clear('vs|');
    return src.features('roads', w);
  });
  record('S pmtiles sampling', 'tilegraph (decoded, cached)', 256, warm, 'Florence roads layer, 2331 lines');
}

// GeoJSON: geojson-vt index once, then sampling the z2 tile 2/2/1.
if (want('geojson')) {
  const text = fx('geojson/ne_110m_admin_0_countries.geojson');
  const idx = await bench(
    async () => {
      const src = new GeojsonSource({ name: 'c', decl: { type: 'geojson', data: 'c.json' }, loader: new MemoryLoader({ 'c.json': text }) });
      await src.features('c', tile(0, 0, 0, 256));
    },
    { minRuns: 10 },
  );
  record('S geojson index', 'tilegraph (JSON.parse + geojson-vt)', '-', idx, 'NE 110m countries, 709 KB, + first z0 sample');
  const src = new GeojsonSource({ name: 'c', decl: { type: 'geojson', data: 'c.json' }, loader: new MemoryLoader({ 'c.json': text }) });
  for (const size of [256, 512]) {
    const w = tile(2, 2, 1, size);
    record('S geojson sampling', 'tilegraph (geojson-vt tile cached)', size, await bench(() => src.features('c', w)), 'NE countries, tile 2/2/1');
  }
}

// DEM: PNG bytes -> Float32 metres (the peers' "1 decode Terrain-RGB" row), and bilinear sampling.
if (want('decode Terrain-RGB|dem')) {
  const png = fx('dem/terrain-rgb/maplibre-terrain-shading-512/10-544-357.png');
  // The dem source's path: the Node loader's decodeElevation, decodeImage + decodeElevation when it declines.
  const times = await bench(async () => decodeImageElevation(png, 'mapbox')?.data ?? decodeElevation(await decodeImage(png), 'mapbox'));
  record(
    '1 decode Terrain-RGB',
    'tilegraph (host PNG decoder to metres)',
    512,
    times,
    'PNG bytes -> Float32Array metres (node:zlib inflate; RGB rows unfiltered and converted to metres row by row in WebAssembly, no RGBA8 image; sharp only for unusual PNGs)',
  );
  const files = {};
  for (const x of [543, 544, 545]) for (const y of [357, 358]) files[`10/${x}/${y}`] = fx(`dem/terrain-rgb/maplibre-terrain-shading-512/10-${x}-${y}.png`);
  const src = createDemSource('d', { type: 'dem', tiles: ['{z}/{x}/{y}'], encoding: 'mapbox', tileSize: 512, maxzoom: 10 }, ctx(new MemoryLoader(files)));
  for (const size of [256, 512]) {
    // z12 at 256 px / z11 at 512 px: over-zoomed 2x, every sample interpolated; a canvas across four source tiles.
    const z = size === 256 ? 12 : 11;
    // Source tile 10/545/358's corner is at world pixel (545 * 1024, 358 * 1024) in both cases.
    const c = { z, x0: 545 * 1024 - size / 2, y0: 358 * 1024 - size / 2, width: size, height: size, tileSize: size };
    record(
      'S dem sampling',
      'tilegraph (bilinear, cached)',
      size,
      await bench(() => src.field(c)),
      'Terrain-RGB 512, over-zoomed 2x, canvas across 4 source tiles',
    );
  }
}

// 5b: the peers' street tile. Same style: background #f8f4f0, landuse #cfe5b4, water #9fc7ef,
// tunnel/road/bridge LineStrings stroked #7f7f7f 1.5 px (butt caps, miter joins).
const street = (withBuildings) => {
  const lines = (layer) => ({ op: 'features', source: 's', layer, 'filter-expr': ['==', ['geometry-type'], 'LineString'] });
  const nodes = {
    bg: { op: 'solid', color: '#f8f4f0' },
    landuse: { op: 'features', source: 's', layer: 'landuse' },
    water: { op: 'features', source: 's', layer: 'water' },
    tunnel: lines('tunnel'),
    road: lines('road'),
    bridge: lines('bridge'),
    lu: { op: 'fill-solid', features: '@landuse', fill: '#cfe5b4' },
    wa: { op: 'fill-solid', features: '@water', fill: '#9fc7ef' },
    tu: { op: 'stroke-solid', features: '@tunnel', width: 1.5, color: '#7f7f7f' },
    rd: { op: 'stroke-solid', features: '@road', width: 1.5, color: '#7f7f7f' },
    br: { op: 'stroke-solid', features: '@bridge', width: 1.5, color: '#7f7f7f' },
    a: { op: 'blend', base: '@bg', over: '@lu' },
    b: { op: 'blend', base: '@a', over: '@wa' },
    c: { op: 'blend', base: withBuildings ? '@bc' : '@b', over: '@tu' },
    d: { op: 'blend', base: '@c', over: '@rd' },
    out: { op: 'blend', base: '@d', over: '@br' },
  };
  if (withBuildings) {
    nodes.building = { op: 'features', source: 's', layer: 'building' };
    nodes.bu = { op: 'fill-solid', features: '@building', fill: '#d9d0c9' };
    nodes.bc = { op: 'blend', base: '@b', over: '@bu' };
  }
  return { output: 'out', sources: { s: { type: 'mvt', tiles: ['{z}/{x}/{y}'], minzoom: 14, maxzoom: 14 } }, nodes };
};
const loader = new MemoryLoader({ '14/8801/5371': berlin });
// Cache modes: 'cleared' empties the tile cache before every render, so each render parses the
// tile and decodes the layers it reads once (as Mapnik's OGR path opens and decodes the tile per
// render); 'none' keeps nothing at all (maxBytes 0), so the tile is parsed again by every features
// node of the render (five here); 'warm' keeps the decoded layers and sampled groups across
// renders; 'layers' keeps the decoded layers but samples them again on every render.
const jobs = [
  [
    '5b street (MVT via OGR)',
    street(false),
    'cleared',
    'tilegraph cpu (decode per render)',
    'tile cache emptied before each render: MVT parse + layer decode + clip inside the render',
  ],
  [
    '5b street (MVT via OGR)',
    street(false),
    'none',
    'tilegraph cpu (no tile cache)',
    'maxBytes 0: each of the 5 features nodes indexes the tile (layer names only) and decodes its own layer',
  ],
  ['5b street (pre-decoded)', street(false), 'warm', 'tilegraph cpu (tile cache warm)', 'decoded layers and sampled groups cached; raster'],
  [
    '5b street (pre-decoded)',
    street(false),
    'layers',
    'tilegraph cpu (layers cached, sampled per render)',
    'decoded layers cached; the sampled groups dropped before each render (as Mapnik queries and projects its indexed GeoJSON per render)',
  ],
  [
    '5b street+buildings (MVT)',
    street(true),
    'cleared',
    'tilegraph cpu (decode per render)',
    'tile cache emptied before each render: MVT parse + layer decode + clip inside the render',
  ],
];
for (const [job, style, mode, tool, note] of jobs) {
  if (!want(job.replace(/[()+]/g, '.'))) continue;
  const cache = new TileCache(mode === 'none' ? { maxBytes: 0 } : {});
  const r = Renderer.create(style, { loader, tileCache: cache });
  for (const size of [256, 512]) {
    const t = { z: 14, x: 8801, y: 5371 };
    const once = async () => {
      if (mode === 'cleared') cache.clear();
      // Sampled groups' keys are 'vs|...' after the registry's per-style prefix.
      if (mode === 'layers') cache.clear((k) => k.includes('vs|'));
      // Back to the pool once done, as the hosts do after encoding.
      releaseRaster(await r.renderTile(t, undefined, { tileSize: size }));
    };
    record(job, tool, size, await bench(once), note);
  }
}
