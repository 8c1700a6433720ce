// fill-pattern: the pattern's closed form (texel (X mod w, Y mod h) at scale 1, periodicity at any
// scale), world anchoring across tiles, raster patterns against fill-solid, CPU/GPU parity.
import sharp from 'sharp';
import { CpuBackend, Renderer, type Raster, type Window } from '../../index.js';
import { decodeImage } from '../../hosts/node/image.js';
import type { Loader } from '../../sources/types.js';
import { diffRasters, gpuDescribe, GPU, randomFeatures, testWindow, RASTER_TOL } from '../../../tests/gpu/harness.js';

function lonLat(z: number, ts: number, x: number, y: number): [number, number] {
  const size = ts * 2 ** z;
  return [(x / size) * 360 - 180, (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / size))) * 180) / Math.PI];
}

const Z = 8;
const TS = 64;
const WIN: Window = { z: Z, x0: 100 * TS, y0: 90 * TS, width: 2 * TS, height: 2 * TS, tileSize: TS };

/** A polygon from window pixel corners [x0, y0, x1, y1]. */
function box(x0: number, y0: number, x1: number, y1: number): object {
  const c = [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
    [x0, y0],
  ].map(([x, y]) => lonLat(Z, TS, WIN.x0 + x!, WIN.y0 + y!));
  return { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [c] } }] };
}

// 3 x 2 texels, straight RGBA8.
const TEX = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 0, 128, 0, 0, 0, 0, 40, 80, 120, 200];

async function png(w: number, h: number, px: number[]): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp(Buffer.from(Uint8Array.from(px)), { raw: { width: w, height: h, channels: 4 } })
      .png()
      .toBuffer(),
  );
}

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

  test('periodic with period (3, 2) x scale, shifted by offset', async () => {
    const r = await render(style(box(-10, -10, 140, 140), { scale: 2.5, offset: [3, -1] }));
    for (const [x, y] of [
      [4, 9],
      [30, 50],
      [77, 12],
    ]) {
      const a = px(r, x!, y!);
      px(r, x! + 15, y!).forEach((v, i) => expect(v).toBeCloseTo(a[i]!, 4)); // 2 periods of 7.5
      px(r, x!, y! + 10).forEach((v, i) => expect(v).toBeCloseTo(a[i]!, 4));
    }
    const shifted = await render(style(box(-10, -10, 140, 140), { scale: 2.5, offset: [3 + 7.5, -1 + 5] }));
    expect(Math.max(...r.data.map((v, i) => Math.abs(v - shifted.data[i]!)))).toBeLessThan(1e-4);
  });

  test('the pattern continues across tiles: 2 x 2 tiles equal the window render', async () => {
    const s = style(box(7.3, 5.1, 121.7, 118.2), { scale: 1.7, offset: [0.4, 2] });
    const whole = await render(s);
    for (const [tx, ty] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ]) {
      const tile = await render(s, { ...WIN, x0: WIN.x0 + tx! * TS, y0: WIN.y0 + ty! * TS, width: TS, height: TS });
      let m = 0;
      for (let y = 0; y < TS; y++)
        for (let x = 0; x < TS; x++)
          for (let c = 0; c < 4; c++)
            m = Math.max(m, Math.abs(tile.data[(y * TS + x) * 4 + c]! - whole.data[((y + ty! * TS) * whole.width + x + tx! * TS) * 4 + c]!));
      expect(m).toBeLessThan(1e-5);
    }
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
