// raster: MapLibre's raster paint against closed forms of colour (a 120 degree hue rotation takes
// red to green, saturation -1 gives the channel mean, contrast and brightness as linear maps), and
// the raster source against libvips' decode of the same PMTiles tile (sharp). MapLibre's own
// raster render tests (tests/maplibre) check the whole layer against its renders.
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { Renderer } from '../../index.js';
import { NodeLoader } from '../../hosts/node/loader.js';
import type { Raster } from '../../types.js';
import { fixture, fixturesTest } from '../../../tests/helpers/fixtures.js';
import { contrastFactor, paintRaster, saturationFactor, type RasterPaint } from './plan.js';

const IDENTITY: RasterPaint = { opacity: 1, brightnessMin: 0, brightnessMax: 1, saturation: 0, contrast: 0, hueRotate: 0 };

function one(rgba: [number, number, number, number], p: Partial<RasterPaint>): number[] {
  const [r, g, b, a] = rgba;
  const ras: Raster = { kind: 'raster', width: 1, height: 1, data: Float32Array.of(r * a, g * a, b * a, a) };
  paintRaster(ras, { ...IDENTITY, ...p });
  const o = Array.from(ras.data);
  return o[3]! > 0 ? [o[0]! / o[3]!, o[1]! / o[3]!, o[2]! / o[3]!, o[3]!] : o;
}

const close = (a: number[], b: number[]) => a.forEach((v, i) => expect(v).toBeCloseTo(b[i]!, 5));

describe('raster paint (closed forms)', () => {
  test('hue rotation by 120 degrees takes red to green and green to blue; 360 is the identity', () => {
    close(one([1, 0, 0, 1], { hueRotate: 120 }), [0, 1, 0, 1]);
    close(one([0, 1, 0, 1], { hueRotate: 120 }), [0, 0, 1, 1]);
    close(one([0.2, 0.5, 0.7, 1], { hueRotate: 360 }), [0.2, 0.5, 0.7, 1]);
  });

  test('saturation -1 gives the mean of the channels', () => {
    const m = (0.2 + 0.5 + 0.8) / 3;
    close(one([0.2, 0.5, 0.8, 1], { saturation: -1 }), [m, m, m, 1]);
    expect(saturationFactor(-1)).toBe(1);
  });

  test('contrast is a slope around mid-grey: 1 / (1 - c) above 0, 1 + c below', () => {
    close(one([0.6, 0.5, 0.4, 1], { contrast: 0.5 }), [0.7, 0.5, 0.3, 1]);
    close(one([0.6, 0.5, 0.4, 1], { contrast: -0.5 }), [0.55, 0.5, 0.45, 1]);
    expect(contrastFactor(0.5)).toBe(2);
  });

  test('brightness maps [0, 1] onto [min, max]; opacity multiplies alpha; results clamp', () => {
    close(one([0, 0.5, 1, 1], { brightnessMin: 0.2, brightnessMax: 0.6 }), [0.2, 0.4, 0.6, 1]);
    close(one([0.3, 0.3, 0.3, 0.5], { opacity: 0.5 }), [0.3, 0.3, 0.3, 0.25]);
    close(one([0.9, 0.5, 0.1, 1], { contrast: 0.9 }), [1, 0.5, 0, 1]);
  });
});

describe('raster source', () => {
  const style = (resampling = 'linear') => ({
    output: 'r',
    sources: { toner: { type: 'raster', url: fixture('pmtiles', 'stamen_toner_raster_CC-BY_ODbL_z3.pmtiles'), tileSize: 256 } },
    nodes: { r: { op: 'raster', resampling } },
  });
  const loader = () => new NodeLoader({ baseDir: '.', allowOutside: true });

  fixturesTest('a tile at its own zoom and size is the archive tile as libvips decodes it (premultiplied)', async () => {
    const r = Renderer.create(style(), { loader: loader() });
    const out = await r.renderTile({ z: 3, x: 4, y: 2 }, undefined, { tileSize: 256 });
    const { PMTiles } = await import('pmtiles');
    const bytes = await readFile(fixture('pmtiles', 'stamen_toner_raster_CC-BY_ODbL_z3.pmtiles'));
    const archive = new PMTiles({
      getKey: () => 'k',
      getBytes: async (o: number, l: number) => ({ data: bytes.buffer.slice(bytes.byteOffset + o, bytes.byteOffset + o + l) }),
    });
    const tile = await archive.getZxy(3, 4, 2);
    const { data } = await sharp(Buffer.from(tile!.data)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    let worst = 0;
    for (let i = 0; i < data.length; i += 4) {
      const a = data[i + 3]! / 255;
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(out.data[i + c]! - (data[i + c]! / 255) * a));
      worst = Math.max(worst, Math.abs(out.data[i + 3]! - a));
    }
    expect(worst).toBeLessThan(1e-6);
  });

  fixturesTest('nearest resampling over-zoomed: each source pixel becomes a 2 x 2 block', async () => {
    const r = Renderer.create(style('nearest'), { loader: loader() });
    const out = await r.renderWindow({ z: 4, x0: 8 * 256, y0: 4 * 256, width: 64, height: 64, tileSize: 256 });
    const d = out.raster.data;
    for (let y = 0; y < 64; y += 2)
      for (let x = 0; x < 64; x += 2) {
        const p = (y * 64 + x) * 4;
        for (const q of [4, 64 * 4, 65 * 4]) for (let c = 0; c < 4; c++) expect(d[p + q + c]).toBe(d[p + c]);
      }
  });
});
