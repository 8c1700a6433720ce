// circle against closed forms written out here: alpha(d) = 1 inside R - soft, 0 beyond R, linear
// between (soft = max(R (1 - hardness), 1)); the alpha sums to the profile's volume (pi (R - 1/2)^2
// for a hard disk; pi R^2 / 3 for the cone of hardness 0); the raster kind is centred on the
// window whatever the canvas margin; and CPU/GPU parity of the raster kind.
import { circle } from './index.js';
import { spriteDisk } from './cpu.js';
import { gpu as circleGpu } from './gpu.js';
import { Renderer, tileWindow, type Sprite, type Window } from '../../index.js';
import type { OpContext } from '../types.js';
import type { GpuEncoder } from '../../backends/gpu/encoder.js';
import { checkParity, gpuDescribe, testWindow } from '../../../tests/gpu/harness.js';

const alphaAt = (d: number, R: number, hardness: number) => {
  const soft = Math.max(R * (1 - hardness), 1);
  return d >= R ? 0 : d <= R - soft ? 1 : (R - d) / soft;
};

function spriteCtx(node: Record<string, unknown>): OpContext {
  const num = (f: string) => (node[f] as number | undefined) ?? ((circle.fields[f] as { default?: number }).default as number);
  const hex = node.color as string;
  const rgba = [1, 3, 5, 7].map((i) => parseInt(hex.slice(i, i + 2) || 'ff', 16) / 255) as [number, number, number, number];
  return { node: { op: 'circle', ...node }, num, color: () => rgba } as unknown as OpContext;
}

describe('circle sprite against the closed form', () => {
  for (const [w, h, frac, hardness] of [
    [64, 64, 0.5, 1],
    [64, 48, 0.4, 0.5],
    [33, 65, 0.5, 0],
    [16, 16, 0.2, 0.8],
    [40, 40, 1, 1],
  ] as const) {
    test(`${w} x ${h}, radius-frac ${frac}, hardness ${hardness}`, () => {
      const s = circle.cpu!(spriteCtx({ color: '#3366cc80', 'radius-frac': frac, hardness, kind: 'sprite', 'width-px': w, 'height-px': h })) as Sprite;
      expect([s.kind, s.width, s.height, s.data.length]).toEqual(['sprite', w, h, w * h * 4]);
      const R = frac * Math.min(w, h);
      let worst = 0;
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const k = alphaAt(Math.hypot(x + 0.5 - w / 2, y + 0.5 - h / 2), R, hardness) * (0x80 / 255);
          const want = [0x33 / 255, 0x66 / 255, 0xcc / 255, 1].map((c) => c * k);
          for (let c = 0; c < 4; c++) worst = Math.max(worst, Math.abs(s.data[(y * w + x) * 4 + c]! - want[c]!));
        }
      }
      expect(worst).toBeLessThan(1e-6);
    });
  }

  test('the alpha sums to the volume of the profile', () => {
    const sum = (s: Sprite) => s.data.reduce((acc, v, i) => (i % 4 === 3 ? acc + v : acc), 0);
    const R = 40;
    // Hard: the one-pixel rim is a linear ramp from R - 1 to R, so the disk counts as radius R - 1/2.
    expect(sum(spriteDisk({ color: [1, 1, 1, 1], radiusFrac: 0.5, hardness: 1 }, 80, 80)) / (Math.PI * (R - 0.5) ** 2)).toBeCloseTo(1, 3);
    // Hardness 0: the cone 1 - d / R, volume pi R^2 / 3.
    expect(sum(spriteDisk({ color: [1, 1, 1, 1], radiusFrac: 0.5, hardness: 0 }, 80, 80)) / ((Math.PI * R * R) / 3)).toBeCloseTo(1, 3);
  });

  test('a sprite runs the CPU kernel on the GPU backend too (encode declines it)', async () => {
    const g = {} as GpuEncoder;
    expect(await circleGpu.encode(g, spriteCtx({ color: '#ffffff', 'radius-frac': 0.5, kind: 'sprite', 'width-px': 8, 'height-px': 8 }))).toBeUndefined();
  });
});

describe('circle op', () => {
  test('kind sprite without width-px / height-px fails to build', () => {
    expect(() =>
      Renderer.create({
        output: 'out',
        nodes: { s: { op: 'circle', color: '#fff', 'radius-frac': 0.5, kind: 'sprite' }, out: { op: 'solid', color: '#000000' } },
      }),
    ).toThrow();
    expect(() =>
      Renderer.create({
        output: 'out',
        nodes: { s: { op: 'circle', color: '#ffffff', 'radius-frac': 0.5, kind: 'sprite' }, out: { op: 'solid', color: '#000000' } },
      }),
    ).toThrow(/width-px/);
  });

  test('the raster kind is centred on the window, radius-frac x tile size, whatever the margin', async () => {
    const style = (sigma: number) => ({
      output: 'out',
      nodes: {
        c: { op: 'circle', color: '#ff0000', 'radius-frac': 0.25, hardness: 1 },
        out: { op: 'blur', input: '@c', sigma },
      },
    });
    // A window that is not a tile: 40 x 24 at tile size 64, so R = 16 px, centred at (20, 12).
    const win: Window = { z: 3, x0: 100, y0: 50, width: 40, height: 24, tileSize: 64 };
    const flat = (await Renderer.create(style(0)).renderWindow(win)).raster;
    let worst = 0;
    for (let y = 0; y < 24; y++)
      for (let x = 0; x < 40; x++) worst = Math.max(worst, Math.abs(flat.data[(y * 40 + x) * 4 + 3]! - alphaAt(Math.hypot(x + 0.5 - 20, y + 0.5 - 12), 16, 1)));
    expect(worst).toBeLessThan(1e-6);
    // With a margin (blur pads 3 px) the disk stays on the window's centre: the blur is symmetric.
    const blurred = (await Renderer.create(style(1)).renderWindow(win)).raster;
    const a = (x: number, y: number) => blurred.data[(y * 40 + x) * 4 + 3]!;
    for (const [x, y] of [
      [4, 12],
      [10, 3],
      [19, 0],
    ] as const)
      expect(a(x, y)).toBeCloseTo(a(39 - x, 23 - y), 5);
  });

  test('tiles each get their own disk (per window, not world-anchored)', async () => {
    const r = Renderer.create({ output: 'out', nodes: { out: { op: 'circle', color: '#ffffff', 'radius-frac': 0.1 } } });
    for (const t of [
      { z: 2, x: 0, y: 0 },
      { z: 2, x: 3, y: 1 },
    ]) {
      const { raster } = await r.renderWindow(tileWindow(t, 64));
      expect(raster.data[(32 * 64 + 32) * 4 + 3]).toBe(1);
      expect(raster.data[3]).toBe(0);
    }
  });
});

gpuDescribe('CPU/GPU parity', () => {
  const W = testWindow(64);
  for (const [frac, hardness, sigma] of [
    [0.3, 1, 0],
    [0.45, 0.3, 0],
    [0.2, 0, 2],
    [0.8, 0.7, 0],
  ] as const) {
    test(`radius-frac ${frac}, hardness ${hardness}${sigma ? `, under a blur (margin)` : ''}`, async () => {
      const nodes: Record<string, object> = { c: { op: 'circle', color: '#3366cccc', 'radius-frac': frac, hardness } };
      if (sigma) nodes.out = { op: 'blur', input: '@c', sigma };
      await checkParity(`circle ${frac} ${hardness}`, { output: sigma ? 'out' : 'c', nodes }, W);
    });
  }
});
