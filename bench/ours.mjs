// tilegraph's rows of the benchmark: the jobs of ../shared/peers/README.md that we also do, timed with
// the same rule (bench/lib.mjs). Appends JSON lines to $RESULTS when set. Run through bench/run.mjs.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Renderer, releaseRaster } from '../dist/index.js';
import { NodeLoader, decodePngRGBA } from '../dist/hosts/node/index.js';
import { blurFast } from '../dist/ops/blur/cpu.js';
import { bench, countriesStyle, record } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = process.env.FIXTURES || path.resolve(HERE, '../../shared/fixtures');
const haveFixtures = existsSync(FIXTURES);
const backendChoice = process.env.BENCH_BACKEND || 'cpu';
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const want = (job) => !only || only.test(job);

let backend;
if (backendChoice !== 'cpu') {
  const { createBackend } = await import('../dist/hosts/node/gpu.js');
  backend = await createBackend(backendChoice);
}
const tool = (what) => `tilegraph ${backend?.name ?? 'cpu'}${what ? ' ' + what : ''}`;

function renderer(style) {
  return Renderer.create(style, { loader: new NodeLoader({ baseDir: HERE, allowOutside: true }), backend });
}

const countriesData = haveFixtures ? path.join(FIXTURES, 'geojson/ne_110m_admin_0_countries.geojson') : 'npm:world-atlas/countries-110m.json';
const z2 = [];
for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) z2.push({ z: 2, x, y });

async function perTile(r, tiles, size, params) {
  // Every round renders all tiles; each tile's time is one sample (as the Mapnik job does). The
  // raster goes back to the pool after its sample, as the hosts do once a tile is encoded.
  const times = [];
  const rounds = await bench(
    async () => {
      for (const t of tiles) {
        const t0 = process.hrtime.bigint();
        const raster = await r.renderTile(t, params, { tileSize: size });
        times.push(Number(process.hrtime.bigint() - t0) / 1e6);
        releaseRaster(raster);
      }
    },
    { minRuns: 3, minTimeS: 2 },
  );
  void rounds;
  return times;
}

// 5a: Natural Earth countries, fill #f2efe9 + 1.5 px #555555 stroke, all 16 z2 tiles.
if (want('5a')) {
  const r = renderer(countriesStyle(countriesData));
  for (const size of [256, 512]) {
    record(
      '5a countries z2 fill+stroke',
      tool('(geojson-vt)'),
      size,
      await perTile(r, z2, size),
      `all 16 tiles; ${haveFixtures ? 'NE 110m fixture' : 'world-atlas 110m'}; raster released to the pool after each tile`,
    );
  }
}

// 4: Gaussian blur of the Terrain-RGB tile decoded to premultiplied float, kernel only (as sharp's raw -> raw).
if (want('4 blur') && haveFixtures) {
  const png = readFileSync(path.join(FIXTURES, 'dem/terrain-rgb/maplibre-terrain-shading-512/10-544-357.png'));
  const img = await decodePngRGBA(png);
  for (const sigma of [4, 16]) {
    for (const size of [256, 512]) {
      const pad = Math.ceil(3 * sigma);
      const sw = size + 2 * pad;
      const src = new Float32Array(sw * sw * 4);
      for (let y = 0; y < sw; y++) {
        const sy = Math.min(size - 1, Math.max(0, y - pad));
        for (let x = 0; x < sw; x++) {
          const sx = Math.min(size - 1, Math.max(0, x - pad));
          const i = (sy * img.width + sx) * 4;
          const o = (y * sw + x) * 4;
          const a = img.data[i + 3] / 255;
          src[o] = (img.data[i] / 255) * a;
          src[o + 1] = (img.data[i + 1] / 255) * a;
          src[o + 2] = (img.data[i + 2] / 255) * a;
          src[o + 3] = a;
        }
      }
      const times = await bench(() => blurFast(src, sw, sw, pad, pad, size, size, sigma));
      record(`4 blur sigma ${sigma}`, 'tilegraph cpu blur kernel', size, times, 'premultiplied float RGBA, mask +-3 sigma, error <= 1/255 vs exact');
    }
  }
}

// Blur of a rendered raster through the graph: countries fill -> blur sigma 16 (tile 2/2/1).
if (want('blur.*graph')) {
  const r = renderer({
    output: 'b',
    sources: { countries: { type: 'geojson', data: countriesData } },
    nodes: {
      c: { op: 'features', source: 'countries' },
      fill: { op: 'fill-solid', features: '@c', fill: '#10304a' },
      b: { op: 'blur', input: '@fill', sigma: 16 },
    },
  });
  for (const size of [256, 512]) {
    const times = await bench(async () => releaseRaster(await r.renderTile({ z: 2, x: 2, y: 1 }, undefined, { tileSize: size })), { minRuns: 10 });
    record('4b blur sigma 16 of a render', tool('graph'), size, times, 'fill + blur, tile 2/2/1, canvas +48 px each side');
  }
}

// 6: heatmap of populated places (density radius 30 + colour ramp), all 16 z2 tiles. No peer.
if (want('6 heatmap') && haveFixtures) {
  const r = renderer({
    output: 'heat',
    sources: { places: { type: 'geojson', data: path.join(FIXTURES, 'geojson/ne_110m_populated_places_simple.geojson') } },
    nodes: {
      p: { op: 'features', source: 'places' },
      d: { op: 'density', features: '@p', radius: 30, 'weight-expr': ['/', ['get', 'pop_max'], 1000000] },
      heat: {
        op: 'color-ramp',
        field: '@d',
        stops: [
          { value: 0, color: '#00000000' },
          { value: 0.2, color: '#2c7bb6' },
          { value: 1, color: '#ffffbf' },
          { value: 3, color: '#d7191c' },
        ],
      },
    },
  });
  for (const size of [256, 512]) {
    record('6 heatmap (density r30 + ramp)', tool(), size, await perTile(r, z2, size), 'NE populated places, weight pop_max/1e6, all 16 z2 tiles');
  }
}

if (backend?.name === 'gpu') {
  const { closeGpu } = await import('../dist/hosts/node/gpu.js');
  closeGpu();
}
