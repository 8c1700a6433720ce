// dilate / erode: the vHGW kernel against a brute-force (2r+1)^2 max / min, the op through the
// render loop (padding, $param radius clamped to its max), and CPU/GPU parity.
import { morph, morphRaster, morphScalar } from './morph.js';
import { morphSimdAvailable } from './simd.js';
import { Renderer, type Window } from '../../index.js';
import { rng } from '../../../tests/helpers/random.js';
import { checkParity, gpuDescribe, randomColor, randomFeatures, testWindow } from '../../../tests/gpu/harness.js';
import { polygonCollection } from '../../../tests/helpers/geometry.js';
import { expectSeamless, seam } from '../../../tests/helpers/seam.js';

/** Brute force: op over the square of side 2r + 1 around (pad + x, pad + y). */
function bruteForce(src: Float32Array, sw: number, pad: number, w: number, h: number, r: number, isMax: boolean): Float32Array {
  const out = new Float32Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let c = 0; c < 4; c++) {
        let m = isMax ? -Infinity : Infinity;
        for (let j = -r; j <= r; j++)
          for (let i = -r; i <= r; i++) {
            const v = src[((pad + y + j) * sw + pad + x + i) * 4 + c]!;
            m = isMax ? Math.max(m, v) : Math.min(m, v);
          }
        out[(y * w + x) * 4 + c] = m;
      }
  return out;
}

function randomPremultiplied(n: number, seed: number): Float32Array {
  const r = rng(seed);
  const d = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) {
    const a = r() < 0.3 ? 0 : r();
    d[i * 4] = r() * a;
    d[i * 4 + 1] = r() * a;
    d[i * 4 + 2] = r() * a;
    d[i * 4 + 3] = a;
  }
  return d;
}

describe('vHGW max / min equals the brute-force square', () => {
  for (const [r, pad, w, h] of [
    [0, 0, 5, 4],
    [1, 1, 9, 7],
    [2, 3, 13, 11],
    [3, 3, 7, 20],
    [5, 6, 17, 9],
    [7, 7, 4, 4],
    [8, 9, 30, 3],
  ] as const) {
    test(`r ${r}, pad ${pad}, ${w} x ${h}`, () => {
      const sw = w + 2 * pad,
        sh = h + 2 * pad;
      const src = randomPremultiplied(sw * sh, 7 + r);
      for (const mode of ['max', 'min'] as const) {
        const want = bruteForce(src, sw, pad, w, h, r, mode === 'max');
        // morph: WebAssembly SIMD where available; morphScalar: the TypeScript reference.
        for (const f of [morph, morphScalar]) expect(Array.from(f(src, sw, pad, w, h, r, mode).subarray(0, w * h * 4))).toEqual(Array.from(want));
      }
    });
  }

  test('the WebAssembly SIMD kernel equals the TypeScript reference (RGBA and one plane, radii 1 to 40)', () => {
    expect(morphSimdAvailable()).toBe(true); // Node 20 has WebAssembly SIMD
    for (const nc of [4, 1])
      for (const [r, pad, w, h] of [
        [1, 1, 9, 7],
        [3, 3, 256, 40],
        [3, 5, 61, 33],
        [6, 6, 3, 50],
        [16, 20, 33, 40],
        [40, 40, 5, 90],
      ] as const) {
        const sw = w + 2 * pad + 3;
        const src = randomPremultiplied(Math.ceil((sw * (h + 2 * pad) * nc) / 4), 100 + r);
        for (const mode of ['max', 'min'] as const) {
          const got = morph(src, sw, pad, w, h, r, mode, nc);
          const want = morphScalar(src, sw, pad, w, h, r, mode, nc);
          expect([nc, r, mode, Array.from(got.subarray(0, w * h * nc))]).toEqual([nc, r, mode, Array.from(want.subarray(0, w * h * nc))]);
        }
      }
  });

  test('a one-colour input takes the alpha-plane path and gives the RGBA result', () => {
    const sw = 30,
      pad = 4,
      w = 22;
    const r = rng(9);
    const src = new Float32Array(sw * sw * 4);
    for (let i = 0; i < sw * sw; i++) {
      const a = r() < 0.5 ? 0 : r();
      src.set([0.2 * a, 0.6 * a, 0.9 * a, a], i * 4);
    }
    for (const mode of ['max', 'min'] as const) {
      const want = morph(src, sw, pad, w, w, 3, mode);
      const got = morphRaster(src, sw, pad, w, w, 3, mode);
      let worst = 0;
      for (let i = 0; i < w * w * 4; i++) worst = Math.max(worst, Math.abs(got[i]! - want[i]!));
      expect(worst).toBeLessThan(1e-6);
    }
    // Several colours: the RGBA path, bit for bit.
    const multi = randomPremultiplied(sw * sw, 5);
    expect(Array.from(morphRaster(multi, sw, pad, w, w, 3, 'max').subarray(0, w * w * 4))).toEqual(
      Array.from(morph(multi, sw, pad, w, w, 3, 'max').subarray(0, w * w * 4)),
    );
  });

  test('results stay valid premultiplied colour (rgb <= alpha)', () => {
    const sw = 40,
      pad = 4,
      w = 32;
    const src = randomPremultiplied(sw * sw, 3);
    for (const mode of ['max', 'min'] as const) {
      const d = morph(src, sw, pad, w, w, 4, mode);
      for (let i = 0; i < w * w * 4; i += 4) for (let c = 0; c < 3; c++) expect(d[i + c]!).toBeLessThanOrEqual(d[i + 3]! + 1e-7);
    }
  });
});

const W: Window = testWindow(64);

function style(op: 'dilate' | 'erode', radius: number | string, seed: number, extra: Record<string, unknown> = {}): object {
  const r = rng(seed);
  return {
    output: 'out',
    params: { rad: { type: 'number', default: 3, min: 0, max: 6 } },
    sources: { src: { type: 'geojson', data: randomFeatures(seed, W, { polygons: 8, lines: 6, points: 0 }, 24) } },
    nodes: {
      f: { op: 'features', source: 'src' },
      shapes: { op: 'fill-solid', features: '@f', 'fill-expr': ['match', ['get', 'k'], 0, randomColor(r), 1, randomColor(r), randomColor(r)] },
      lines: { op: 'stroke-solid', features: '@f', width: 1.5, color: randomColor(r) },
      both: { op: 'blend', base: '@shapes', over: '@lines' },
      out: { op, input: '@both', 'radius-px': radius, ...extra },
    },
  };
}

describe('dilate / erode ops', () => {
  test('dilate grows a single opaque pixel into a (2r+1)^2 square; erode removes it', async () => {
    const win: Window = { z: 4, x0: 100, y0: 100, width: 16, height: 16, tileSize: 256 };
    // A 1 px square polygon covering world pixel (108, 107) exactly (stroke-free fill).
    const size = 256 * 16;
    const lon = (x: number) => (x / size) * 360 - 180;
    const lat = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / size))) * 180) / Math.PI;
    const sq = [
      [lon(108), lat(107)],
      [lon(109), lat(107)],
      [lon(109), lat(108)],
      [lon(108), lat(108)],
      [lon(108), lat(107)],
    ];
    const data = polygonCollection(sq);
    const mk = (op: string) => ({
      output: 'out',
      sources: { s: { type: 'geojson', data } },
      nodes: { f: { op: 'features' }, p: { op: 'fill-solid', features: '@f', fill: '#ffffff', antialias: false }, out: { op, input: '@p', 'radius-px': 2 } },
    });
    const d = (await Renderer.create(mk('dilate')).renderWindow(win)).raster;
    let count = 0;
    for (let y = 0; y < 16; y++)
      for (let x = 0; x < 16; x++) {
        const a = d.data[(y * 16 + x) * 4 + 3]!;
        const inside = Math.abs(x - 8) <= 2 && Math.abs(y - 7) <= 2;
        if (a > 0.99) count++;
        expect([x, y, a > 0.99]).toEqual([x, y, inside]);
      }
    expect(count).toBe(25);
    const e = (await Renderer.create(mk('erode')).renderWindow(win)).raster;
    expect(e.data.every((v) => v === 0)).toBe(true);
  });

  test('a $param radius above its max clamps to the max; a 0 radius is the identity', async () => {
    const clamped = (await Renderer.create(style('dilate', '$rad', 5)).renderWindow(W, Renderer.create(style('dilate', '$rad', 5)).params({ rad: '6' })))
      .raster;
    const six = (await Renderer.create(style('dilate', 6, 5)).renderWindow(W)).raster;
    expect(Array.from(clamped.data)).toEqual(Array.from(six.data));
    const zero = (await Renderer.create(style('erode', 0, 5)).renderWindow(W)).raster;
    const plain = Renderer.create({ ...style('erode', 0, 5), output: 'both' });
    expect(Array.from(zero.data)).toEqual(Array.from((await plain.renderWindow(W)).raster.data));
  });

  test('pad is the radius bound; an @node radius needs radius-px-max', () => {
    expect(() =>
      Renderer.create({ ...style('dilate', '@z', 1), nodes: { ...(style('dilate', '@z', 1) as { nodes: object }).nodes, z: { op: 'zoom' } } }),
    ).toThrow(/radius-px-max/);
    expect(() =>
      Renderer.create({ output: 'out', nodes: { s: { op: 'solid', color: '#fff' }, out: { op: 'erode', input: '@s', 'radius-px': 257 } } }),
    ).toThrow();
  });
});

gpuDescribe('CPU/GPU parity', () => {
  test('dilate and erode, radii 1, 4 and a $param', async () => {
    for (const op of ['dilate', 'erode'] as const) {
      await checkParity(`${op} r1`, style(op, 1, 11), W);
      await checkParity(`${op} r4`, style(op, 4, 12), W);
      await checkParity(`${op} $rad`, style(op, '$rad', 13), W, undefined, { rad: '5' });
      // Windows longer than 16 take the doubling passes: 2r + 1 = 17 (one doubling short of 32), 23, 33.
      for (const r of [8, 11, 16]) {
        const big = { ...(style(op, r, 14 + r) as { nodes: object }), params: {} };
        await checkParity(`${op} r${r} (doubling)`, big, W);
      }
    }
  });
});

describe('seam invariant: 2x2 tile mosaic = window render', () => {
  // Random fills and strokes reaching across the inner tile edges of z5 tiles 12..13 / 9..10 (128 px).
  const block: Window = { z: 5, x0: 12 * 128, y0: 9 * 128, width: 256, height: 256, tileSize: 128 };
  for (const [op, radius] of [
    ['dilate', 5],
    ['erode', 3],
    ['dilate', '$rad'],
  ] as const) {
    test(`${op} radius ${radius}`, async () => {
      const s = style(op, radius, 61) as { sources: { src: { data: object } } };
      s.sources.src.data = randomFeatures(61, block, { polygons: 14, lines: 10 }, 8);
      expectSeamless(await seam(s, 5, 12, 9), 0.3);
    });
  }
});
