// blur: the fast path against the exact truncated Gaussian, the exact one against a direct 2-D sum,
// and the op's padding, clamping and tile seams through the render loop.
import { blurExact, blurFast, monoPlane, monoPlane as monoOf, type PixelBox } from './cpu.js';
import { BLUR_SIMD_MAX_PIXELS, blurExactPlaneSimd, blurExactSimd, blurMemoryBytes, simdAvailable, tintSimd } from './simd.js';
import { gaussianKernel, kernelRadius } from './plan.js';
import { Renderer, tileWindow, type Window } from '../../index.js';
import { rng } from '../../../tests/helpers/random.js';
import { ADDON, announceAddon, FAST_KERNELS, useNative } from '../../../tests/helpers/native.js';
import { polygonCollection } from '../../../tests/helpers/geometry.js';
import { gpuTest, checkParity, PARITY_WINDOW, randomRasterNodes, rasterSources, RASTER_TOL } from '../../../tests/gpu/harness.js';

announceAddon('src/ops/blur/blur.test.ts');

type Pattern = 'noise' | 'step' | 'square' | 'dot' | 'lines';

/** What a w x h window reads under a blur of sigma: the kernel radius r, and the source size with r on every side. */
function apron(sigma: number, w: number, h: number): { r: number; sw: number; sh: number } {
  const r = kernelRadius(sigma);
  return { r, sw: w + 2 * r, sh: h + 2 * r };
}

/** A premultiplied test image: colour = a fixed hue times alpha. */
function image(kind: Pattern, sw: number, sh: number, sigma: number, seed = 1): Float32Array {
  const r = rng(seed);
  const d = new Float32Array(sw * sh * 4);
  for (let y = 0; y < sh; y++) {
    for (let x = 0; x < sw; x++) {
      let a: number;
      switch (kind) {
        case 'noise':
          a = r();
          break;
        case 'step':
          a = x >= sw / 2 + 0.3 * (y - sh / 2) ? 1 : 0;
          break;
        case 'square':
          a = Math.abs(x - sw / 2) < 2 * sigma + 1 && Math.abs(y - sh / 2) < 2 * sigma + 1 ? 1 : 0;
          break;
        case 'dot':
          a = x === sw >> 1 && y === sh >> 1 ? 1 : 0;
          break;
        case 'lines':
          a = x % 7 === 0 || y % 11 === 0 ? 1 : 0;
          break;
      }
      const p = (y * sw + x) * 4;
      d[p] = a;
      d[p + 1] = kind === 'noise' ? r() * a : 0.5 * a;
      d[p + 2] = 0.25 * a;
      d[p + 3] = a;
    }
  }
  return d;
}

const maxDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);

describe('exact reference', () => {
  test('kernel is normalised, symmetric and truncated at ceil(3 sigma)', () => {
    for (const sigma of [0.3, 1, 2.5, 7]) {
      const k = gaussianKernel(sigma);
      expect(k.length).toBe(2 * Math.ceil(3 * sigma) + 1);
      expect(k.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
      const r = kernelRadius(sigma);
      expect(k[r - 1]! / k[r]!).toBeCloseTo(Math.exp(-1 / (2 * sigma * sigma)), 12);
    }
  });

  test('separable passes equal the direct 2-D truncated sum', () => {
    const sigma = 1.7;
    const w = 9,
      h = 7;
    const { r, sw, sh } = apron(sigma, w, h);
    const src = image('noise', sw, sh, sigma, 3);
    const out = blurExact(src, sw, sh, r, r, w, h, sigma);
    const g = (i: number) => Math.exp(-(i * i) / (2 * sigma * sigma));
    let norm = 0;
    for (let i = -r; i <= r; i++) norm += g(i);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        for (let c = 0; c < 4; c++) {
          let s = 0;
          for (let j = -r; j <= r; j++) for (let i = -r; i <= r; i++) s += g(i) * g(j) * src[((y + r + j) * sw + x + r + i) * 4 + c]!;
          expect(out[(y * w + x) * 4 + c]).toBeCloseTo(s / (norm * norm), 5);
        }
      }
    }
  });
});

describe('the exact kernel in SIMD (sigma < 4, RGBA and one plane) within 1e-6 of blurExact', () => {
  // The op runs blurFast; below sigma 4 (no decimation) its RGBA path is blurExactSimd and its
  // one-plane path blurExactPlaneSimd (f32 weights and sums), the reference blurExact sums in f64.
  // Windows inside the source and reading past it; widths not a multiple of 4.
  const t = simdAvailable() ? test : test.skip;
  t('sigma 0.5, 1.5, 2, 2.5, 3.9 on every pattern, windows inside and past the source', () => {
    for (const sigma of [0.5, 1.5, 2, 2.5, 3.9]) {
      const w = 45,
        h = 38;
      const { r, sw, sh } = apron(sigma, w, h);
      let worst = 0;
      for (const kind of ['noise', 'step', 'square', 'dot', 'lines'] as Pattern[]) {
        const src = image(kind, sw, sh, sigma, 5);
        for (const [ox, oy, ww, hh] of [
          [r, r, w, h],
          [0, 1, w + r, h],
          [2 * r, 0, w - 3, h + r],
        ] as const) {
          worst = Math.max(worst, maxDiff(blurFast(src, sw, sh, ox, oy, ww, hh, sigma), blurExact(src, sw, sh, ox, oy, ww, hh, sigma)));
          // One plane (blurExactPlaneSimd): the alpha channel on its own.
          const a = Float32Array.from({ length: sw * sh }, (_, i) => src[i * 4 + 3]!);
          worst = Math.max(worst, maxDiff(blurFast(a, sw, sh, ox, oy, ww, hh, sigma, 0, 0, 1), blurExact(a, sw, sh, ox, oy, ww, hh, sigma, 1)));
        }
      }
      expect({ sigma, worst: worst <= 1e-6 ? 'within 1e-6' : worst }).toEqual({ sigma, worst: 'within 1e-6' });
    }
  });
});

describe.each(FAST_KERNELS)('%s', (_name, native) => {
  describe("the sliding passes (convX, convY) give the tap tables' bits", () => {
    // Where every tap lies inside the source (the op's pad is at least the radius), blurExactSimd and
    // blurExactPlaneSimd run convX / convY (one weight table, sliding four outputs); the tap-table
    // kernels (pixels, rows) are the reference, compared with Object.is on every value: the same
    // f32 sums in the same order, signed zeros and non-finite values included.
    const t = simdAvailable() ? test : test.skip;
    // useNative: the sliding passes in blur.wat, or in the addon where the CPU has AVX-512 (the tap
    // tables stay in blur.wat either way)
    beforeEach(() => useNative(native));
    afterAll(() => useNative(true));
    t('RGBA and one plane, sigma 0.5 .. 3.9, sizes not multiples of 4, -0, Infinity and NaN', () => {
      const same = (a: Float32Array, b: Float32Array) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
      for (const sigma of [0.5, 1.5, 2.5, 3.9]) {
        for (const [w, h] of [
          [45, 38],
          [4, 3],
          [64, 33],
        ] as const) {
          const { r, sw, sh } = apron(sigma, w, h);
          for (const kind of ['noise', 'step', 'dot'] as Pattern[]) {
            const src = image(kind, sw, sh, sigma, 7);
            src[5] = -0;
            src[(sw * r + r) * 4 + 2] = Number.POSITIVE_INFINITY;
            src[(sw * (r + 2) + r + 3) * 4 + 1] = Number.NaN;
            const k = gaussianKernel(sigma);
            for (const [ox, oy] of [
              [r, r],
              [r + 1, r],
            ] as const) {
              const ww = Math.min(w, sw - ox - r);
              const a = new Float32Array(ww * h * 4);
              const b = new Float32Array(ww * h * 4);
              expect(blurExactSimd(src, sw, sh, ox, oy, ww, h, k, a)).toBe(true);
              expect(blurExactSimd(src, sw, sh, ox, oy, ww, h, k, b, false)).toBe(true);
              expect({ sigma, w: ww, h, kind, rgba: same(a, b) }).toEqual({ sigma, w: ww, h, kind, rgba: true });
              const plane = Float32Array.from({ length: sw * sh }, (_, i) => src[i * 4 + 2]!);
              const pa = new Float32Array(ww * h);
              const pb = new Float32Array(ww * h);
              expect(blurExactPlaneSimd(plane, sw, sh, ox, oy, ww, h, k, pa)).toBe(true);
              expect(blurExactPlaneSimd(plane, sw, sh, ox, oy, ww, h, k, pb, false)).toBe(true);
              expect({ sigma, w: ww, h, kind, plane: same(pa, pb) }).toEqual({ sigma, w: ww, h, kind, plane: true });
            }
          }
        }
      }
    });
  });
});

describe("the addon's convolutions (native/pixels.h convY, convX)", () => {
  // Both copies against the sums written out in f32 here (Math.fround after each product and each
  // sum: exact, as f32 products fit an f64 and a sum's f64 rounding never lands on an f32 tie),
  // from +0 in tap order; odd lengths (the masked last step), -0, infinities and NaN; strides
  // wider than a row; and bad offsets throw rather than read past the memory.
  const sum = (xs: number[], ws: number[]) => xs.reduce((a, x, t) => Math.fround(a + Math.fround(x * ws[t]!)), 0);
  (ADDON ? test : test.skip)('the f32 sums in tap order, bit for bit', () => {
    const r = rng(99);
    const odd = [-0, 0, Number.POSITIVE_INFINITY, Number.NaN, 1e-40, -3];
    const mem = new Float32Array(1 << 16);
    for (let i = 0; i < mem.length; i++) mem[i] = r() < 0.03 ? odd[Math.floor(r() * odd.length)]! : Math.fround(r() * 2 - 0.5);
    const bytes = new Uint8Array(mem.buffer);
    const copies = ADDON?.simd === 'avx512' ? ([0, 1] as const) : ([1] as const);
    for (const taps of [0, 1, 3, 7, 12])
      for (const len of [1, 4, 15, 16, 17, 37]) {
        const wts = 60000; // weights at floats 60000.., each in four lanes
        const ws = Array.from({ length: taps }, (_, t) => mem[wts + 4 * t]!);
        for (let t = 0; t < taps; t++) mem.fill(ws[t]!, wts + 4 * t, wts + 4 * t + 4);
        for (const generic of copies) {
          // convY: rows of `len` floats at stride len + 5 from float 100, 6 outputs at float 20000, stride len + 2
          const inS = len + 5;
          const outS = len + 2;
          ADDON!.convY(bytes, 400, inS * 4, 80000, outS * 4, len * 4, 6, wts * 4, taps, generic);
          for (let y = 0; y < 6; y++)
            for (let j = 0; j < len; j++) {
              const want = sum(
                Array.from({ length: taps }, (_, t) => mem[100 + (y + t) * inS + j]!),
                ws,
              );
              expect([taps, len, generic, 'Y', y, j, Object.is(mem[20000 + y * outS + j], want)]).toEqual([taps, len, generic, 'Y', y, j, true]);
            }
          // convX: 3 rows, `len` output pixels, input rows of len + taps + 2 pixels from float 30000
          const inP = (len + taps + 2) * 4;
          ADDON!.convX(bytes, 120000, inP * 4, 3, 160000, (len * 4 + 8) * 4, len, wts * 4, taps, generic);
          for (let y = 0; y < 3; y++)
            for (let x = 0; x < len; x++)
              for (let c = 0; c < 4; c++) {
                const want = sum(
                  Array.from({ length: taps }, (_, t) => mem[30000 + y * inP + (x + t) * 4 + c]!),
                  ws,
                );
                expect([taps, len, generic, 'X', y, x, c, Object.is(mem[40000 + y * (len * 4 + 8) + x * 4 + c], want)]).toEqual([
                  taps,
                  len,
                  generic,
                  'X',
                  y,
                  x,
                  c,
                  true,
                ]);
              }
        }
      }
  });
  (ADDON ? test : test.skip)('offsets, strides or counts past the memory throw', () => {
    const bytes = new Uint8Array(4096);
    expect(() => ADDON!.convY(bytes, 0, 64, 0, 64, 64, 62, 0, 5, 1)).toThrow(/^convY: /); // rows past the end
    expect(() => ADDON!.convY(bytes, 2, 64, 0, 64, 64, 2, 0, 1, 1)).toThrow(/^convY: /); // not a float offset
    expect(() => ADDON!.convX(bytes, 0, 64, 100, 0, 64, 4, 0, 1, 1)).toThrow(/^convX: /);
    expect(() => ADDON!.convX(bytes, 0, 64, 1, 0, 64, 4, 4090, 1, 1)).toThrow(/^convX: /); // weights past the end
    expect(() => ADDON!.convX(bytes, -4, 64, 1, 0, 64, 4, 0, 1, 1)).toThrow(/^convX: /);
  });
});

describe('fast path within 1/255 of the exact Gaussian', () => {
  const patterns: Pattern[] = ['noise', 'step', 'square', 'dot', 'lines'];
  for (const sigma of [0.5, 2, 4, 6.5, 8, 16, 32]) {
    test(`sigma ${sigma}`, () => {
      const w = 48,
        h = 40;
      const { r, sw, sh } = apron(sigma, w, h);
      let worst = 0;
      for (const kind of patterns) {
        const src = image(kind, sw, sh, sigma, 11);
        const exact = blurExact(src, sw, sh, r, r, w, h, sigma);
        // Several world offsets: the decimation grid is world-aligned, so its phase changes.
        for (const [wx, wy] of [
          [0, 0],
          [3, -5],
          [-1001, 77],
        ] as const) {
          worst = Math.max(worst, maxDiff(blurFast(src, sw, sh, r, r, w, h, sigma, wx, wy), exact));
        }
      }
      expect(worst).toBeLessThanOrEqual(1 / 255);
      // The mass of a bright pixel is preserved (the kernel sums to 1); the output window reaches
      // 2r from the dot, past the fast path's support (a little more than r).
      const big = 6 * r + 1;
      const dot = image('dot', big, big, sigma);
      const total = blurFast(dot, big, big, r, r, big - 2 * r, big - 2 * r, sigma).reduce((s, v, i) => (i % 4 === 3 ? s + v : s), 0);
      expect(total).toBeCloseTo(1, 5);
    });
  }

  test('sigma 0 is the identity (a crop of the padded input)', () => {
    const src = image('noise', 20, 16, 0, 5);
    const out = blurFast(src, 20, 16, 2, 3, 16, 10, 0);
    for (let y = 0; y < 10; y++)
      for (let x = 0; x < 16; x++) for (let c = 0; c < 4; c++) expect(out[(y * 16 + x) * 4 + c]).toBe(src[((y + 3) * 20 + x + 2) * 4 + c]);
  });
});

describe('blur op', () => {
  const style = (sigma: unknown, extra: Record<string, unknown> = {}) => ({
    output: 'out',
    params: { s: { type: 'number', default: 3, min: 0, max: 4 } },
    nodes: {
      dot: { op: 'solid', color: '#ffffff' },
      zoom: { op: 'zoom' },
      out: { op: 'blur', input: '@dot', sigma, ...extra },
    },
  });

  test('the pad is ceil(3 sigma bound): a solid stays solid to the canvas edge', async () => {
    const r = Renderer.create(style('$s'));
    expect(r.plan.nodes.get('dot')!.margin).toBe(12);
    const { raster } = await r.renderWindow(tileWindow({ z: 2, x: 1, y: 1 }, 32), r.params({ s: '4' }));
    for (const v of raster.data) expect(v).toBeCloseTo(1, 5);
  });

  test('an @node sigma clamps to sigma-max', async () => {
    const poly = {
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [-60, 10],
            [-30, 10],
            [-30, 40],
            [-60, 40],
            [-60, 10],
          ],
        ],
      },
    };
    const withSigma = (sigma: unknown, extra: Record<string, unknown> = {}) =>
      Renderer.create({
        output: 'out',
        sources: {
          shapes: {
            type: 'geojson',
            data: { type: 'FeatureCollection', features: [poly] },
          },
        },
        nodes: {
          f: { op: 'features', source: 'shapes' },
          fill: { op: 'fill-solid', features: '@f', fill: '#ffffff' },
          zoom: { op: 'zoom' },
          out: { op: 'blur', input: '@fill', sigma, ...extra },
        },
      });
    const win = tileWindow({ z: 2, x: 1, y: 1 }, 64);
    const render = async (r: Renderer) => (await r.renderWindow(win)).raster.data;
    // The tile zoom is 2 and sigma-max 1.5: the port value clamps to 1.5, and the pad is ceil(4.5).
    const clamped = withSigma('@zoom', { 'sigma-max': 1.5 });
    expect(clamped.plan.nodes.get('fill')!.margin).toBe(5);
    const a = await render(clamped);
    expect(maxDiff(a, await render(withSigma(1.5)))).toBe(0);
    expect(maxDiff(a, await render(withSigma(2)))).toBeGreaterThan(0.01);
  });

  test('tiles agree with the bbox render of the same area (seams)', async () => {
    // A world-anchored sharp-edged image (stripes and a disk), cut into 2 x 2 tiles with their pads.
    const sigma = 13;
    const r = kernelRadius(sigma);
    const world = (x0: number, y0: number, w: number, h: number) => {
      const d = new Float32Array(w * h * 4);
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const X = x0 + x,
            Y = y0 + y;
          const a = (X * 7 + Y * 13) % 97 < 30 || (X - 100) ** 2 + (Y - 60) ** 2 < 400 ? 1 : 0;
          d.set([a, a * 0.3, 0, a], (y * w + x) * 4);
        }
      }
      return d;
    };
    const win: Window = {
      z: 3,
      x0: 64,
      y0: 32,
      width: 96,
      height: 64,
      tileSize: 48,
    };
    const whole = blurFast(world(win.x0 - r, win.y0 - r, 96 + 2 * r, 64 + 2 * r), 96 + 2 * r, 64 + 2 * r, r, r, 96, 64, sigma, win.x0 - r, win.y0 - r);
    for (const [tx, ty] of [
      [0, 0],
      [48, 0],
      [0, 32],
      [48, 32],
    ] as const) {
      const X0 = win.x0 + tx,
        Y0 = win.y0 + ty;
      const part = blurFast(world(X0 - r, Y0 - r, 48 + 2 * r, 32 + 2 * r), 48 + 2 * r, 32 + 2 * r, r, r, 48, 32, sigma, X0 - r, Y0 - r);
      let worst = 0;
      for (let y = 0; y < 32; y++)
        for (let x = 0; x < 48; x++)
          for (let c = 0; c < 4; c++) worst = Math.max(worst, Math.abs(part[(y * 48 + x) * 4 + c]! - whole[((y + ty) * 96 + x + tx) * 4 + c]!));
      expect(worst).toBeLessThan(1 / 255);
    }
  });
});

describe('blurFast reads only what sigma needs', () => {
  test('a wide padding (sized for a larger sigma bound) gives the same pixels as a tight one', async () => {
    const { blurFast } = await import('./cpu.js');
    const w = 40,
      h = 30,
      sigma = 6,
      wide = 60,
      tight = 3 * sigma + 30;
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const sw = w + 2 * wide,
      sh = h + 2 * wide;
    const src = new Float32Array(sw * sh * 4).map(() => rnd());
    const a = blurFast(src, sw, sh, wide, wide, w, h, sigma, 1000, 2000);
    // The same world pixels through a source that extends only `tight` around the output.
    const tw = w + 2 * tight,
      th = h + 2 * tight,
      off = wide - tight;
    const sub = new Float32Array(tw * th * 4);
    for (let y = 0; y < th; y++) sub.set(src.subarray(((y + off) * sw + off) * 4, ((y + off) * sw + off + tw) * 4), y * tw * 4);
    const b = blurFast(sub, tw, th, tight, tight, w, h, sigma, 1000 + off, 2000 + off);
    let max = 0;
    for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
    expect(max).toBeLessThan(1e-6);
  });
});

describe('one-colour rasters blur their alpha plane alone', () => {
  const plane = (src: Float32Array) => src.filter((_, i) => i % 4 === 3);

  test('1-channel kernels equal the alpha channel of the RGBA kernels (exact and fast paths)', () => {
    for (const sigma of [0.8, 2, 3.5, 4, 9, 16]) {
      const w = 37,
        h = 29;
      const { r, sw, sh } = apron(sigma, w, h);
      const src = image('noise', sw, sh, sigma, 21);
      const a = plane(src);
      for (const [wx, wy] of [
        [0, 0],
        [-1001, 77],
      ] as const) {
        const four = blurFast(src, sw, sh, r, r, w, h, sigma, wx, wy);
        const one = blurFast(a, sw, sh, r, r, w, h, sigma, wx, wy, 1);
        expect(one.length).toBe(w * h);
        expect(maxDiff(one, plane(four))).toBeLessThanOrEqual(1e-6);
      }
      // The reference too, with a source smaller than the window reads (zeros outside).
      const exact4 = blurExact(src, sw, sh, 1, 2, w, h, sigma);
      expect(maxDiff(blurExact(a, sw, sh, 1, 2, w, h, sigma, 1), plane(exact4))).toBeLessThanOrEqual(1e-6);
    }
  });

  /** Windows [w, h, world x, world y] of the SIMD tests: widths not a multiple of 4, offsets across the decimation grid. */
  const SIMD_WINDOWS = [
    [37, 29, 0, 0],
    [64, 48, -1001, 77],
    [5, 70, 3, -9],
  ] as const;

  test('the WebAssembly SIMD stages equal the TypeScript ones (RGBA fast path)', () => {
    expect(simdAvailable()).toBe(true); // Node 20 and current browsers have WebAssembly SIMD
    for (const sigma of [4, 5.5, 9, 16, 24]) {
      const r = kernelRadius(sigma);
      for (const [w, h, wx, wy] of SIMD_WINDOWS) {
        const { sw, sh } = apron(sigma, w + 3, h);
        const src = image('noise', sw, sh, sigma, 5);
        expect(maxDiff(blurFast(src, sw, sh, r, r, w, h, sigma, wx, wy), blurFast(src, sw, sh, r, r, w, h, sigma, wx, wy, 4, false))).toBeLessThanOrEqual(1e-6);
      }
    }
  });

  test('the WebAssembly SIMD stages equal the TypeScript ones (one plane)', () => {
    for (const sigma of [4, 5.5, 9, 16, 24]) {
      const r = kernelRadius(sigma);
      for (const [w, h, wx, wy] of [...SIMD_WINDOWS, [256, 256, 1024, -512] as const]) {
        const { sw, sh } = apron(sigma, w + 3, h);
        const a = plane(image('noise', sw, sh, sigma, 6));
        const fast = blurFast(a, sw, sh, r, r, w, h, sigma, wx, wy, 1);
        expect(fast.length).toBe(w * h);
        expect(maxDiff(fast, blurFast(a, sw, sh, r, r, w, h, sigma, wx, wy, 1, false))).toBeLessThanOrEqual(1e-6);
      }
    }
  });

  test('tintSimd writes (c A, A) for each A of the plane', () => {
    const rnd = rng(4);
    for (const n of [1, 7, 64, 1001]) {
      const plane = Float32Array.from({ length: n }, () => rnd());
      const out = new Float32Array(n * 4).fill(-1);
      expect(tintSimd(plane, 0.25, 0.5, 0.75, out)).toBe(true);
      for (let i = 0; i < n; i++) {
        const a = plane[i]!;
        expect(Math.abs(out[i * 4]! - 0.25 * a)).toBeLessThanOrEqual(1e-7);
        expect(Math.abs(out[i * 4 + 1]! - 0.5 * a)).toBeLessThanOrEqual(1e-7);
        expect(Math.abs(out[i * 4 + 2]! - 0.75 * a)).toBeLessThanOrEqual(1e-7);
        expect(out[i * 4 + 3]).toBe(a);
      }
    }
  });

  test('the SIMD one-colour test (four pixels a step, the rest one at a time) = the TypeScript test: verdict, alpha plane and range', () => {
    // Witness: scanMono (cpu.ts, monoPlane with useSimd false), f64 where the kernel is f32: the
    // cases stay far from the tolerance (a wrong channel is off by 1e-3 of A or more).
    const rnd = rng(21);
    const c = [0.3, 0.55, 0.8];
    let cases = 0;
    for (const cols of [1, 3, 4, 5, 8, 11])
      for (let bad = -1; bad < cols * 3; bad += 2) {
        const sw = cols + 3;
        const data = new Float32Array(sw * 3 * 4);
        for (let i = 0; i < sw * 3; i++) {
          const a = i % 6 === 0 ? 0 : rnd();
          data.set([c[0]! * a, c[1]! * a, c[2]! * a, a], i * 4);
        }
        // One pixel of the window off colour in one channel (rows 0-2, columns 1..cols).
        if (bad >= 0) {
          const p = (Math.floor(bad / cols) * sw + 1 + (bad % cols)) * 4;
          data[p + (bad % 3)] = data[p + (bad % 3)]! + 0.01 + 0.01 * data[p + 3]!;
        }
        const box = { x0: 1, y0: 0, x1: 1 + cols, y1: 3 };
        const want = monoOf(data, sw, box, false);
        const got = monoOf(data, sw, box, true);
        expect({ cols, bad, mono: got !== undefined }).toEqual({ cols, bad, mono: want !== undefined });
        if (want && got) {
          expect(Array.from(got.alpha)).toEqual(Array.from(want.alpha));
          expect(Number.isNaN(got.constant)).toBe(Number.isNaN(want.constant));
        }
        cases++;
      }
    expect(cases).toBe(52);
  });

  test.each([true, false])('monoPlane finds the colour of a one-colour raster and rejects two colours (SIMD %s)', (simd) => {
    const monoPlane = (data: Float32Array, width?: number, box?: PixelBox) => monoOf(data, width, box, simd);
    const c = [0.0627, 0.188, 0.29]; // #10304a
    const rnd = rng(9);
    const n = 500;
    const one = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
      const a = i % 5 === 0 ? 0 : i % 7 === 0 ? 1 : rnd();
      one.set([c[0]! * a, c[1]! * a, c[2]! * a, a], i * 4);
    }
    const m = monoPlane(one)!;
    expect(m).toBeDefined();
    expect(Math.abs(m.r - c[0]!)).toBeLessThan(1e-6);
    expect(Math.abs(m.g - c[1]!)).toBeLessThan(1e-6);
    expect(Math.abs(m.b - c[2]!)).toBeLessThan(1e-6);
    expect(Array.from(m.alpha)).toEqual(Array.from(plane(one)));
    expect(Number.isNaN(m.constant)).toBe(true);
    // A second colour in one pixel, even a close one (1e-4 off in green), is not taken for one colour.
    const two = one.slice();
    two[301 * 4 + 1] = (c[1]! + 1e-4) * two[301 * 4 + 3]!;
    expect(monoPlane(two)).toBeUndefined();
    // Light where alpha is 0 (additive premultiplied) is not c * 0.
    const glow = one.slice();
    glow[5 * 4] = 0.01;
    expect(monoPlane(glow)).toBeUndefined();
    // A constant plane is reported as such.
    const flat = new Float32Array(64 * 4);
    for (let i = 0; i < 64; i++) flat.set([0.5 * 0.25, 0.2 * 0.25, 0, 0.25], i * 4);
    expect(monoPlane(flat)!.constant).toBeCloseTo(0.25, 7);
    // A window (20 x 25 pixels a row): a second colour outside it does not count; inside it does.
    const win = { x0: 3, y0: 2, x1: 17, y1: 21 };
    const framed = one.slice();
    framed[(1 * 20 + 6) * 4 + 1] = (c[1]! + 0.1) * framed[(1 * 20 + 6) * 4 + 3]!;
    const w = monoPlane(framed, 20, win)!;
    expect(w).toBeDefined();
    const inside: number[] = [];
    for (let y = win.y0; y < win.y1; y++) for (let x = win.x0; x < win.x1; x++) inside.push(framed[(y * 20 + x) * 4 + 3]!);
    expect(Array.from(w.alpha)).toEqual(inside);
    expect(monoPlane(framed, 20, { ...win, y0: 1 })).toBeUndefined();
    // A window that is transparent up to its last pixel, then constant nowhere.
    const late = new Float32Array(20 * 25 * 4);
    late.set([0.1, 0.1, 0.1, 0.5], (20 * 20 + 16) * 4);
    const l = monoPlane(late, 20, win)!;
    expect(l.alpha[l.alpha.length - 1]).toBe(0.5);
    expect(l.alpha.slice(0, -1).every((v) => v === 0)).toBe(true);
    expect(Number.isNaN(l.constant)).toBe(true);
  });

  // The op's result against the 4-channel kernel on the same input: the fill rendered on the blur's
  // canvas (the window grown by the pad) and blurred whole.
  const poly = (i: number) =>
    polygonCollection([
      [-60 + 25 * i, 10],
      [-20 + 25 * i, 5],
      [-30 + 25 * i, 45],
      [-60 + 25 * i, 10],
    ]);
  // Two overlapping triangles filled with colours[0] and colours[1], composited.
  const graph = (output: string, colours: string[], sigma: number) =>
    Renderer.create({
      output,
      sources: {
        a: { type: 'geojson', data: poly(0) },
        b: { type: 'geojson', data: poly(1) },
      },
      nodes: {
        fa: { op: 'features', source: 'a' },
        fb: { op: 'features', source: 'b' },
        pa: { op: 'fill-solid', features: '@fa', fill: colours[0] },
        pb: { op: 'fill-solid', features: '@fb', fill: colours[1] },
        fill: { op: 'blend', base: '@pa', over: '@pb' },
        out: { op: 'blur', input: '@fill', sigma },
      },
    });
  for (const [label, colours] of [
    ['one colour', ['#10304a', '#10304a']],
    ['two colours', ['#10304a', '#e0a020']],
  ] as const) {
    for (const sigma of [2.5, 4, 11]) {
      test(`${label}, sigma ${sigma}: the op equals the RGBA kernel within 1e-6`, async () => {
        const pad = kernelRadius(sigma);
        const win: Window = {
          z: 2,
          x0: 360,
          y0: 380,
          width: 90,
          height: 70,
          tileSize: 256,
        };
        const grown: Window = {
          ...win,
          x0: win.x0 - pad,
          y0: win.y0 - pad,
          width: win.width + 2 * pad,
          height: win.height + 2 * pad,
        };
        const input = (await graph('fill', [...colours], sigma).renderWindow(grown)).raster.data;
        expect(monoPlane(input) !== undefined).toBe(label === 'one colour');
        const want = blurFast(input, grown.width, grown.height, pad, pad, win.width, win.height, sigma, grown.x0, grown.y0);
        const got = (await graph('out', [...colours], sigma).renderWindow(win)).raster.data;
        expect(maxDiff(got, want)).toBeLessThanOrEqual(1e-6);
        // Not a blank comparison: the shapes cross the window with partly covered pixels.
        expect(got.some((v, i) => i % 4 === 3 && v > 0.05 && v < 0.95)).toBe(true);
      });
    }
  }
});

describe('CPU/GPU parity', () => {
  const W = PARITY_WINDOW;

  gpuTest('blur: sigma 0, the exact path and the decimated fast path', async () => {
    const sources = rasterSources(61, 'i', 8);
    const inputs = randomRasterNodes(62, 'i');
    for (const sigma of [0, 0.8, 3.1, 4.4, 9.7]) {
      const style = { output: 'out', sources, nodes: { ...inputs, out: { op: 'blur', input: '@i', sigma } } };
      await checkParity(`blur sigma ${sigma}`, style, W, RASTER_TOL);
    }
    // A $param sigma below its bound: the padding stays that of the bound.
    const style = {
      output: 'out',
      params: { s: { type: 'number', default: 2, max: 12 } },
      sources,
      nodes: { ...inputs, out: { op: 'blur', input: '@i', sigma: '$s' } },
    };
    await checkParity('blur $param sigma', style, W, RASTER_TOL, { s: '5.5' });
  });
});

describe('blur on a canvas past BLUR_SIMD_MAX_PIXELS', () => {
  // The kernels' arena holds several canvas-sized planes in a memory that never shrinks, so a
  // larger canvas runs the TypeScript stages: the same bits as useSimd false, and no growth.
  test('the TypeScript stages run (bit for bit useSimd false) and the module memory does not grow', () => {
    const side = Math.ceil(Math.sqrt(BLUR_SIMD_MAX_PIXELS)) + 2;
    const r = rng(77);
    const src = new Float32Array(side * side * 4);
    for (let i = 0; i < src.length; i += 4 * 97) {
      const a = r();
      src.set([r() * a, r() * a, r() * a, a], i);
    }
    blurFast(src.subarray(0, 64 * 64 * 4), 64, 64, 8, 8, 48, 48, 4); // the module exists before
    const before = blurMemoryBytes();
    const pad = 12;
    const w = side - 2 * pad;
    const fast = blurFast(src, side, side, pad, pad, w, w, 4);
    const plain = blurFast(src, side, side, pad, pad, w, w, 4, 0, 0, 4, false);
    expect(Buffer.from(fast.buffer, fast.byteOffset, fast.byteLength).equals(Buffer.from(plain.buffer, plain.byteOffset, plain.byteLength))).toBe(true);
    expect(blurMemoryBytes()).toBe(before);
  });
});
