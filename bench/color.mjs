// Colour-op rows (issue 11): the `threshold` and `brightness-contrast` kernels beside libvips'
// `threshold(128)` and `linear(1.2, -12)` (peers job 9), plus `dither` (no peer; the blue-noise
// matrix is built before timing). Kernel only,
// premultiplied float RGBA in and out, as sharp's raw -> raw (the render's 8-bit encode is shared
// by all ops and not timed). Input: the peers' rendered map (png-input-map-<size>.png) when
// run through ../shared/peers, else our own render of the countries tile 2/2/1 at that size.
// Without the peers' run (PEERS_WORK unset), the two libvips calls of job 9 are timed here on the
// same image (8-bit), so the ratio table still has their rows from the same run.
// Needs `npm run build` first. BENCH_ONLY=<regex> picks rows.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Renderer } from '../dist/index.js';
import { NodeLoader, decodePngRGBA } from '../dist/hosts/node/index.js';
import { brightnessContrast } from '../dist/ops/brightness-contrast/cpu.js';
import { threshold } from '../dist/ops/threshold/cpu.js';
import { floydSteinberg, ordered } from '../dist/ops/dither/cpu.js';
import { BAYER4, resolvePalette } from '../dist/ops/dither/plan.js';
import { blueNoise64 } from '../dist/ops/dither/blue-noise.js';
import { parseHexColor } from '../dist/params/index.js';
import { bench, countriesStyle, record } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = process.env.FIXTURES || path.resolve(HERE, '../../shared/fixtures');
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const want = (job) => !only || only.test(job);

async function input(size) {
  const peer = process.env.PEERS_WORK && path.join(process.env.PEERS_WORK, 'data', `png-input-map-${size}.png`);
  if (peer && existsSync(peer)) {
    const img = await decodePngRGBA(readFileSync(peer));
    const data = new Float32Array(img.width * img.height * 4);
    for (let i = 0; i < data.length; i += 4) {
      const a = img.data[i + 3] / 255;
      for (let c = 0; c < 3; c++) data[i + c] = (img.data[i + c] / 255) * a;
      data[i + 3] = a;
    }
    return { data, note: "the peers' map tile", peer: true };
  }
  const countries = existsSync(FIXTURES) ? path.join(FIXTURES, 'geojson/ne_110m_admin_0_countries.geojson') : 'npm:world-atlas/countries-110m.json';
  const r = Renderer.create(countriesStyle(countries), { loader: new NodeLoader({ baseDir: HERE, allowOutside: true }) });
  const raster = await r.renderTile({ z: 2, x: 2, y: 1 }, undefined, { tileSize: size });
  return { data: raster.data.slice(), note: 'our countries tile 2/2/1', peer: false };
}

// linear(a, b) on 0..255 is our (c - 0.5) * slope + 0.5 + brightness with slope = a and
// brightness = b / 255 + (a - 1) / 2: the same arithmetic per channel.
const SLOPE = 1.2;
const BRIGHTNESS = -12 / 255 + (SLOPE - 1) / 2;
const PALETTE = ['#000000', '#ffffff', '#e41a1c', '#377eb8', '#4daf4a', '#ffff33', '#984ea3', '#a65628'];
const palette = (space) => resolvePalette({ id: 'bench', node: { op: 'dither', palette: PALETTE, space }, resolve: (v) => parseHexColor(v) });

/** libvips' job 9 calls (../shared/peers/scripts/bench_sharp.mjs) on the 8-bit straight RGBA of `src`. */
async function sharpRows(src, size, note) {
  const { default: sharp } = await import('sharp');
  sharp.cache(false);
  const { toRGBA8 } = await import('../dist/index.js');
  const data = Buffer.from(toRGBA8({ kind: 'raster', width: size, height: size, data: src }));
  const raw = { width: size, height: size, channels: 4 };
  const jobs = [
    ['9 threshold', 'sharp .threshold(128)', (i) => i.threshold(128, { greyscale: false }), 'per channel'],
    ['9 brightness-contrast', 'sharp .linear(1.2, -12)', (i) => i.linear(1.2, -12), 'per channel a*x+b'],
  ];
  for (const [job, label, op, what] of jobs) {
    if (!want(job)) continue;
    const run = () => op(sharp(data, { raw })).raw().toBuffer();
    await run();
    record(job, label, size, await bench(run), `${note}; raw RGBA -> raw, ${what} (timed by bench/color.mjs)`);
  }
}

for (const size of [256, 512]) {
  const { data: src, note, peer } = await input(size);
  const dst = new Float32Array(src.length);
  if (!peer) await sharpRows(src, size, note);
  if (want('9 threshold')) {
    record(
      '9 threshold',
      'tilegraph cpu threshold kernel (luma)',
      size,
      await bench(() => threshold(src, dst, 0.5, 0, true)),
      `${note}; premultiplied float; luma step (the peer: per channel)`,
    );
  }
  if (want('9 brightness-contrast')) {
    record(
      '9 brightness-contrast',
      'tilegraph cpu brightness-contrast kernel',
      size,
      await bench(() => brightnessContrast(src, dst, BRIGHTNESS, SLOPE)),
      `${note}; premultiplied float, un/premultiply per pixel; slope 1.2 = linear(1.2, -12)`,
    );
  }
  for (const space of ['lab', 'rgb']) {
    const p = palette(space);
    if (want(`D dither ordered ${space}`)) {
      record(
        `D dither ordered ${space}`,
        'tilegraph cpu dither kernel',
        size,
        await bench(() => ordered(src, dst, size, size, 0, 0, p, 0.5, BAYER4)),
        `${note}; 8 colours`,
      );
    }
    if (want(`D dither blue-noise ${space}`)) {
      const m = blueNoise64();
      record(
        `D dither blue-noise ${space}`,
        'tilegraph cpu dither kernel',
        size,
        await bench(() => ordered(src, dst, size, size, 0, 0, p, 0.5, m)),
        `${note}; 8 colours`,
      );
    }
    if (want(`D dither floyd-steinberg ${space}`)) {
      record(
        `D dither floyd-steinberg ${space}`,
        'tilegraph cpu dither kernel',
        size,
        await bench(() => floydSteinberg(src, dst, size, size, p)),
        `${note}; 8 colours`,
      );
    }
  }
}
