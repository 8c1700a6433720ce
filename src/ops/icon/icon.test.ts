// icon: an icon cut from a MapLibre sprite sheet equals the same rectangle of the sheet as libvips
// (sharp) extracts and decodes it; the @2x sheet at pixel ratio 2 gives icons of pixelRatio 2,
// which fill-pattern draws at the same size in pixels as the 1x icon at ratio 1.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { Renderer } from '../../index.js';
import { NodeLoader } from '../../hosts/node/loader.js';

const L = 85.0511287798066;
const SHEETS = path.resolve('tests/maplibre/assets/sprites');
const loader = () => new NodeLoader({ baseDir: SHEETS });
const style = (name: string, extra: Record<string, unknown> = {}) => ({
  output: 'out',
  sources: {
    s: {
      type: 'geojson',
      data: {
        type: 'Polygon',
        coordinates: [
          [
            [-179.99999, -L],
            [0, -L],
            [179.99999, -L],
            [179.99999, L],
            [0, L],
            [-179.99999, L],
            [-179.99999, -L],
          ],
        ],
      },
    },
  },
  nodes: {
    i: { op: 'icon', sprite: 'emerald', name, ...extra },
    f: { op: 'features' },
    out: { op: 'fill-pattern', features: '@f', pattern: '@i', antialias: false },
  },
});

describe('icon', () => {
  test('an icon is its rectangle of the sheet as libvips decodes it (premultiplied)', async () => {
    const index = JSON.parse(readFileSync(path.join(SHEETS, 'emerald.json'), 'utf8')) as Record<
      string,
      { x: number; y: number; width: number; height: number }
    >;
    const e = index.sand_noise!;
    // A pattern whose world origin is the window's, in a world 8 icons wide (fill-pattern fits a
    // whole number of periods in the world): window pixel (x, y) shows icon texel (x, y).
    const r = Renderer.create(style('sand_noise'), { loader: loader() });
    const out = await r.renderWindow({ z: 0, x0: 0, y0: 0, width: e.width, height: e.height, tileSize: 8 * e.width });
    const ref = await sharp(readFileSync(path.join(SHEETS, 'emerald.png')))
      .extract({ left: e.x, top: e.y, width: e.width, height: e.height })
      .ensureAlpha()
      .raw()
      .toBuffer();
    let worst = 0;
    for (let i = 0; i < ref.length; i += 4) {
      const a = ref[i + 3]! / 255;
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(out.raster.data[i + c]! - (ref[i + c]! / 255) * a));
    }
    expect(worst).toBeLessThan(1e-5);
  });

  test('at pixel ratio 2 the @2x sheet is read and drawn at the 1x size in pixels (twice the texels)', async () => {
    const r = Renderer.create(style('sand_noise'), { loader: loader() });
    const one = await r.renderWindow({ z: 2, x0: 0, y0: 0, width: 100, height: 100, tileSize: 256 });
    const two = await r.renderWindow({ z: 2, x0: 0, y0: 0, width: 200, height: 200, tileSize: 512, pixelRatio: 2 });
    // The pattern repeats every 50 px at ratio 1 and every 100 px at ratio 2 (the @2x icon is 100 texels wide).
    const at = (ras: typeof one.raster, x: number, y: number) => Array.from(ras.data.subarray((y * ras.width + x) * 4, (y * ras.width + x) * 4 + 4));
    expect(at(one.raster, 3, 7)).toEqual(at(one.raster, 53, 57));
    expect(at(two.raster, 3, 7)).toEqual(at(two.raster, 103, 107));
    // And it is the @2x sheet's icon, texel for texel (libvips' decode).
    const ref = await sharp(readFileSync(path.join(SHEETS, 'emerald@2x.png')))
      .extract({ left: 0, top: 0, width: 100, height: 100 })
      .ensureAlpha()
      .raw()
      .toBuffer();
    const p = (57 * 100 + 31) * 4;
    expect(at(two.raster, 31, 57).map((v) => Math.round(v * 255))).toEqual(Array.from(ref.subarray(p, p + 4)));
  });

  test('a name the sheet lacks: an error naming it, or nothing with missing: transparent', async () => {
    const bad = Renderer.create(style('no-such-icon'), { loader: loader() });
    await expect(bad.renderWindow({ z: 0, x0: 0, y0: 0, width: 4, height: 4, tileSize: 256 })).rejects.toThrow(/has no icon 'no-such-icon'/);
    const quiet = Renderer.create(style('no-such-icon', { missing: 'transparent' }), { loader: loader() });
    const out = await quiet.renderWindow({ z: 0, x0: 0, y0: 0, width: 4, height: 4, tileSize: 256 });
    expect(Math.max(...out.raster.data)).toBe(0);
  });
});
