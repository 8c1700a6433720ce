// Rows for the terrain and neighbourhood ops beside their peers (../shared/peers jobs 1, 2, 3, 9):
// hillshade vs gdal.DEMProcessing hillshade, colour relief (dem -> color-ramp) vs color-relief,
// contours vs gdal.ContourGenerateEx, dilate / erode / edge-detect vs sharp (libvips). Same inputs
// as the peers where we can read them (the Tyrol Terrain-RGB tile 10/544/357, its top-left 256 crop),
// same timing rule (bench/lib.mjs). Kernel rows time the op's CPU kernel on arrays (as the peers
// time array -> array); graph rows time a whole tile render through the plan.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Renderer, releaseRaster } from '../dist/index.js';
import { release } from '../dist/backends/cpu/pool.js';
import { NodeLoader, decodePngRGBA } from '../dist/hosts/node/index.js';
import { hillshade } from '../dist/ops/hillshade/cpu.js';
import { rowInverseResolution, shadeTerms } from '../dist/ops/hillshade/plan.js';
import { morph } from '../dist/ops/dilate/morph.js';
import { sobel } from '../dist/ops/edge-detect/cpu.js';
import { Contourer, intervalLevels, fieldRange } from '../dist/geometry/contour.js';
import { bench, countriesStyle, record } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = process.env.FIXTURES || path.resolve(HERE, '../../shared/fixtures');
const haveFixtures = existsSync(FIXTURES);
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const want = (job) => !only || only.test(job);
const backendChoice = process.env.BENCH_BACKEND || 'cpu';
let backend;
if (backendChoice !== 'cpu') {
  const { createBackend } = await import('../dist/hosts/node/gpu.js');
  backend = await createBackend(backendChoice);
}
const tool = (what) => `tilegraph ${backend?.name ?? 'cpu'} ${what}`;

const TYROL = path.join(FIXTURES, 'dem/terrain-rgb/maplibre-terrain-shading-512');
const SIZES = [256, 512];

/** The peers' DEM arrays: tile 10/544/357 (512) and its top-left 256 crop (= tile 11/1088/714). */
async function demArrays() {
  const img = await decodePngRGBA(readFileSync(path.join(TYROL, '10-544-357.png')));
  const full = new Float32Array(512 * 512);
  for (let i = 0; i < full.length; i++) full[i] = -10000 + (img.data[i * 4] * 65536 + img.data[i * 4 + 1] * 256 + img.data[i * 4 + 2]) * 0.1;
  const crop = (size) => {
    const out = new Float32Array(size * size);
    for (let y = 0; y < size; y++) out.set(full.subarray(y * 512, y * 512 + size), y * size);
    return out;
  };
  return { 512: full, 256: crop(256) };
}

/** An array grown by `pad` pixels on each side, edges repeated (the kernels read their pad; the peers extrapolate). */
function padded(src, size, pad, channels) {
  const sw = size + 2 * pad;
  const out = new Float32Array(sw * sw * channels);
  for (let y = 0; y < sw; y++) {
    const sy = Math.min(size - 1, Math.max(0, y - pad));
    for (let x = 0; x < sw; x++) {
      const sx = Math.min(size - 1, Math.max(0, x - pad));
      for (let c = 0; c < channels; c++) out[(y * sw + x) * channels + c] = src[(sy * size + sx) * channels + c];
    }
  }
  return out;
}

const tile = { 512: { z: 10, x: 544, y: 357 }, 256: { z: 11, x: 1088, y: 714 } };
const demSource = { type: 'dem', tiles: ['{z}-{x}-{y}.png'], encoding: 'mapbox', tileSize: 512, maxzoom: 10 };
const graph = (nodes, output = 'out') =>
  Renderer.create({ output, sources: { dem: demSource }, nodes }, { loader: new NodeLoader({ baseDir: TYROL }), backend });

if (haveFixtures) {
  const dem = await demArrays();

  if (want('1 hillshade')) {
    const terms = shadeTerms(315, 45, 1, false);
    const colours = { shadow: [0, 0, 0, 1], highlight: [1, 1, 1, 1], accent: [0, 0, 0, 0] };
    for (const size of SIZES) {
      const src = padded(dem[size], size, 1, 1);
      const t = tile[size];
      const inv = rowInverseResolution({ z: t.z, x0: t.x * size, y0: t.y * size, width: size, height: size, tileSize: size });
      if (!backend)
        record(
          '1 hillshade',
          tool('hillshade kernel'),
          size,
          await bench(() => release(hillshade(src, size, size, inv, terms, colours))),
          'Float32 m (+1 px) -> premultiplied float RGBA, Horn, ground res per row (WebAssembly SIMD); output back to the pool as in a render',
        );
    }
    // The fixture block has no row 356 above the peers' tile, so the render rows take a window of the
    // same size half a tile lower (its 1 px margin then lies inside the block).
    const r = graph({ e: { op: 'dem' }, out: { op: 'hillshade', field: '@e' } });
    const shadeWin = {
      512: { z: 10, x0: 544 * 512, y0: 357 * 512 + 256, width: 512, height: 512, tileSize: 512 },
      256: { z: 11, x0: 1088 * 256, y0: 715 * 256, width: 256, height: 256, tileSize: 256 },
    };
    for (const size of SIZES)
      record(
        '1 hillshade',
        tool('graph (dem + hillshade)'),
        size,
        await bench(async () => releaseRaster((await r.renderWindow(shadeWin[size])).raster)),
        "render of a tile-sized window (half a tile below the peers' tile): DEM sampling (decoded tiles cached) + hillshade",
      );
  }

  if (want('2 colour relief')) {
    const stops = [
      [0, '#2e9a58'],
      [500, '#fbff80'],
      [1000, '#e06c1f'],
      [1500, '#c83737'],
      [2000, '#d7f4f4'],
      [3000, '#ffffff'],
    ].map(([value, color]) => ({ value, color }));
    const r = graph({ e: { op: 'dem' }, out: { op: 'color-ramp', field: '@e', stops } });
    for (const size of SIZES)
      record(
        '2 colour relief',
        tool('graph (dem + color-ramp)'),
        size,
        await bench(async () => releaseRaster(await r.renderTile(tile[size], undefined, { tileSize: size }))),
        'render: DEM sampling (cached tiles) + 6-stop ramp, RGBA float out',
      );
  }

  if (want('3 contours') && !backend) {
    for (const size of SIZES) {
      const field = dem[size];
      let lines = 0,
        vertices = 0;
      const run = () => {
        const [lo, hi] = fieldRange(field);
        const c = new Contourer(field, size, size, 0, 0);
        lines = vertices = 0;
        for (const level of intervalLevels(0, 100, lo, hi)) {
          const iso = c.isolines(level);
          lines += iso.lines.length;
          for (const l of iso.lines) vertices += l.length / 2;
        }
      };
      const times = await bench(run);
      record('3 contours 100 m', tool('contour kernel'), size, times, `${lines} lines, ${vertices} vertices (marching squares, chained)`);
    }
  }
}

if (want('9 ') && !backend) {
  // A rendered map as the peers' job 9 input: Natural Earth countries fill + stroke, tile 2/2/1.
  const data = haveFixtures ? path.join(FIXTURES, 'geojson/ne_110m_admin_0_countries.geojson') : 'npm:world-atlas/countries-110m.json';
  const r = Renderer.create(countriesStyle(data), { loader: new NodeLoader({ baseDir: HERE, allowOutside: true }) });
  for (const size of SIZES) {
    const pad = 3;
    const win = { z: 2, x0: 2 * size - pad, y0: size - pad, width: size + 2 * pad, height: size + 2 * pad, tileSize: size };
    const src = (await r.renderWindow(win)).raster.data;
    const sw = size + 2 * pad;
    record(
      '9 dilate 3 px',
      tool('dilate kernel (vHGW)'),
      size,
      await bench(() => morph(src, sw, pad, size, size, 3, 'max')),
      'premultiplied float RGBA, 7x7 square max per channel',
    );
    record(
      '9 erode 3 px',
      tool('erode kernel (vHGW)'),
      size,
      await bench(() => morph(src, sw, pad, size, size, 3, 'min')),
      'premultiplied float RGBA, 7x7 square min per channel',
    );
    record(
      '9 edge-detect',
      tool('edge-detect kernel'),
      size,
      await bench(() => release(sobel(src, sw, size, size, 1))),
      'premultiplied float RGBA, Sobel x and y, magnitude, per channel (WebAssembly SIMD); output back to the pool as in a render',
    );
  }
}

if (backend?.name === 'gpu') {
  const { closeGpu } = await import('../dist/hosts/node/gpu.js');
  closeGpu();
}
