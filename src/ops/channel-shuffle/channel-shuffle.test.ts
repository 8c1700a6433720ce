// channel-shuffle against its definition written out on straight colours: output channel k is
// input channel sources[k] (r, g, b, a of the straight colour) or the constant 0 or 1, then
// premultiplied by the new alpha; and CPU/GPU parity on random rasters.
import { CHANNELS, channelShuffle, sourcesOf, type Channel } from './cpu.js';
import { Renderer, tileWindow } from '../../index.js';
import { premultipliedPixels, rng } from '../../../tests/helpers/random.js';
import { checkParity, gpuDescribe, testWindow } from '../../../tests/gpu/harness.js';
import { rasterInput } from '../../../tests/helpers/raster-input.js';

function reference(straight: number[], alpha: number, pick: Channel[]): number[] {
  const value = (c: Channel) => (c === '0' ? 0 : c === '1' ? 1 : c === 'a' ? alpha : alpha > 0 ? straight['rgb'.indexOf(c)]! : 0);
  const a = value(pick[3]!);
  return [value(pick[0]!) * a, value(pick[1]!) * a, value(pick[2]!) * a, a];
}

describe('channel-shuffle kernel against its definition', () => {
  const r = rng(9);
  const n = 2000;
  const { src, straight, alpha } = premultipliedPixels(n, () => {
    const a = r() < 0.1 ? 0 : r() < 0.2 ? 1 : r();
    return { a, s: [r(), r(), r()] };
  });
  const picks: Channel[][] = [
    ['r', 'g', 'b', 'a'],
    ['b', 'g', 'r', 'a'],
    ['a', 'a', 'a', '1'],
    ['1', '0', 'r', 'g'],
    ['g', '1', '0', '0'],
    ['r', 'r', 'r', 'b'],
  ];
  for (let k = 0; k < 6; k++) picks.push(Array.from({ length: 4 }, () => CHANNELS[Math.floor(r() * 6)]!));
  for (const pick of picks) {
    test(pick.join(' '), () => {
      const node = { op: 'channel-shuffle', r: pick[0], g: pick[1], b: pick[2], a: pick[3] };
      const dst = new Float32Array(src.length);
      channelShuffle(src, dst, sourcesOf(node));
      let worst = 0;
      for (let i = 0; i < n; i++) {
        const want = reference(straight[i]!, alpha[i]!, pick);
        for (let c = 0; c < 4; c++) worst = Math.max(worst, Math.abs(dst[i * 4 + c]! - want[c]!));
      }
      expect(worst).toBeLessThan(1e-6);
    });
  }

  test('the default is the identity', () => {
    expect(sourcesOf({ op: 'channel-shuffle' })).toEqual([0, 1, 2, 3]);
  });
});

describe('channel-shuffle op', () => {
  test('swaps red and blue of a solid and takes alpha from the constant 1', async () => {
    const r = Renderer.create({
      output: 'out',
      nodes: { bg: { op: 'solid', color: '#336699cc' }, out: { op: 'channel-shuffle', input: '@bg', r: 'b', b: 'r', a: '1' } },
    });
    const { raster } = await r.renderWindow(tileWindow({ z: 1, x: 0, y: 0 }, 64));
    const want = [0x99 / 255, 0x66 / 255, 0x33 / 255, 1];
    for (let c = 0; c < 4; c++) expect(raster.data[c]).toBeCloseTo(want[c]!, 6);
  });
});

gpuDescribe('CPU/GPU parity', () => {
  const W = testWindow(64);
  // Moving colour into alpha (or alpha '1') shows the straight colour of faint pixels at full
  // weight: an anti-aliased edge pixel of coverage 1e-5 on the CPU may be 0 in f16 on the GPU
  // (measured: one such pixel in seed 3 on AA input). Seed 3 runs on flat input (alpha 0 or 1).
  const cases: [number, Record<string, Channel>][] = [
    [1, { r: 'b', g: 'r', b: 'g' }],
    [2, { r: 'a', g: '0', b: '1', a: '1' }],
    [3, { r: 'g', g: 'g', b: 'b', a: 'r' }],
  ];
  for (const [seed, pick] of cases) {
    test(`seed ${seed}: ${JSON.stringify(pick)}`, async () => {
      const input = rasterInput(seed, W, { flat: seed === 3 });
      const style = { output: 'out', sources: input.sources, nodes: { ...input.nodes, out: { op: 'channel-shuffle', input: '@in', ...pick } } };
      await checkParity(`channel-shuffle ${seed}`, style, W);
    });
  }
});
