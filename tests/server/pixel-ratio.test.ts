// @2x (issue 15 item 5): a window with pixelRatio 2 draws the same map with every size in pixels
// doubled, the way MapLibre's pixel ratio does: exactly the render at ratio 1 of the same style
// with those sizes written twice as large (by hand: tests/pixel-ratio/mixed and pads).
import { Renderer, type Raster, type Window } from '../../src/index.js';
import { serve } from '../../src/hosts/server/serve.js';
import { decodePngRGBA } from '../../src/hosts/node/png.js';
import { toRGBA8 } from '../../src/index.js';
import { writeFixtures } from './fixtures.js';
import { GPU, gpuTest } from '../gpu/harness.js';
import { compareRGBA } from '../helpers/compare.js';
import { handStyle, ratioStyle } from '../helpers/pixel-ratio.js';

const maxDiff = (a: Raster, b: Raster) => {
  const x = toRGBA8(a);
  const y = toRGBA8(b);
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]! - y[i]!));
  return m;
};

test('pixelRatio 2 equals ratio 1 with doubled pixel sizes (stroke width and width-expr, circle radius and stroke, blur sigma)', async () => {
  const base = Renderer.create(ratioStyle(1));
  const doubled = Renderer.create(ratioStyle(2));
  const w: Window = { z: 1, x0: 0, y0: 0, width: 1024, height: 1024, tileSize: 512 };
  const at2 = (await base.renderWindow({ ...w, pixelRatio: 2 }, base.params())).raster;
  const ref = (await doubled.renderWindow(w, doubled.params())).raster;
  expect(maxDiff(at2, ref)).toBeLessThanOrEqual(1);
  // And it is not the plain 512 px render (which keeps 1.25 px lines and a 1.5 px blur).
  const plain = (await base.renderWindow(w, base.params())).raster;
  expect(maxDiff(plain, ref)).toBeGreaterThan(40);
});

/** Pads and clamps at a pixel ratio (tests/pixel-ratio/pads): a constant blur sigma, 1 px neighbour reads, sizes past their max; k = 2: sizes written twice as large by hand. */
const padsStyle = (k: 1 | 2, output: string) => Renderer.create({ ...handStyle('pads', k), output });

test('pads and maxes at pixelRatio 2: a constant blur sigma (3 sigma not whole), the 1 px neighbour reads of hillshade and edge-detect, width-max and radius-max', async () => {
  // Before the fix the input was grown by ceil(pad) x ratio while the kernel read ceil(pad x ratio):
  // a constant sigma 1.5 at @2x grew it by 10 px for a blur reading 9, shifting the blur a pixel
  // (alpha 0.58 where sigma 3 gives 0.75); hillshade and edge-detect got 2 px for a 1 px read.
  const w: Window = { z: 1, x0: 0, y0: 0, width: 1024, height: 1024, tileSize: 512 };
  for (const out of ['soft', 'shade', 'edges', 'line', 'dots']) {
    const base = padsStyle(1, out);
    const doubled = padsStyle(2, out);
    const at2 = (await base.renderWindow({ ...w, pixelRatio: 2 }, base.params())).raster;
    const ref = (await doubled.renderWindow(w, doubled.params())).raster;
    const d = maxDiff(at2, ref);
    expect({ out, withinOneLevel: d <= 1 }).toEqual({ out, withinOneLevel: true });
  }
});

test('a tile at pixelRatio 2 continues its neighbour (margins scale with the ratio)', async () => {
  const r = Renderer.create(ratioStyle(1));
  const p = r.params({ sigma: '6' });
  const whole = (await r.renderWindow({ z: 1, x0: 0, y0: 0, width: 1024, height: 512, tileSize: 512, pixelRatio: 2 }, p)).raster;
  const left = (await r.renderWindow({ z: 1, x0: 0, y0: 0, width: 512, height: 512, tileSize: 512, pixelRatio: 2 }, p)).raster;
  const right = (await r.renderWindow({ z: 1, x0: 512, y0: 0, width: 512, height: 512, tileSize: 512, pixelRatio: 2 }, p)).raster;
  const W = toRGBA8(whole);
  const L = toRGBA8(left);
  const R = toRGBA8(right);
  let m = 0;
  for (let y = 0; y < 512; y++)
    for (let x = 0; x < 512; x++)
      for (let c = 0; c < 4; c++) {
        m = Math.max(m, Math.abs(W[(y * 1024 + x) * 4 + c]! - L[(y * 512 + x) * 4 + c]!));
        m = Math.max(m, Math.abs(W[(y * 1024 + 512 + x) * 4 + c]! - R[(y * 512 + x) * 4 + c]!));
      }
  expect(m).toBeLessThanOrEqual(1);
});

test('a pixel ratio outside 1..4 or not an integer is refused', async () => {
  const r = Renderer.create(ratioStyle(1));
  await expect(r.renderWindow({ z: 0, x0: 0, y0: 0, width: 8, height: 8, tileSize: 256, pixelRatio: 1.5 }, r.params())).rejects.toThrow(
    /pixelRatio 1.5 is not an integer in 1..4/,
  );
  await expect(r.renderWindow({ z: 0, x0: 0, y0: 0, width: 8, height: 8, tileSize: 256, pixelRatio: 8 }, r.params())).rejects.toThrow(/pixelRatio 8/);
});

test('the server’s @2x tile is the 512 px render at pixel ratio 2', async () => {
  const fx = writeFixtures();
  const s = await serve({ style: fx.shapes, port: 0, workers: 0, backend: 'cpu', log: () => undefined });
  try {
    const res = await fetch(`${s.url}tiles/1/0/0@2x.png`);
    expect(res.status).toBe(200);
    const img = await decodePngRGBA(new Uint8Array(await res.arrayBuffer()));
    expect([img.width, img.height]).toEqual([512, 512]);
    const direct = toRGBA8(
      (
        await s.service.style.renderer.renderWindow(
          { z: 1, x0: 0, y0: 0, width: 512, height: 512, tileSize: 512, pixelRatio: 2 },
          s.service.style.renderer.params(),
        )
      ).raster,
    );
    let m = 0;
    for (let i = 0; i < direct.length; i++) m = Math.max(m, Math.abs(direct[i]! - img.data[i]!));
    expect(m).toBe(0);
  } finally {
    await s.close(0);
  }
});

gpuTest(
  'the GPU backend grows inputs by the same pads and clamps to the same maxes at pixel ratio 2 (CPU/GPU within the golden tolerance)',
  async () => {
    const w: Window = { z: 1, x0: 256, y0: 256, width: 256, height: 256, tileSize: 512, pixelRatio: 2 };
    for (const out of ['soft', 'shade', 'edges', 'line', 'dots']) {
      const r = padsStyle(1, out);
      const cpu = toRGBA8((await r.renderWindow(w, r.params())).raster);
      const gpu = toRGBA8((await r.renderWindow(w, r.params(), { backend: GPU! })).raster);
      expect({ out, ok: compareRGBA(gpu, cpu, 256, 256).ok }).toEqual({ out, ok: true });
    }
  },
  300_000,
);

gpuTest(
  'the GPU backend scales the same sizes (pixel ratio 2, CPU/GPU within the golden tolerance)',
  async () => {
    const r = Renderer.create(ratioStyle(1));
    const w: Window = { z: 1, x0: 256, y0: 256, width: 256, height: 256, tileSize: 512, pixelRatio: 2 };
    const cpu = toRGBA8((await r.renderWindow(w, r.params())).raster);
    const gpu = toRGBA8((await r.renderWindow(w, r.params(), { backend: GPU! })).raster);
    expect(compareRGBA(gpu, cpu, 256, 256).ok).toBe(true);
    const ref = Renderer.create(ratioStyle(2));
    const doubled = toRGBA8((await ref.renderWindow({ ...w, pixelRatio: 1 }, ref.params(), { backend: GPU! })).raster);
    expect(compareRGBA(gpu, doubled, 256, 256).ok).toBe(true);
  },
  300_000,
);
