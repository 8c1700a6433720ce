// threshold against its definition written out: t(v) = 0 below level - softness/2, 1 above
// level + softness/2, linear between (a step v > level when softness is 0); channel 'a' keeps the
// straight colour with alpha t(alpha); channel 'luma' gives grey t(Rec. 709 luma of the straight
// colour) with the alpha kept. And CPU/GPU parity on random rasters.
import { threshold } from './cpu.js';
import { Renderer, tileWindow } from '../../index.js';
import { premultipliedPixels, rng } from '../../../tests/helpers/random.js';
import { checkParity, gpuDescribe, testWindow } from '../../../tests/gpu/harness.js';
import { rasterInput } from '../../../tests/helpers/raster-input.js';

function t(v: number, level: number, softness: number): number {
  if (softness === 0) return v > level ? 1 : 0;
  if (v <= level - softness / 2) return 0;
  if (v >= level + softness / 2) return 1;
  return (v - (level - softness / 2)) / softness;
}

describe('threshold kernel against its definition', () => {
  const r = rng(23);
  const n = 3000;
  const { src, straight } = premultipliedPixels(n, () => {
    const a = r() < 0.1 ? 0 : r() < 0.2 ? 1 : r();
    return { a, s: [r(), r(), r()] };
  });
  for (const channel of ['a', 'luma'] as const) {
    for (const [level, softness] of [
      [0.5, 0],
      [0.3, 0.2],
      [0, 0],
      [1, 0],
      [0.7, 1],
      [0.5, 0.05],
    ] as const) {
      test(`${channel}: level ${level}, softness ${softness}`, () => {
        const dst = new Float32Array(src.length);
        threshold(src, dst, level, softness, channel === 'luma');
        let worst = 0;
        for (let i = 0; i < n; i++) {
          const a = src[i * 4 + 3]!;
          const s = a > 0 ? straight[i]! : [0, 0, 0];
          let want: number[];
          if (channel === 'a') {
            const k = t(a, level, softness);
            want = [s[0]! * k, s[1]! * k, s[2]! * k, k];
          } else {
            const k = t(0.2126 * s[0]! + 0.7152 * s[1]! + 0.0722 * s[2]!, level, softness) * a;
            want = [k, k, k, a];
          }
          for (let c = 0; c < 4; c++) worst = Math.max(worst, Math.abs(dst[i * 4 + c]! - want[c]!));
        }
        expect(worst).toBeLessThan(1e-5);
      });
    }
  }
});

describe('threshold op', () => {
  test('a $param level: a translucent solid passes above its alpha and vanishes below', async () => {
    const r = Renderer.create({
      output: 'out',
      params: { level: { type: 'number', default: 0.5, min: 0, max: 1 } },
      nodes: { bg: { op: 'solid', color: '#33669980' }, out: { op: 'threshold', input: '@bg', level: '$level' } },
    });
    const render = async (level: string) => (await r.renderWindow(tileWindow({ z: 1, x: 0, y: 0 }, 64), r.params({ level }))).raster.data;
    const on = await render('0.4');
    expect(on[3]).toBe(1);
    expect(on[0]).toBeCloseTo(0x33 / 255, 5);
    expect(Array.from((await render('0.6')).subarray(0, 4))).toEqual([0, 0, 0, 0]);
  });
});

gpuDescribe('CPU/GPU parity', () => {
  const W = testWindow(64);
  // 1 / softness multiplies the f16 rounding of the GPU's input: tolerance 1.5e-3 x max(1, 0.25 / softness).
  // Hard steps run on flat inputs (exact 8-bit colours, alpha 0 or 1) so no pixel sits within
  // f16 rounding of the level.
  for (const [seed, channel, level, softness, blur, flat] of [
    [1, 'a', 0.5, 0.25, 3, false],
    [2, 'luma', 0.45, 0.3, 0, false],
    [3, 'luma', 0.5, 0, 0, true],
    [4, 'a', 0.5, 0, 0, true],
  ] as const) {
    test(`seed ${seed}: ${channel}, level ${level}, softness ${softness}`, async () => {
      const input = rasterInput(seed, W, { flat, blur });
      const style = { output: 'out', sources: input.sources, nodes: { ...input.nodes, out: { op: 'threshold', input: '@in', channel, level, softness } } };
      await checkParity(`threshold ${seed}`, style, W, 1.5e-3 * Math.max(1, softness > 0 ? 0.25 / softness : 1));
    });
  }
});
