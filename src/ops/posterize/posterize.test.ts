// posterize against its definition: each straight channel goes to the NEAREST of the levels
// 0, 1/(L - 1), ..., 1 (found here by searching them, a half going up), the alpha is kept and the
// result premultiplied again. The op through a $param (rounded and clamped to 2..256), and CPU/GPU
// parity on random maps.
import { posterize } from './cpu.js';
import { Renderer, tileWindow } from '../../index.js';
import { premultipliedPixels, rng } from '../../../tests/helpers/random.js';
import { checkParity, gpuDescribe, testWindow } from '../../../tests/gpu/harness.js';
import { rasterInput } from '../../../tests/helpers/raster-input.js';

/** The nearest of L evenly spaced levels in [0, 1] to v (the higher one on a tie). */
function nearestLevel(v: number, L: number): number {
  let best = 0;
  for (let k = 1; k < L; k++) if (Math.abs(k / (L - 1) - v) <= Math.abs(best - v)) best = k / (L - 1);
  return best;
}

describe('posterize kernel against the nearest level', () => {
  const r = rng(41);
  const n = 4000;
  const { src } = premultipliedPixels(n, () => {
    const a = r() < 0.1 ? 0 : r() < 0.3 ? 1 : r();
    // Exact 8-bit colours half the time (the values a PNG holds), any value otherwise.
    return { a, s: r() < 0.5 ? [r(), r(), r()] : [0, 0, 0].map(() => Math.floor(r() * 256) / 255) };
  });
  for (const L of [2, 3, 4, 7, 16, 256]) {
    test(`${L} levels`, () => {
      const dst = new Float32Array(src.length);
      posterize(src, dst, L - 1);
      let worst = 0;
      let ties = 0;
      for (let i = 0; i < n; i++) {
        const a = src[i * 4 + 3]!;
        for (let c = 0; c < 3; c++) {
          // The straight value the kernel sees is the float32 premultiplied one over alpha.
          const v = a > 0 ? src[i * 4 + c]! / a : 0;
          // Within float rounding of a half-way point either neighbour is right.
          if (Math.abs(((v * (L - 1)) % 1) - 0.5) < 1e-6) {
            ties++;
            continue;
          }
          worst = Math.max(worst, Math.abs(dst[i * 4 + c]! - nearestLevel(v, L) * a));
        }
        worst = Math.max(worst, Math.abs(dst[i * 4 + 3]! - a));
      }
      expect(worst).toBeLessThan(1e-6);
      expect(ties).toBeLessThan(n / 100);
    });
  }

  test('transparent pixels stay transparent; 256 levels keep every 8-bit colour', () => {
    const px = new Float32Array([0.2, 0.1, 0.3, 0, ...[10, 128, 255].map((v) => v / 255), 1]);
    const out = new Float32Array(8);
    posterize(px, out, 255);
    expect(Array.from(out.subarray(0, 4))).toEqual([0, 0, 0, 0]);
    for (let c = 0; c < 4; c++) expect(out[4 + c]).toBeCloseTo(px[4 + c]!, 7);
  });
});

describe('posterize op', () => {
  test('a $param levels is rounded and clamped to 2..256', async () => {
    const r = Renderer.create({
      output: 'out',
      params: { levels: { type: 'number', default: 4 } },
      nodes: { bg: { op: 'solid', color: '#4080c0' }, out: { op: 'posterize', input: '@bg', levels: '$levels' } },
    });
    const render = async (levels: string) =>
      Array.from((await r.renderWindow(tileWindow({ z: 1, x: 0, y: 0 }, 16), r.params({ levels }))).raster.data.subarray(0, 4));
    // 0x40 = 0.251, 0x80 = 0.502, 0xc0 = 0.753: 2 levels give 0, 1, 1; 3 levels (2.6 rounded) 0.5, 0.5, 1.
    expect(await render('1')).toEqual([0, 1, 1, 1]);
    expect(await render('2.6')).toEqual([0.5, 0.5, 1, 1]);
    const fine = await render('1000');
    expect(fine[0]).toBeCloseTo(64 / 255, 6);
  });
});

gpuDescribe('posterize: CPU/GPU parity', () => {
  const W = testWindow(64);
  // Flat inputs (opaque exact 8-bit colours): with L - 1 dividing 255, every half-way point lies
  // half an 8-bit step from the nearest colour, far beyond the GPU's f16 rounding, so both backends
  // pick the same level everywhere. A soft input (anti-aliased, translucent, blurred) would put
  // pixels within f16 rounding of a half-way point, a whole level apart on the two backends.
  for (const [seed, levels] of [
    [1, 2],
    [2, 4],
    [3, 6],
    [4, 16],
    [5, 256],
  ] as const) {
    test(`seed ${seed}: ${levels} levels`, async () => {
      const input = rasterInput(seed, W, { flat: true });
      const style = { output: 'out', sources: input.sources, nodes: { ...input.nodes, out: { op: 'posterize', input: '@in', levels } } };
      await checkParity(`posterize ${seed}`, style, W);
    });
  }
});
