// color-to-alpha against its definition written out: d = max over r, g, b of |c - k| on straight
// colours; alpha x 0 for d <= threshold, x 1 for d >= threshold + softness, linear between; the
// straight colour is kept. And CPU/GPU parity on random rasters.
import { colorToAlpha } from './cpu.js';
import { Renderer, tileWindow } from '../../index.js';
import { premultipliedPixels, rng } from '../../../tests/helpers/random.js';
import { checkParity, gpuDescribe, testWindow } from '../../../tests/gpu/harness.js';
import { rasterInput } from '../../../tests/helpers/raster-input.js';

function factor(straight: number[], key: number[], threshold: number, softness: number): number {
  const d = Math.max(...straight.map((v, i) => Math.abs(v - key[i]!)));
  if (d <= threshold) return 0;
  if (d >= threshold + softness) return 1;
  return (d - threshold) / softness;
}

describe('color-to-alpha kernel against its definition', () => {
  const r = rng(17);
  const key = [0.2, 0.6, 0.9];
  const n = 3000;
  const { src, straight } = premultipliedPixels(n, () => {
    const a = r() < 0.1 ? 0 : r() < 0.3 ? 1 : r();
    // Half the pixels near the key, so every branch is taken.
    return { a, s: key.map((k) => (r() < 0.5 ? Math.min(1, Math.max(0, k + (r() - 0.5) * 0.3)) : r())) };
  });
  for (const [threshold, softness] of [
    [0, 0.1],
    [0.05, 0.1],
    [0.1, 0],
    [0, 0],
    [0.2, 0.5],
    [0.5, 1],
  ] as const) {
    test(`threshold ${threshold}, softness ${softness}`, () => {
      const dst = new Float32Array(src.length);
      colorToAlpha(src, dst, key, threshold, softness);
      let worst = 0;
      for (let i = 0; i < n; i++) {
        const a = src[i * 4 + 3]!;
        const f = a > 0 ? factor(straight[i]!, key, threshold, softness) : 0;
        const want = [...straight[i]!.map((v) => v * a * f), a * f];
        for (let c = 0; c < 4; c++) worst = Math.max(worst, Math.abs(dst[i * 4 + c]! - want[c]!));
      }
      expect(worst).toBeLessThan(1e-5);
    });
  }
});

describe('color-to-alpha op', () => {
  test('removes the key colour of a solid, keeps a colour far from it', async () => {
    const style = (bg: string) => ({
      output: 'out',
      nodes: { bg: { op: 'solid', color: bg }, out: { op: 'color-to-alpha', input: '@bg', color: '#ffffff', threshold: 0.1, softness: 0.2 } },
    });
    const render = async (bg: string) => (await Renderer.create(style(bg)).renderWindow(tileWindow({ z: 1, x: 0, y: 0 }, 64))).raster.data;
    expect(Array.from((await render('#f0f0f0')).subarray(0, 4))).toEqual([0, 0, 0, 0]);
    // #c0c0c0: d = 63/255 = 0.247, f = (0.247 - 0.1) / 0.2 = 0.735.
    const f = (63 / 255 - 0.1) / 0.2;
    const mid = await render('#c0c0c0');
    expect(mid[3]).toBeCloseTo(f, 5);
    expect(mid[0]).toBeCloseTo((0xc0 / 255) * f, 5);
    expect(Array.from((await render('#000000')).subarray(0, 4))).toEqual([0, 0, 0, 1]);
  });
});

gpuDescribe('CPU/GPU parity', () => {
  const W = testWindow(64);
  // 1 / softness multiplies the f16 rounding of the GPU's straight input colour (<= 4.9e-4):
  // tolerance 1.5e-3 x max(1, 0.5 / softness).
  for (const [seed, color, threshold, softness, flat] of [
    [1, '#808080', 0.1, 0.3, false],
    [2, '#ffffff', 0, 0.5, false],
    [3, '#336699', 0.2, 0, true],
  ] as const) {
    test(`seed ${seed}: ${color}, threshold ${threshold}, softness ${softness}`, async () => {
      const input = rasterInput(seed, W, { flat, blur: seed === 2 ? 3 : 0 });
      const style = {
        output: 'out',
        sources: input.sources,
        nodes: { ...input.nodes, out: { op: 'color-to-alpha', input: '@in', color, threshold, softness } },
      };
      await checkParity(`color-to-alpha ${seed}`, style, W, 1.5e-3 * Math.max(1, softness > 0 ? 0.5 / softness : 1));
    });
  }
});
