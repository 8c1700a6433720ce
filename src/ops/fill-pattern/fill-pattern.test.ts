// fill-pattern: the pattern's closed form (texel (X mod w, Y mod h) at scale 1, periodicity at any
// scale), world anchoring across tiles, raster patterns against fill-solid, CPU/GPU parity.
import { CpuBackend, Renderer, type Raster, type Window } from '../../index.js';
import { decodeImage } from '../../hosts/node/image.js';
import type { Loader } from '../../sources/types.js';
import { diffRasters, gpuDescribe, GPU, randomFeatures, testWindow, RASTER_TOL } from '../../../tests/gpu/harness.js';
import { mosaicMaxDiff } from '../../../tests/helpers/seam.js';
import { polygonCollection } from '../../../tests/helpers/geometry.js';
import { box, png, TS, WIN, Z } from '../../../tests/helpers/op-window.js';
import { sampleSprite } from '../stamp/sprite.js';
import { spritePattern } from './index.js';

// 3 x 2 texels, straight RGBA8.
const TEX = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 0, 128, 0, 0, 0, 0, 40, 80, 120, 200];

async function loader(): Promise<Loader> {
  const bytes = await png(3, 2, TEX);
  return { load: async () => bytes, decodeImage };
}

function style(data: object, node: Record<string, unknown>, extra: Record<string, unknown> = {}): object {
  return {
    output: 'out',
    sources: { p: { type: 'geojson', data, buffer: 128, tolerance: 0 } },
    nodes: { f: { op: 'features' }, ...extra, out: { op: 'fill-pattern', features: '@f', pattern: 'tex.png', ...node } },
  };
}

async function render(s: object, w: Window = WIN, backend = new CpuBackend() as never): Promise<Raster> {
  const r = Renderer.create(s, { loader: await loader() });
  return (await r.renderWindow(w, r.params(), { backend })).raster;
}

/** A band round the whole world, 20 degrees either side of the equator (GeoJSON as written). */
const BAND = polygonCollection([
  [-180, -20],
  [180, -20],
  [180, 20],
  [-180, 20],
  [-180, -20],
]);

const px = (r: Raster, x: number, y: number) => Array.from(r.data.subarray((y * r.width + x) * 4, (y * r.width + x) * 4 + 4));

describe('fill-pattern', () => {
  test('at scale 1 and offset [0, 0], world pixel (X, Y) shows texel (X mod 3, Y mod 2), premultiplied', async () => {
    const r = await render(style(box(-10, -10, 140, 140), {}));
    for (const [x, y] of [
      [0, 0],
      [5, 7],
      [64, 64],
      [101, 33],
    ]) {
      const X = WIN.x0 + x!,
        Y = WIN.y0 + y!;
      const t = ((Y % 2) * 3 + (X % 3)) * 4;
      const a = TEX[t + 3]! / 255;
      const want = [(TEX[t]! / 255) * a, (TEX[t + 1]! / 255) * a, (TEX[t + 2]! / 255) * a, a];
      px(r, x!, y!).forEach((v, i) => expect(v).toBeCloseTo(want[i]!, 5));
    }
  });

  test('the sprite sampler written out (spritePattern) = sampleSprite per pixel, bit for bit', () => {
    // Witness: sampleSprite (src/ops/stamp/sprite.ts), what the op called per pixel before.
    let seed = 9;
    const r = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const W = 53,
      H = 41;
    let cases = 0;
    for (const [sw, sh] of [
      [6, 6],
      [3, 2],
      [7, 5],
    ] as const)
      for (const [scale, u0, v0] of [
        [1, 0.5, 0.5],
        [0.73, 3.2, 1.1],
        [1.37, 0.25, 4.75],
        [2, 5.5, 0.5],
      ] as const) {
        const sprite = { kind: 'sprite' as const, width: sw, height: sh, data: Float32Array.from({ length: sw * sh * 4 }, () => (r() < 0.2 ? 0 : r())) };
        const cols = Float32Array.from({ length: W }, (_, x) => (((u0 + x / scale) % sw) + sw) % sw);
        const ph = { cols, v0, inv: 1 / scale };
        // Rows uncovered at both ends, some wholly (the op gives the kernel each row's covered span).
        const cov = Float32Array.from({ length: W * H }, (_, i) => {
          const x = i % W,
            y = Math.floor(i / W);
          return y % 9 === 4 || x < y % 7 || x > W - 1 - (y % 5) || r() < 0.3 ? 0 : r() < 0.5 ? 1 : r();
        });
        const spans = new Int32Array(2 * H);
        for (let y = 0; y < H; y++) {
          const row = Array.from(cov.subarray(y * W, y * W + W));
          const first = row.findIndex((c) => c > 0);
          spans[2 * y] = first < 0 ? W : first;
          spans[2 * y + 1] = first < 0 ? 0 : W - row.reverse().findIndex((c) => c > 0);
        }
        const base = Float32Array.from({ length: W * H * 4 }, () => r());
        const fast = base.slice();
        spritePattern(sprite, ph, cov, 0.8, fast, W, H);
        const spanned = base.slice();
        spritePattern(sprite, ph, cov, 0.8, spanned, W, H, spans);
        const ref = base.slice();
        const t = new Float64Array(4);
        for (let y = 0; y < H; y++)
          for (let x = 0; x < W; x++) {
            const c = cov[y * W + x]! * 0.8;
            if (c <= 0) continue;
            sampleSprite(sprite, cols[x]!, v0 + y * ph.inv, true, t);
            const a = t[3]! * c;
            if (a <= 0) continue;
            const p = (y * W + x) * 4;
            const q = 1 - a;
            ref[p] = t[0]! * c + ref[p]! * q;
            ref[p + 1] = t[1]! * c + ref[p + 1]! * q;
            ref[p + 2] = t[2]! * c + ref[p + 2]! * q;
            ref[p + 3] = a + ref[p + 3]! * q;
          }
        let differ = 0;
        for (let i = 0; i < ref.length; i++) if (!Object.is(ref[i], fast[i]) || !Object.is(ref[i], spanned[i])) differ++;
        expect({ sw, scale, differ }).toEqual({ sw, scale, differ: 0 });
        cases++;
      }
    expect(cases).toBe(12);
  });

  test('periodic with period (3, 2) x scale, shifted by offset (a period of 8 px, which divides the world)', async () => {
    // scale 8/3: 8 px across (1 x 3 texels... x 8/3), 16/3 px down; the world (64 x 2^8 px) holds 2048 periods exactly.
    const scale = 8 / 3;
    const r = await render(style(box(-10, -10, 140, 140), { scale, offset: [3, -1] }));
    for (const [x, y] of [
      [4, 9],
      [30, 50],
      [77, 12],
    ]) {
      const a = px(r, x!, y!);
      px(r, x! + 16, y!).forEach((v, i) => expect(v).toBeCloseTo(a[i]!, 5)); // 2 periods of 8
      px(r, x!, y! + 16).forEach((v, i) => expect(v).toBeCloseTo(a[i]!, 5)); // 3 periods of 16/3
    }
    const shifted = await render(style(box(-10, -10, 140, 140), { scale, offset: [3 + 8, -1 + 16 / 3] }));
    expect(Math.max(...r.data.map((v, i) => Math.abs(v - shifted.data[i]!)))).toBeLessThan(1e-4);
  });

  test('continues across the antimeridian: a window across x = W equals the two sides rendered apart', async () => {
    // The band round the world, z8 at 64 px: W = 16384. Scale 1 (a 3 px
    // period: W = 3 x 5461 + 1, so one column repeats, at the antimeridian), 2.5 (7.5 px: stretched
    // to 16384 / 2185) and 8/3 (8 px: divides W).
    const W = TS * 2 ** Z;
    const y0 = W / 2 - 16;
    for (const scale of [1, 2.5, 8 / 3]) {
      const s = style(BAND, { scale, offset: [1, 0] });
      const across = await render(s, { z: Z, x0: W - 32, y0, width: 64, height: 32, tileSize: TS });
      const east = await render(s, { z: Z, x0: W - 32, y0, width: 32, height: 32, tileSize: TS });
      const west = await render(s, { z: Z, x0: 0, y0, width: 32, height: 32, tileSize: TS });
      let worst = 0;
      for (let y = 0; y < 32; y++)
        for (let x = 0; x < 64; x++)
          for (let c = 0; c < 4; c++) {
            const want = x < 32 ? east.data[(y * 32 + x) * 4 + c]! : west.data[(y * 32 + x - 32) * 4 + c]!;
            worst = Math.max(worst, Math.abs(across.data[(y * 64 + x) * 4 + c]! - want));
          }
      expect({ scale, worst: worst < 1e-6 }).toEqual({ scale, worst: true });
      if (scale === 1) {
        // Whole texels either side: the texel of x = W - 1 is repeated at x = W (the one spare column).
        expect(px(across, 32, 5)).toEqual(px(across, 31, 5));
        expect(px(across, 33, 5)).not.toEqual(px(across, 32, 5));
      }
    }
  });

  test('a world that holds no whole number of periods: one pattern column skipped where the squeeze falls (closed form)', async () => {
    // z8 at 64 px: W = 16384; scale 2 makes a 6 px period, and the world holds 2731 of them only
    // squeezed by D = W - 2731 x 6 = -2 columns: world column X shows pattern column
    // p = X + floor(2X / W), so one pattern column is skipped at X = W / 2. The 6 columns of a period
    // differ (texel centres fall between pixels at scale 2); columns match exactly where p mod 6 does.
    const W = TS * 2 ** Z;
    const x0 = W / 2 - 16;
    const r = await render(style(BAND, { scale: 2 }), { z: Z, x0, y0: W / 2 - 16, width: 32, height: 32, tileSize: TS });
    const phase = (X: number) => (X + Math.floor((2 * X) / W)) % 6;
    const cols = Array.from({ length: 32 }, (_, x) => px(r, x, 5).join());
    expect(new Set(cols).size).toBe(6);
    for (let a = 0; a < 32; a++)
      for (let b = 0; b < 32; b++) expect({ a, b, same: cols[a] === cols[b] }).toEqual({ a, b, same: phase(x0 + a) === phase(x0 + b) });
  });

  test('the pattern continues across tiles: 2 x 2 tiles equal the window render', async () => {
    const s = style(box(7.3, 5.1, 121.7, 118.2), { scale: 1.7, offset: [0.4, 2] });
    expect(await mosaicMaxDiff((w) => render(s, w), WIN, TS)).toBeLessThan(1e-5);
  });

  test('a raster pattern shows through the polygons: a solid raster equals fill-solid (edges included)', async () => {
    const data = box(10.4, 20.7, 90.2, 77.9);
    const pat = await render(style(data, { pattern: '@paint', opacity: 0.8 }, { paint: { op: 'solid', color: '#336699' } }));
    const solid = await render({
      output: 'out',
      sources: { p: { type: 'geojson', data, buffer: 128, tolerance: 0 } },
      nodes: { f: { op: 'features' }, out: { op: 'fill-solid', features: '@f', fill: '#336699', 'fill-alpha': 0.8 } },
    });
    expect(Math.max(...pat.data.map((v, i) => Math.abs(v - solid.data[i]!)))).toBeLessThan(1e-5);
  });
});

gpuDescribe('fill-pattern: CPU/GPU parity', () => {
  const w = testWindow(64);
  const data = randomFeatures(21, w, { polygons: 5 }, 12);
  test('sprite pattern, scaled and offset', async () => {
    const s = style(data, { scale: 1.3, offset: [2.2, -5], opacity: 0.9 });
    const d = diffRasters(await render(s, w), await render(s, w, GPU as never));
    expect({ float: d.maxFloat <= RASTER_TOL, b8: d.max8 <= 2 }).toEqual({ float: true, b8: true });
  });
  test('raster pattern', async () => {
    const s = style(data, { pattern: '@paint' }, { paint: { op: 'solid', color: '#aa336680' } });
    const d = diffRasters(await render(s, w), await render(s, w, GPU as never));
    expect({ float: d.maxFloat <= RASTER_TOL, b8: d.max8 <= 2 }).toEqual({ float: true, b8: true });
  });
});
