// dem: samples a raster elevation source (Terrain-RGB or Terrarium) as a field in metres.
import sharp from 'sharp';
import { Renderer } from '../../index.js';
import type { Loader } from '../../sources/types.js';
import { decodeImage } from '../../hosts/node/image.js';
import { capture, rampOut } from '../../../tests/helpers/scalars.js';

/** A 256 px tile of one colour. */
const tile = (r: number, g: number, b: number) =>
  sharp({ create: { width: 256, height: 256, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

async function field(encoding: 'terrarium' | 'mapbox', rgb: [number, number, number]): Promise<Float32Array> {
  const png = new Uint8Array(await tile(...rgb));
  const loader: Loader = { load: async () => png };
  const style = {
    output: 'out',
    sources: { elev: { type: 'dem', tiles: ['t/{z}/{x}/{y}.png'], encoding, tileSize: 256, maxzoom: 3 } },
    nodes: {
      d: { op: 'dem' },
      out: rampOut('@d', [0, '#000000'], [1000, '#ffffff']),
    },
  };
  const got = await capture(style, ['d'], { z: 2, x0: 256, y0: 256, width: 8, height: 8, tileSize: 256 }, {}, { loader, decodeImage });
  const v = got.get('d');
  if (v?.kind !== 'scalar-field') throw new Error('no field');
  return v.data;
}

describe('dem', () => {
  test('Terrarium: (R * 256 + G + B / 256) - 32768 metres', async () => {
    const f = await field('terrarium', [128, 100, 128]);
    for (const v of f) expect(v).toBeCloseTo(100.5, 4);
  });

  test('Terrain-RGB: -10000 + (R * 65536 + G * 256 + B) * 0.1 metres', async () => {
    const f = await field('mapbox', [1, 134, 160]);
    for (const v of f) expect(v).toBeCloseTo(-10000 + (65536 + 134 * 256 + 160) * 0.1, 3);
  });

  test('a dem node in a style with no dem source fails before rendering, naming the node', () => {
    const style = {
      output: 'out',
      nodes: {
        d: { op: 'dem' },
        out: rampOut('@d', [0, '#000000'], [1, '#ffffff']),
      },
    };
    expect(() => Renderer.create(style)).toThrow(/\/nodes\/d: .*no dem source/);
  });
});
