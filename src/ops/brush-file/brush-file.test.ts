// brush-file: a tip from an asset or a sprite node; its width; what it refuses.
import sharp from 'sharp';
import { CpuBackend, Renderer, type Window } from '../../index.js';
import { decodeImage } from '../../hosts/node/image.js';
import type { Loader } from '../../sources/types.js';
import { strokedLine } from '../../../tests/helpers/op-window.js';

const W: Window = { z: 2, x0: 480, y0: 496, width: 64, height: 32, tileSize: 256 };

async function png(w: number, h: number, rgba: number[]): Promise<Uint8Array> {
  const px = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) px.set(rgba, i * 4);
  return new Uint8Array(
    await sharp(Buffer.from(px), { raw: { width: w, height: h, channels: 4 } })
      .png()
      .toBuffer(),
  );
}

const style = (brush: Record<string, unknown>, extra: Record<string, unknown> = {}) => strokedLine({ op: 'brush-file', ...brush }, extra);

async function render(s: object, loader?: Loader) {
  const r = Renderer.create(s, loader ? { loader } : {});
  return (await r.renderWindow(W, r.params(), { backend: new CpuBackend() })).raster;
}

describe('brush-file', () => {
  test('an asset tip drawn at its own size by default (the larger side), or at width-px', async () => {
    const bytes = await png(6, 2, [0, 0, 255, 255]); // a 6 x 2 bar: dabs 6 px wide, 2 px tall
    const loader: Loader = { load: async () => bytes, decodeImage };
    const r = await render(style({ src: 'bar.png' }), loader);
    const a = (x: number, y: number) => r.data[(y * 64 + x) * 4 + 3]!;
    // The line on world row 512 (window row 16): the bar covers rows 15 and 16 (dab height 2 px).
    expect([a(32, 14), a(32, 15), a(32, 16), a(32, 17)].map((v) => Math.round(v * 100) / 100)).toEqual([0, 1, 1, 0]);
    const wide = await render(style({ src: 'bar.png', 'width-px': 12 }), loader);
    const b = (x: number, y: number) => wide.data[(y * 64 + x) * 4 + 3]!;
    // Twice the size: 4 px tall, plus the bilinear fringe of a magnified tip (one pixel each side, partial).
    expect([b(32, 12), b(32, 15), b(32, 16), b(32, 19)].map((v) => Math.round(v * 100) / 100)).toEqual([0, 1, 1, 0]);
    expect(b(32, 13)).toBeGreaterThan(0);
  });

  test('a tip from a sprite node (circle, kind sprite)', async () => {
    const r = await render(
      style({ src: '@tip' }, { tip: { op: 'circle', kind: 'sprite', 'width-px': 5, 'height-px': 5, 'radius-frac': 0.5, color: '#00ff00' } }),
    );
    expect(Array.from(r.data.subarray((16 * 64 + 32) * 4, (16 * 64 + 32) * 4 + 4)).map((v) => Math.round(v * 100) / 100)).toEqual([0, 1, 0, 1]);
  });

  test('refused: a raster node as the tip (build), a missing or corrupt asset (named), no loader', async () => {
    expect(() => Renderer.create(style({ src: '@paint' }, { paint: { op: 'solid', color: '#000000' } }))).toThrow(
      /field 'src' expects sprite but 'paint' produces raster/,
    );
    await expect(
      render(style({ src: 'gone.png' }), {
        load: async () => {
          throw new Error('ENOENT');
        },
        decodeImage,
      }),
    ).rejects.toThrow(/node 'b' field 'src': asset 'gone\.png' cannot be loaded: ENOENT/);
    await expect(render(style({ src: 'bad.png' }), { load: async () => new Uint8Array(8), decodeImage })).rejects.toThrow(
      /node 'b' field 'src': asset 'bad\.png' is not a readable image/,
    );
    await expect(render(style({ src: 'tip.png' }))).rejects.toThrow(/node 'b' field 'src'.*tip\.png/);
  });
});
