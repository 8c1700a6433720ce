// edge-detect: the kernel against a 2-D convolution with the Sobel matrices written out, a
// hand-checked step edge through the render loop, and CPU/GPU parity.
import { sobel, sobelScalar } from './cpu.js';
import { BAND_PIXELS, sobelMemoryBytes, sobelSimdAvailable } from './simd.js';
import { Renderer, type Window } from '../../index.js';
import { rng } from '../../../tests/helpers/random.js';
import { checkParity, gpuDescribe, randomColor, randomFeatures, testWindow } from '../../../tests/gpu/harness.js';
import { expectSeamless, seam } from '../../../tests/helpers/seam.js';

const KX = [
  [-1, 0, 1],
  [-2, 0, 2],
  [-1, 0, 1],
];
const KY = [
  [-1, -2, -1],
  [0, 0, 0],
  [1, 2, 1],
];

describe('Sobel kernel', () => {
  test('equals the 2-D convolution with the Sobel matrices, clamped, alpha raised to max(rgb)', () => {
    const w = 11,
      h = 9,
      sw = w + 2,
      sh = h + 2;
    const r = rng(4);
    const src = new Float32Array(sw * sh * 4);
    for (let i = 0; i < sw * sh; i++) {
      const a = r();
      src.set([r() * a, r() * a, r() * a, a], i * 4);
    }
    // The SIMD kernel sums in f32 (within 1e-6), the scalar one in f64.
    for (const [kernel, digits] of [
      [sobel, 5],
      [sobelScalar, 6],
    ] as const)
      for (const strength of [0.2, 1, 3]) {
        const got = kernel(src, sw, w, h, strength);
        for (let y = 0; y < h; y++)
          for (let x = 0; x < w; x++) {
            const v = [0, 1, 2, 3].map((c) => {
              let gx = 0,
                gy = 0;
              for (let j = 0; j < 3; j++)
                for (let i = 0; i < 3; i++) {
                  const s = src[((y + j) * sw + x + i) * 4 + c]!;
                  gx += KX[j]![i]! * s;
                  gy += KY[j]![i]! * s;
                }
              return Math.min(1, Math.hypot(gx, gy) * strength);
            });
            const o = (y * w + x) * 4;
            for (let c = 0; c < 3; c++) expect(got[o + c]).toBeCloseTo(v[c]!, digits);
            expect(got[o + 3]).toBeCloseTo(Math.max(...v), digits);
          }
      }
  });

  test('the WebAssembly SIMD kernel runs here and agrees with the TypeScript reference within 1e-6', () => {
    expect(sobelSimdAvailable()).toBe(true);
    const r = rng(9);
    for (const [w, h] of [
      [1, 1],
      [7, 3],
      [64, 33],
    ] as const) {
      const sw = w + 2;
      const src = new Float32Array(sw * (h + 2) * 4);
      for (let i = 0; i < sw * (h + 2); i++) {
        const a = r();
        src.set([r() * a, r() * a, r() * a, a], i * 4);
      }
      for (const strength of [0.3, 1, 4]) {
        const a = sobel(src, sw, w, h, strength);
        const b = sobelScalar(src, sw, w, h, strength);
        let d = 0;
        for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
        expect(d).toBeLessThan(1e-6);
      }
    }
  });

  test('a canvas taller than one band: within 1e-6 of the reference, rows at a band edge as a call on them alone gives them, the memory one band', () => {
    // The kernel runs in bands of rows (its memory never shrinks); each pixel reads its 3x3
    // window only, so a band's first and last rows must equal a small call over the same rows.
    const r = rng(12);
    const w = 300;
    const sw = w + 2;
    const band = Math.floor(BAND_PIXELS / sw);
    const h = 2 * band + 5;
    const src = new Float32Array(sw * (h + 2) * 4);
    for (let i = 0; i < sw * (h + 2); i++) {
      const a = r();
      src.set([r() * a, r() * a, r() * a, a], i * 4);
    }
    const out = sobel(src, sw, w, h, 1.5);
    const ref = sobelScalar(src, sw, w, h, 1.5);
    let d = 0;
    for (let i = 0; i < out.length; i++) d = Math.max(d, Math.abs(out[i]! - ref[i]!));
    expect(d).toBeLessThan(1e-6);
    for (const s of [band - 2, 2 * band - 2]) {
      const strip = src.slice(s * sw * 4, (s + 6) * sw * 4);
      const small = sobel(strip, sw, w, 4, 1.5);
      expect(Array.from(out.subarray(s * w * 4, (s + 4) * w * 4))).toEqual(Array.from(small));
    }
    expect(sobelMemoryBytes()).toBeLessThanOrEqual(BAND_PIXELS * 40 + 65536);
  });

  test('a flat image has no edges; a vertical step of height d gives 4 d on the two columns beside it', () => {
    const w = 6,
      h = 4,
      sw = 8,
      sh = 6;
    const src = new Float32Array(sw * sh * 4);
    for (let y = 0; y < sh; y++) for (let x = 0; x < sw; x++) src.set(x >= 4 ? [0.1, 0.1, 0.1, 1] : [0, 0, 0, 1], (y * sw + x) * 4);
    const out = sobel(src, sw, w, h, 1);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const want = x === 2 || x === 3 ? 0.4 : 0;
        expect(out[(y * w + x) * 4]).toBeCloseTo(want, 6);
        expect(out[(y * w + x) * 4 + 3]).toBeCloseTo(want, 6);
      }
  });
});

const W: Window = testWindow(64);

function style(seed: number, strength: number): object {
  const r = rng(seed);
  return {
    output: 'out',
    sources: { src: { type: 'geojson', data: randomFeatures(seed, W, { polygons: 10, lines: 4 }, 24) } },
    nodes: {
      f: { op: 'features', source: 'src' },
      shapes: { op: 'fill-solid', features: '@f', 'fill-expr': ['match', ['get', 'k'], 0, randomColor(r), 1, randomColor(r), randomColor(r)] },
      soft: { op: 'blur', input: '@shapes', sigma: 1.5 },
      out: { op: 'edge-detect', input: '@soft', strength },
    },
  };
}

describe('edge-detect op', () => {
  test('renders through the plan: output equals the kernel on the padded input', async () => {
    const s = style(3, 2);
    const edges = (await Renderer.create(s).renderWindow(W)).raster;
    const big: Window = { ...W, x0: W.x0 - 1, y0: W.y0 - 1, width: W.width + 2, height: W.height + 2 };
    const soft = (await Renderer.create({ ...s, output: 'soft' }).renderWindow(big)).raster;
    const want = sobel(soft.data, big.width, W.width, W.height, 2);
    let worst = 0;
    for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(want[i]! - edges.data[i]!));
    expect(worst).toBeLessThan(1e-6);
    expect(edges.data.some((v) => v > 0.2)).toBe(true);
  });
});

/**
 * Stated tolerance: 2e-3 x max(1, strength). The GPU's input is rgba16float (rounding <= 2.4e-4
 * per value); the taps' weights sum to 8 per axis and strength scales the lot. Measured: 1.7e-3 at
 * strength 1, 4.6e-3 at 2.5; 8-bit within 2/255.
 */
const edgeTol = (strength: number) => 2e-3 * Math.max(1, strength);

gpuDescribe('CPU/GPU parity', () => {
  test('edge-detect of blurred random fills, strength 1 and 2.5', async () => {
    await checkParity('edge-detect s1', style(31, 1), W, edgeTol(1));
    await checkParity('edge-detect s2.5', style(32, 2.5), W, edgeTol(2.5));
  });
});

describe('seam invariant: 2x2 tile mosaic = window render', () => {
  test('edge-detect of blurred random fills across the inner tile edges (z5, 128 px)', async () => {
    const block: Window = { z: 5, x0: 12 * 128, y0: 9 * 128, width: 256, height: 256, tileSize: 128 };
    const s = style(71, 2) as { sources: { src: { data: object } } };
    s.sources.src.data = randomFeatures(71, block, { polygons: 16, lines: 4 }, 8);
    expectSeamless(await seam(s, 5, 12, 9), 0.05);
  });
});
