// brightness-contrast against its closed form, written out here on straight colours:
// out = clamp((c - 0.5) * tan((contrast + 1) * pi / 4) + 0.5 + brightness, 0, 1), alpha unchanged
// (the slope of GIMP's legacy brightness-contrast), and CPU/GPU parity on random rasters.
import { brightnessContrast, contrastSlope, MAX_SLOPE } from './cpu.js';
import { Renderer, tileWindow } from '../../index.js';
import { rng } from '../../../tests/helpers/random.js';
import { checkParity, gpuDescribe, testWindow } from '../../../tests/gpu/harness.js';
import { rasterInput } from '../../../tests/helpers/raster-input.js';

const reference = (c: number, brightness: number, contrast: number) =>
  Math.min(1, Math.max(0, (c - 0.5) * Math.tan(((contrast + 1) * Math.PI) / 4) + 0.5 + brightness));

/** n random premultiplied pixels, some transparent, some opaque. */
function pixels(n: number, seed: number): Float32Array {
  const r = rng(seed);
  const d = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) {
    const a = r() < 0.1 ? 0 : r() < 0.2 ? 1 : r();
    for (let c = 0; c < 3; c++) d[i * 4 + c] = r() * a;
    d[i * 4 + 3] = a;
  }
  return d;
}

describe('brightness-contrast kernel against the closed form', () => {
  const src = pixels(4000, 5);
  const cases: [number, number][] = [
    [0, 0],
    [0.3, 0],
    [-0.4, 0],
    [0, 0.5],
    [0, -0.5],
    [0.2, -0.7],
    [-0.1, 0.9],
    [0, -1],
    [0.25, -1],
  ];
  for (const [b, k] of cases) {
    test(`brightness ${b}, contrast ${k}`, () => {
      const dst = new Float32Array(src.length);
      brightnessContrast(src, dst, b, contrastSlope(k));
      let worst = 0;
      for (let i = 0; i < src.length; i += 4) {
        const a = src[i + 3]!;
        worst = Math.max(worst, Math.abs(dst[i + 3]! - a));
        for (let c = 0; c < 3; c++) {
          const want = a > 0 ? reference(src[i + c]! / a, b, k) * a : 0;
          worst = Math.max(worst, Math.abs(dst[i + c]! - want));
        }
      }
      expect(worst).toBeLessThan(1e-6);
    });
  }

  test('contrast 0 and brightness 0 is the identity; contrast -1 is flat grey 0.5 + brightness', () => {
    const dst = new Float32Array(src.length);
    brightnessContrast(src, dst, 0, contrastSlope(0));
    expect(src.reduce((m, v, i) => Math.max(m, Math.abs(dst[i]! - v)), 0)).toBeLessThan(1e-6);
    brightnessContrast(src, dst, 0.25, contrastSlope(-1));
    let worst = 0;
    for (let i = 0; i < src.length; i += 4) for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(dst[i + c]! - 0.75 * src[i + 3]!));
    expect(worst).toBeLessThan(1e-6);
  });

  test('contrast 1 is a threshold at mid-grey (slope capped at MAX_SLOPE)', () => {
    expect(contrastSlope(1)).toBe(MAX_SLOPE);
    const src1 = Float32Array.of(0.49, 0.51, 0.2, 1);
    const dst = new Float32Array(4);
    brightnessContrast(src1, dst, 0, contrastSlope(1));
    expect(Array.from(dst)).toEqual([0, 1, 0, 1]);
  });
});

describe('brightness-contrast op', () => {
  test('a solid through $param brightness and literal contrast renders the closed form', async () => {
    const r = Renderer.create({
      output: 'out',
      params: { b: { type: 'number', default: 0, min: -1, max: 1 } },
      nodes: {
        bg: { op: 'solid', color: '#336699cc' },
        out: { op: 'brightness-contrast', input: '@bg', brightness: '$b', contrast: 0.4 },
      },
    });
    const { raster } = await r.renderWindow(tileWindow({ z: 1, x: 0, y: 0 }, 64), r.params({ b: '0.1' }));
    const a = 0xcc / 255;
    const want = [0x33, 0x66, 0x99].map((v) => reference(v / 255, 0.1, 0.4) * a);
    for (let c = 0; c < 3; c++) expect(raster.data[c]).toBeCloseTo(want[c]!, 5);
    expect(raster.data[3]).toBeCloseTo(a, 6);
  });
});

gpuDescribe('CPU/GPU parity', () => {
  const W = testWindow(64);
  // The slope multiplies the f16 rounding of the GPU's input (<= 2.4e-4 per straight channel,
  // more after un-premultiplying a low alpha): tolerance 1.5e-3 x max(1, slope).
  for (const [seed, brightness, contrast, blur] of [
    [1, 0.2, 0.3, 0],
    [2, -0.3, -0.6, 0],
    [3, 0.05, 0.5, 3],
  ] as const) {
    test(`seed ${seed}: brightness ${brightness}, contrast ${contrast}`, async () => {
      const input = rasterInput(seed, W, { blur });
      const style = {
        output: 'out',
        sources: input.sources,
        nodes: { ...input.nodes, out: { op: 'brightness-contrast', input: '@in', brightness, contrast } },
      };
      await checkParity(`brightness-contrast ${seed}`, style, W, 1.5e-3 * Math.max(1, contrastSlope(contrast)));
    });
  }
});
