// hillshade: against GDAL's hillshade formula (gdaldem_lib.cpp: Horn's gradient, GDALHillshadeAlg
// and GDALHillshadeMultiDirectionalAlg) written out here on a real DEM window (the Tyrol
// Terrain-RGB fixture, decoded here with sharp), the colour mapping, and CPU/GPU parity.
import sharp from 'sharp';
import { CpuBackend, Renderer, toRGBA8, type Window } from '../../index.js';
import { NodeLoader } from '../../hosts/node/loader.js';
import { MemoryLoader } from '../../../tests/sources/helpers.js';
import { fixture, fixturesTest } from '../../../tests/helpers/fixtures.js';
import { GPU, checkParity, diffRasters, gpuDescribe, gpuTest, randomFeatures, testWindow } from '../../../tests/gpu/harness.js';
import { expectSeamless, seam } from '../../../tests/helpers/seam.js';
import { hillshade, hillshadeReference, hillshadeSingle } from './cpu.js';
import { SHADE_BAND_PIXELS, shadeMemoryBytes, shadeSimdAvailable } from './simd.js';
import { premultiply, rowInverseResolution, shadeTerms, type ShadeColours } from './plan.js';

const TYROL = 'dem/terrain-rgb/maplibre-terrain-shading-512';
/** z10 at 512 px: a 256 px window straddling the four tiles 544..545 / 357..358 (margin included). */
const WIN: Window = { z: 10, x0: 544 * 512 + 256, y0: 357 * 512 + 384, width: 256, height: 256, tileSize: 512 };

const demStyle = (shade: Record<string, unknown> = {}) => ({
  output: 'out',
  sources: { dem: { type: 'dem', tiles: ['{z}-{x}-{y}.png'], encoding: 'mapbox', tileSize: 512, minzoom: 10, maxzoom: 10 } },
  nodes: { e: { op: 'dem' }, out: { op: 'hillshade', field: '@e', ...shade } },
});

/** Elevations (metres) of the 2x2 tile block 544..545 / 357..358, 1024 x 1024, decoded independently. */
async function tyrolBlock(): Promise<Float64Array> {
  const out = new Float64Array(1024 * 1024);
  for (const [dx, dy] of [
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ] as const) {
    const { data } = await sharp(fixture(TYROL, `10-${544 + dx}-${357 + dy}.png`))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    for (let j = 0; j < 512; j++)
      for (let i = 0; i < 512; i++) {
        const p = (j * 512 + i) * 3;
        out[(dy * 512 + j) * 1024 + dx * 512 + i] = -10000 + (data[p]! * 65536 + data[p + 1]! * 256 + data[p + 2]!) * 0.1;
      }
  }
  return out;
}

/** gdaldem hillshade -alg Horn, written out from gdaldem_lib.cpp, for one 3x3 window. */
function gdal(win: number[], ewres: number, nsres: number, az: number, alt: number, z: number, multi: boolean): number {
  const [a0, a1, a2, a3, , a5, a6, a7, a8] = win as [number, number, number, number, number, number, number, number, number];
  const x = (a0 + a3 + a3 + a6 - (a2 + a5 + a5 + a8)) / ewres;
  const y = (a6 + a7 + a7 + a8 - (a0 + a1 + a1 + a2)) / nsres;
  const d = Math.PI / 180;
  const zf = z / 8; // Horn's 1/8, folded into z as GDAL does
  if (!multi) {
    const cang =
      (254 * Math.sin(alt * d) - (y * 254 * Math.cos(az * d) * Math.cos(alt * d) * zf - x * 254 * Math.sin(az * d) * Math.cos(alt * d) * zf)) /
      Math.sqrt(1 + zf * zf * (x * x + y * y));
    return cang <= 0 ? 1 : 1 + cang;
  }
  const q = x * x + y * y;
  if (q === 0) return 1 + 254 * Math.sin(alt * d);
  const c = 127 * Math.cos(alt * d) * zf;
  const s = 127 * Math.sin(alt * d);
  const v225 = Math.max(0, s + (x - y) * Math.cos(225 * d) * c);
  const v270 = Math.max(0, s - x * c);
  const v315 = Math.max(0, s + (x + y) * Math.cos(225 * d) * c);
  const v360 = Math.max(0, s - y * c);
  const w225 = 0.5 * q - x * y;
  return 1 + (w225 * v225 + x * x * v270 + (q - w225) * v315 + y * y * v360) / q / Math.sqrt(1 + zf * zf * q);
}

/** Ground metres per pixel at world pixel row y (Web Mercator at the window's zoom). */
function groundRes(w: Window, y: number): number {
  const world = w.tileSize * 2 ** w.z;
  const lat = Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / world)));
  return (40075016.686 * Math.cos(lat)) / world;
}

describe('hillshade against GDAL', () => {
  for (const [name, opts] of [
    ['defaults (azimuth 315, altitude 45, z 1)', { az: 315, alt: 45, z: 1, multi: false }],
    ['azimuth 200, altitude 30, z-factor 2.5', { az: 200, alt: 30, z: 2.5, multi: false }],
    ['multidirectional, altitude 45', { az: 315, alt: 45, z: 1, multi: true }],
  ] as const) {
    fixturesTest(`Tyrol DEM window: ${name}: the 8-bit grey equals GDAL's value within 2/255 on >= 99% of pixels`, async () => {
      const block = await tyrolBlock();
      const r = Renderer.create(demStyle({ azimuth: opts.az, altitude: opts.alt, 'z-factor': opts.z, multidirectional: opts.multi }), {
        loader: new NodeLoader({ baseDir: fixture(TYROL) }),
      });
      const px = toRGBA8((await r.renderWindow(WIN)).raster);
      const ox = WIN.x0 - 544 * 512,
        oy = WIN.y0 - 357 * 512;
      let within = 0,
        exact = 0,
        worst = 0,
        notGrey = 0;
      const n = WIN.width * WIN.height;
      for (let j = 0; j < WIN.height; j++) {
        const res = groundRes(WIN, WIN.y0 + j + 0.5);
        for (let i = 0; i < WIN.width; i++) {
          const win: number[] = [];
          for (let dj = -1; dj <= 1; dj++) for (let di = -1; di <= 1; di++) win.push(block[(oy + j + dj) * 1024 + ox + i + di]!);
          const want = Math.round(gdal(win, res, -res, opts.az, opts.alt, opts.z, opts.multi));
          const p = (j * WIN.width + i) * 4;
          const d = Math.abs(px[p]! - want);
          if (px[p + 3] !== 255 || px[p + 1] !== px[p] || px[p + 2] !== px[p]) notGrey++;
          if (d <= 2) within++;
          if (d === 0) exact++;
          worst = Math.max(worst, d);
        }
      }
      if (process.env.PARITY_LOG) console.log(`${name}: ${exact} of ${n} exact, worst ${worst}`);
      expect(notGrey).toBe(0);
      expect(within / n).toBeGreaterThanOrEqual(0.99);
      expect(exact / n).toBeGreaterThan(0.9);
    });
  }
});

describe('hillshade colours', () => {
  // A field from density splats (an inline source, no files): values scaled by a large z-factor.
  const W = testWindow(64);
  const style = (shade: Record<string, unknown>) => ({
    output: 'out',
    sources: { pts: { type: 'geojson', data: randomFeatures(5, W, { points: 30 }, 24) } },
    nodes: {
      p: { op: 'features', source: 'pts' },
      d: { op: 'density', features: '@p', radius: 20, intensity: 30 },
      out: { op: 'hillshade', field: '@d', 'z-factor': 20000, ...shade },
    },
  });

  test('flat ground takes the flat value 1 + 254 sin(altitude); shadow and highlight interpolate premultiplied', async () => {
    const grey = (await Renderer.create(style({})).renderWindow(W)).raster;
    const tinted = (await Renderer.create(style({ 'shadow-color': '#20104080', 'highlight-color': '#ffe0a0' })).renderWindow(W)).raster;
    const flat = (1 + 254 * Math.SQRT1_2) / 255;
    let flats = 0;
    for (let i = 0; i < grey.data.length; i += 4) {
      const v = grey.data[i]!;
      expect(grey.data[i + 3]).toBe(1);
      if (Math.abs(v - flat) < 1e-6) flats++;
      // tinted = shadow + (highlight - shadow) v, premultiplied
      const s = [(0x20 / 255) * 0.502, (0x10 / 255) * 0.502, (0x40 / 255) * 0.502, 128 / 255];
      const h = [1, 0xe0 / 255, 0xa0 / 255, 1];
      for (let c = 0; c < 4; c++) expect(tinted.data[i + c]).toBeCloseTo(s[c]! + (h[c]! - s[c]!) * v, 2);
    }
    expect(flats).toBeGreaterThan(10);
    expect(grey.data.some((v, i) => i % 4 === 0 && v < flat - 0.1)).toBe(true);
  });

  test('the accent colour covers steep slopes only', async () => {
    const plain = (await Renderer.create(style({})).renderWindow(W)).raster;
    const acc = (await Renderer.create(style({ 'accent-color': '#ff0000' })).renderWindow(W)).raster;
    let changed = 0;
    for (let i = 0; i < plain.data.length; i += 4) {
      const flat = Math.abs(plain.data[i]! - (1 + 254 * Math.SQRT1_2) / 255) < 1e-6;
      if (flat) expect(acc.data[i + 1]).toBeCloseTo(plain.data[i + 1]!, 6);
      if (acc.data[i]! - acc.data[i + 1]! > 0.2) changed++;
    }
    expect(changed).toBeGreaterThan(50);
  });
});

gpuDescribe('CPU/GPU parity', () => {
  const W = testWindow(64);
  test('hillshade of a density field: single, multidirectional, coloured with accent', async () => {
    for (const [i, shade] of [
      {},
      { multidirectional: true, altitude: 30 },
      { azimuth: 120, 'shadow-color': '#102040c0', 'highlight-color': '#ffffff40', 'accent-color': '#80402080' },
    ].entries()) {
      const style = {
        output: 'out',
        sources: { pts: { type: 'geojson', data: randomFeatures(40 + i, W, { points: 30 }, 24) } },
        nodes: {
          p: { op: 'features', source: 'pts' },
          d: { op: 'density', features: '@p', radius: 20, intensity: 30 },
          out: { op: 'hillshade', field: '@d', 'z-factor': 20000, ...shade },
        },
      };
      await checkParity(`hillshade ${i}`, style, W);
    }
  });
});

(GPU ? fixturesTest : gpuTest)('CPU/GPU parity on the Tyrol DEM window (real data)', async () => {
  const r = Renderer.create(demStyle({ multidirectional: false }), { loader: new NodeLoader({ baseDir: fixture(TYROL) }) });
  const small: Window = { ...WIN, width: 96, height: 96 };
  const cpu = (await r.renderWindow(small, undefined, { backend: new CpuBackend() })).raster;
  const gpu = (await r.renderWindow(small, undefined, { backend: GPU! })).raster;
  const d = diffRasters(cpu, gpu);
  expect({ float: d.maxFloat <= 1.5e-3, max8: d.max8 <= 2 }).toEqual({ float: true, max8: true });
});

describe('seam invariant: 2x2 tile mosaic = window render', () => {
  test('hillshade of a density field of points near the inner tile edges (z5, 128 px)', async () => {
    const block: Window = { z: 5, x0: 12 * 128, y0: 9 * 128, width: 256, height: 256, tileSize: 128 };
    const style = {
      output: 'out',
      sources: { pts: { type: 'geojson', data: randomFeatures(81, block, { points: 60 }, 8) } },
      nodes: {
        p: { op: 'features', source: 'pts' },
        d: { op: 'density', features: '@p', radius: 24, intensity: 30 },
        out: { op: 'hillshade', field: '@d', 'z-factor': 4000, 'accent-color': '#80200080' },
      },
    };
    expectSeamless(await seam(style, 5, 12, 9), 0.9);
  });

  fixturesTest('hillshade of the Tyrol Terrain-RGB block rendered at z11 / 256 px (over-zoomed, bilinear), multidirectional', async () => {
    const style = demStyle({ multidirectional: true, 'shadow-color': '#203050', 'highlight-color': '#fff8e0' });
    (style.sources.dem as { maxzoom: number }).maxzoom = 10;
    expectSeamless(await seam(style, 11, 1088, 715, 256, { loader: new NodeLoader({ baseDir: fixture(TYROL) }) }), 0.95);
  });
});

describe('no data', () => {
  /** One 256 px Terrarium tile z6/30/20: smooth hills with a transparent (no-data) disk. */
  async function holeLoader(): Promise<MemoryLoader> {
    const S = 256;
    const raw = new Uint8Array(S * S * 4);
    for (let j = 0; j < S; j++)
      for (let i = 0; i < S; i++) {
        const h = 1500 + 900 * Math.sin(i / 9) * Math.cos(j / 11);
        const v = Math.round((h + 32768) * 256) / 256;
        const r = Math.floor(v / 256),
          g = Math.floor(v - r * 256),
          b = Math.round((v - r * 256 - g) * 256);
        const hole = Math.hypot(i - 40, j - 24) < 9;
        raw.set([r, g, b, hole ? 0 : 255], (j * S + i) * 4);
      }
    const png = new Uint8Array(
      await sharp(raw, { raw: { width: S, height: S, channels: 4 } })
        .png()
        .toBuffer(),
    );
    return new MemoryLoader({ 'dem/6/30/20.png': png });
  }
  const style = {
    output: 'out',
    sources: { dem: { type: 'dem', tiles: ['dem/{z}/{x}/{y}.png'], encoding: 'terrarium', tileSize: 256, minzoom: 6, maxzoom: 6 } },
    nodes: { e: { op: 'dem' }, out: { op: 'hillshade', field: '@e', 'z-factor': 3 } },
  };
  // Inside the tile, away from its edges (the margin reads only this tile).
  const win: Window = { z: 6, x0: 30 * 256 + 4, y0: 20 * 256 + 4, width: 56, height: 56, tileSize: 256 };

  test('a window touching a no-data (NaN) elevation is transparent; the rest is opaque', async () => {
    const r = Renderer.create(style, { loader: await holeLoader() });
    const out = (await r.renderWindow(win)).raster;
    let clear = 0;
    for (let j = 0; j < 56; j++)
      for (let i = 0; i < 56; i++) {
        const a = out.data[(j * 56 + i) * 4 + 3]!;
        const d = Math.hypot(i + 4 - 40, j + 4 - 24);
        if (d < 7.5) expect(a).toBe(0);
        if (d > 11) expect(a).toBe(1);
        if (a === 0) clear++;
      }
    expect(clear).toBeGreaterThan(150);
  });

  gpuTest('the GPU pass makes the same pixels transparent (parity with no data)', async () => {
    const r = Renderer.create(style, { loader: await holeLoader() });
    const cpu = (await r.renderWindow(win, undefined, { backend: new CpuBackend() })).raster;
    const gpu = (await r.renderWindow(win, undefined, { backend: GPU! })).raster;
    const d = diffRasters(cpu, gpu);
    expect({ float: d.maxFloat <= 1.5e-3, max8: d.max8 <= 2 }).toEqual({ float: true, max8: true });
  });
});

describe('the single-light fast paths', () => {
  function field(w: number, h: number): Float32Array {
    const f = new Float32Array((w + 2) * (h + 2));
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < f.length; i++) f[i] = 800 + 600 * Math.sin(i / 13) + 200 * rnd();
    if (w > 30 && h > 20) {
      f[5 * (w + 2) + 9] = NaN;
      f[12 * (w + 2) + 30] = Infinity;
      f[20 * (w + 2) + 3] = -Infinity;
    }
    return f;
  }
  const lights = [
    [315, 45, 1],
    [90, 10, 4],
    [200, 80, 0.5],
  ] as const;
  const palettes = [
    { shadow: [0, 0, 0, 1], highlight: [1, 1, 1, 1], accent: [0, 0, 0, 0] },
    { shadow: premultiply([0.2, 0.1, 0.4, 0.5]), highlight: premultiply([1, 0.9, 0.6, 1]), accent: [0, 0, 0, 0] },
  ] as ShadeColours[];

  test('the TypeScript one equals the reference kernel bit for bit, no data (NaN, +-Infinity) and colours included', () => {
    const w = 37,
      h = 23;
    const f = field(w, h);
    const inv = rowInverseResolution({ z: 9, x0: 100 * 256, y0: 170 * 256, width: w, height: h, tileSize: 256 });
    for (const [az, alt, z] of lights)
      for (const colours of palettes) {
        const terms = shadeTerms(az, alt, z, false);
        expect(Array.from(hillshadeSingle(f, w, h, inv, terms, colours))).toEqual(Array.from(hillshadeReference(f, w, h, inv, terms, colours)));
      }
  });

  test('the WebAssembly SIMD one runs here, is within 2e-6 of the reference and leaves the same pixels transparent', () => {
    expect(shadeSimdAvailable()).toBe(true);
    for (const [w, h] of [
      [37, 23],
      [4, 3],
      [3, 5],
      [64, 9],
    ] as const) {
      const f = field(w, h);
      const inv = rowInverseResolution({ z: 9, x0: 100 * 256, y0: 170 * 256, width: w, height: h, tileSize: 256 });
      for (const [az, alt, z] of lights)
        for (const colours of palettes) {
          const terms = shadeTerms(az, alt, z, false);
          const fast = hillshade(f, w, h, inv, terms, colours);
          const ref = hillshadeReference(f, w, h, inv, terms, colours);
          let d = 0,
            clear = 0;
          for (let i = 0; i < ref.length; i++) {
            d = Math.max(d, Math.abs(fast[i]! - ref[i]!));
            if ((fast[i] === 0) !== (ref[i] === 0) && i % 4 === 3) clear++;
          }
          expect({ w, d: d < 2e-6, clear }).toEqual({ w, d: true, clear: 0 });
        }
    }
  });

  // The WebAssembly kernel runs in bands of rows (its memory never shrinks); each pixel reads its
  // 3x3 window and its row's resolution only, so rows at a band's edge must equal a small call over them.
  test('on a canvas taller than one band: within 2e-6 of the reference, band-edge rows as a call on them alone, the memory one band', () => {
    const w = 260;
    const band = Math.floor(SHADE_BAND_PIXELS / (w + 2));
    const h = 2 * band + 3;
    const f = field(w, h);
    const win = { z: 9, x0: 100 * 256, y0: 170 * 256, width: w, height: h, tileSize: 256 };
    const inv = rowInverseResolution(win);
    const terms = shadeTerms(315, 45, 1, false);
    const colours = palettes[0]!;
    const fast = hillshade(f, w, h, inv, terms, colours);
    const ref = hillshadeReference(f, w, h, inv, terms, colours);
    let d = 0;
    for (let i = 0; i < ref.length; i++) d = Math.max(d, Math.abs(fast[i]! - ref[i]!));
    expect(d).toBeLessThan(2e-6);
    for (const s of [band - 2, 2 * band - 2]) {
      const strip = f.slice(s * (w + 2), (s + 6) * (w + 2));
      const small = hillshade(strip, w, 4, inv.slice(s, s + 4), terms, colours);
      expect(Array.from(fast.subarray(s * w * 4, (s + 4) * w * 4))).toEqual(Array.from(small));
    }
    expect(shadeMemoryBytes()).toBeLessThanOrEqual(SHADE_BAND_PIXELS * 24 + 65536);
  });
});
