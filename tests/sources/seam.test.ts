// Seam invariant (DESIGN §3): four tiles z/x..x+1/y..y+1 rendered one by one and put side by
// side equal the same area rendered through the window API, within SEAM_TOLERANCE (tests/helpers/seam.ts:
// 1/255, except on at most 0.01 % of the pixels). Each case reaches
// across tile edges: a blur of fills, a density of points near the edges, contours of a DEM, a
// colour-ramped DEM. Real data: @mapbox/mvt-fixtures (always) and ../shared/fixtures (Chicago,
// Tyrol Terrain-RGB, Terrarium blocks, Florence PMTiles); a generated DEM runs without ../shared.
import path from 'node:path';
import sharp from 'sharp';
import { NodeLoader } from '../../src/hosts/node/loader.js';
import { expectSeamless, seam } from '../helpers/seam.js';
import { FIXTURES, MemoryLoader, MVT_FIXTURES } from './helpers.js';
import { fixturesTest } from '../helpers/fixtures.js';

const blurOfFills = (source: object) => ({
  output: 'out',
  sources: { streets: source },
  nodes: {
    landuse: { op: 'features', source: 'streets', layer: 'landuse' },
    water: { op: 'features', source: 'streets', layer: 'water' },
    road: { op: 'features', source: 'streets', layer: 'road' },
    bg: { op: 'solid', color: '#f2efe9' },
    lu: { op: 'fill-solid', features: '@landuse', fill: '#9ccc65' },
    wa: { op: 'fill-solid', features: '@water', fill: '#4a90d9' },
    rd: { op: 'stroke-solid', features: '@road', width: 2, color: '#555555' },
    a: { op: 'blend', base: '@bg', over: '@lu' },
    b: { op: 'blend', base: '@a', over: '@wa' },
    c: { op: 'blend', base: '@b', over: '@rd' },
    out: { op: 'blur', input: '@c', sigma: 4 },
  },
});

const densityOf = (source: object, layer: string, radius: number) => ({
  output: 'out',
  sources: { pts: source },
  nodes: {
    p: { op: 'features', source: 'pts', layer },
    d: { op: 'density', features: '@p', radius, intensity: 40 },
    out: {
      op: 'color-ramp',
      field: '@d',
      stops: [
        { value: 0, color: '#00000000' },
        { value: 0.5, color: '#2c7bb6' },
        { value: 2, color: '#ffffbf' },
        { value: 6, color: '#d7191c' },
      ],
    },
  },
});

const demStyle = (dem: object, interval: number, stops: [number, string][]) => ({
  output: 'out',
  sources: { dem },
  nodes: {
    e: { op: 'dem' },
    relief: { op: 'color-ramp', field: '@e', stops: stops.map(([value, color]) => ({ value, color })) },
    iso: { op: 'contour', field: '@e', interval },
    lines: { op: 'stroke-solid', features: '@iso', width: 1.5, color: '#3b2a1a' },
    out: { op: 'blend', base: '@relief', over: '@lines' },
  },
});

/** A smooth synthetic terrain (metres) over global source pixels, encoded as Terrarium tiles z6 x30..33 y20..23. */
async function syntheticDem(): Promise<MemoryLoader> {
  const S = 256;
  const h = (gx: number, gy: number) => 800 + 350 * Math.sin(gx / 41) * Math.cos(gy / 57) + 120 * Math.sin((gx + gy) / 23);
  const files: Record<string, Uint8Array> = {};
  for (let tx = 30; tx <= 33; tx++)
    for (let ty = 20; ty <= 23; ty++) {
      const raw = new Uint8Array(S * S * 4);
      for (let j = 0; j < S; j++)
        for (let i = 0; i < S; i++) {
          const v = Math.round((h(tx * S + i, ty * S + j) + 32768) * 256) / 256;
          const r = Math.floor(v / 256),
            g = Math.floor(v - r * 256),
            b = Math.round((v - r * 256 - g) * 256);
          raw.set([r, g, b, 255], (j * S + i) * 4);
        }
      files[`dem/6/${tx}/${ty}.png`] = new Uint8Array(
        await sharp(raw, { raw: { width: S, height: S, channels: 4 } })
          .png()
          .toBuffer(),
      );
    }
  return new MemoryLoader(files);
}

const RELIEF: [number, string][] = [
  [400, '#2e9a58'],
  [700, '#fbff80'],
  [1000, '#e06c1f'],
  [1300, '#c83737'],
];

describe('seam invariant: 2x2 tile mosaic = window render', () => {
  test('blur of fills, real MVT block (mvt-fixtures Chicago, z13)', async () => {
    const style = blurOfFills({ type: 'mvt', tiles: ['chicago/{z}-{x}-{y}.mvt'], minzoom: 13, maxzoom: 13 });
    expectSeamless(await seam(style, 13, 2100, 3044, 256, { loader: new NodeLoader({ baseDir: MVT_FIXTURES }) }), 0.9);
  });

  test('density of points sitting on and near the tile edges (generated), radius 24', async () => {
    // The block's inner edges are lng 0 and lat 40.9799 (z4 rows 5/6); a z4 pixel is 0.088 degrees of
    // longitude. Points on the edges and at 1 to 20 px on either side: those past a tile's 4 px buffer
    // reach the neighbouring tile only if the source loads it.
    const pts: [number, number][] = [];
    const offsets = [0, 0.09, -0.09, 0.5, -0.5, 1, -1, 1.8, -1.8];
    offsets.forEach((o, k) => {
      for (let i = 0; i < 6; i++) {
        pts.push([o, 25 + i * 5 + k * 0.3]);
        pts.push([-20 + i * 7 + k * 0.4, 40.9799 + o * 0.7]);
      }
    });
    const src = {
      type: 'geojson',
      data: { type: 'FeatureCollection', features: pts.map((c) => ({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: c } })) },
    };
    const r = await seam(densityOf(src, 'pts', 24), 4, 7, 5, 256, { loader: new MemoryLoader() });
    expectSeamless(r, 0.05);
  });

  test('density of real points: the poi_label layer of the mvt-fixtures Chicago block, radius 30', async () => {
    const style = densityOf({ type: 'mvt', tiles: ['chicago/{z}-{x}-{y}.mvt'], minzoom: 13, maxzoom: 13 }, 'poi_label', 30);
    expectSeamless(await seam(style, 13, 2100, 3044, 256, { loader: new NodeLoader({ baseDir: MVT_FIXTURES }) }), 0.05);
  });

  test('density of building centroids (the gallery heatmap): the mvt-fixtures San Francisco block, z15, radius 24', async () => {
    // Centroids of MVT polygons come from each source tile's own copy of the building (its buffer
    // included) and count where the tile's square holds them (src/sources/pieces.ts). Measured on
    // the canvas's clipped groups instead, 5,876 pixels of this mosaic differed from the window, by up to 255/255.
    const style = densityOf(
      // The fixture's 3x3 tiles (bounds as the gallery's heatmap style gives them: no tiles are read outside).
      { type: 'mvt', tiles: ['sanfrancisco/{z}-{x}-{y}.mvt'], minzoom: 15, maxzoom: 15, bounds: [-122.464589, 37.753353, -122.431652, 37.77939] },
      'building',
      24,
    ) as {
      nodes: Record<string, Record<string, unknown>>;
    };
    style.nodes.c = { op: 'centroid', features: '@p' };
    style.nodes.d!.features = '@c';
    style.nodes.d!.intensity = 4;
    expectSeamless(await seam(style, 15, 5237, 12665, 256, { loader: new NodeLoader({ baseDir: MVT_FIXTURES }) }), 0.5);
  });

  test('contours and colour ramp of a generated DEM, over-zoomed and bilinear across source tiles', async () => {
    const dem = { type: 'dem', tiles: ['dem/{z}/{x}/{y}.png'], encoding: 'terrarium', tileSize: 256, minzoom: 6, maxzoom: 6 };
    // z8 tiles inside the centre z6 tile (31, 21): k = 1/4, every sample is interpolated.
    const loader = await syntheticDem();
    expectSeamless(await seam(demStyle(dem, 50, RELIEF), 8, 125, 85, 256, { loader }), 0.95);
    // z6 itself at 256 px (k = 1), on the corner where four source tiles meet.
    expectSeamless(await seam(demStyle(dem, 50, RELIEF), 6, 31, 21, 256, { loader }), 0.95);
  });

  fixturesTest('real fixtures: blur of fills on the Chicago 2x2 block (over-zoomed to z14)', async () => {
    const style = blurOfFills({ type: 'mvt', tiles: ['{z}-{x}-{y}.mvt'], minzoom: 13, maxzoom: 13 });
    expectSeamless(await seam(style, 14, 4203, 6089, 256, { loader: new NodeLoader({ baseDir: path.join(FIXTURES, 'mvt/mvt-fixtures-chicago') }) }), 0.9);
  });

  fixturesTest('real fixtures: contours and colour ramp of the Terrain-RGB 512 px block (Tyrol), rendered at z11 / 256 px', async () => {
    const dem = { type: 'dem', tiles: ['{z}-{x}-{y}.png'], encoding: 'mapbox', tileSize: 512, maxzoom: 10 };
    const stops: [number, string][] = [
      [500, '#2e9a58'],
      [1000, '#fbff80'],
      [1500, '#e06c1f'],
      [2000, '#c83737'],
      [3000, '#ffffff'],
    ];
    const loader = new NodeLoader({ baseDir: path.join(FIXTURES, 'dem/terrain-rgb/maplibre-terrain-shading-512') });
    expectSeamless(await seam(demStyle(dem, 100, stops), 11, 1088, 715, 256, { loader }), 0.95);
  });

  fixturesTest('real fixtures: colour-ramped Terrarium blocks (Black Forest z9, Grand Canyon z11), over-zoomed one level', async () => {
    const dem = { type: 'dem', tiles: ['{z}-{x}-{y}.png'], encoding: 'terrarium', tileSize: 256 };
    const bf = new NodeLoader({ baseDir: path.join(FIXTURES, 'dem/terrarium/mapzen-z9-256') });
    expectSeamless(await seam(demStyle({ ...dem, maxzoom: 9 }, 50, RELIEF), 10, 538, 355, 256, { loader: bf }), 0.95);
    const gc = new NodeLoader({ baseDir: path.join(FIXTURES, 'dem/terrarium/maplibre-grandcanyon-256') });
    const canyon: [number, string][] = [
      [500, '#6b3d1f'],
      [1200, '#c98b4f'],
      [1800, '#f1d7a3'],
      [2300, '#ffffff'],
    ];
    expectSeamless(await seam(demStyle({ ...dem, maxzoom: 11 }, 100, canyon), 12, 759, 1607, 256, { loader: gc }), 0.95);
  });

  fixturesTest('real fixtures: density of Florence POIs from the PMTiles archive (z15)', async () => {
    const style = densityOf({ type: 'pmtiles', url: 'protomaps_vector_ODbL_firenze.pmtiles' }, 'pois', 20);
    expectSeamless(await seam(style, 15, 17406, 11942, 256, { loader: new NodeLoader({ baseDir: path.join(FIXTURES, 'pmtiles') }) }), 0.2);
  });
});
