// Every tile the server hands out for the bundled examples decodes with libvips (issue 19): the
// z0 tile and two tiles at the centre TileJSON gives, as PNG (exactly the
// pixels of the same tile rendered in this process), @2x PNG (likewise, at pixel ratio 2) and
// WebP (no pixel further from them than libvips' own WebP of the same pixels). The toner example
// served all-white tiles that libvips could not read (the encoder's old run sentinel).
import { get } from 'node:http';
import path from 'node:path';
import { CpuBackend, tileWindow } from '../../src/index.js';
import { loadStyleFile } from '../../src/hosts/node/style-file.js';
import { serve } from '../../src/hosts/server/serve.js';
import { differenceFromRaster, lossyAgainstLibvips } from '../helpers/decode.js';
import { ROOT } from './fixtures.js';

// terrain reads Terrarium tiles from the network, which tests do not reach (its golden case,
// terrain-example, renders the same nodes from ../shared/fixtures).
const EXAMPLES = ['handdrawn', 'heatmap', 'stipple', 'toner', 'watercolor', 'world'];

/**
 * GET on a fresh connection: the server renders in this process, so a busy event loop can miss a
 * keep-alive socket's close and a pooled fetch() would then fail.
 */
function fetchBytes(url: string): Promise<{ status: number; bytes: Uint8Array }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: new Uint8Array(Buffer.concat(parts)) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** The tile at a TileJSON centre [lon, lat, zoom]. */
function centreTile([lon, lat, zoom]: number[]): [number, number, number] {
  const z = Math.round(zoom!);
  const n = 2 ** z;
  const x = Math.min(n - 1, Math.floor(((lon! + 180) / 360) * n));
  const s = Math.sin((lat! * Math.PI) / 180);
  const y = Math.min(n - 1, Math.max(0, Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n)));
  return [z, x, y];
}

describe.each(EXAMPLES)('examples/%s served', (name) => {
  test('PNG, @2x PNG and WebP tiles decode (libvips) to the pixels an in-process render gives', async () => {
    const file = path.join(ROOT, 'examples', name, 'style.json');
    const style = await loadStyleFile(file);
    const backend = new CpuBackend();
    const s = await serve({ style: file, port: 0, workers: 0, backend: 'cpu', log: () => undefined });
    try {
      const tj = JSON.parse(Buffer.from((await fetchBytes(`${s.url}tilejson.json`)).bytes).toString()) as { center: number[] };
      const [cz, cx, cy] = centreTile(tj.center);
      const tiles: [number, number, number][] = [
        [0, 0, 0],
        [cz, cx, cy],
        [cz, (cx + 1) % 2 ** cz, cy],
      ];
      const params = style.renderer.params({});
      for (const [z, x, y] of tiles) {
        const tile = `${z}/${x}/${y}`;
        const raster = (await style.renderer.renderWindow(tileWindow({ z, x, y }, 256), params, { backend })).raster;
        const png = await fetchBytes(`${s.url}tiles/${tile}.png`);
        expect({ tile, status: png.status }).toEqual({ tile, status: 200 });
        expect({ tile, png: await differenceFromRaster(png.bytes, raster) }).toEqual({ tile, png: undefined });
        const webp = await fetchBytes(`${s.url}tiles/${tile}.webp`);
        expect({ tile, status: webp.status }).toEqual({ tile, status: 200 });
        expect({ tile, worse: (await lossyAgainstLibvips(webp.bytes, raster)).worse }).toEqual({ tile, worse: 0 });
      }
      // @2x: the centre tile.
      const [z, x, y] = tiles[1]!;
      const tile = `${z}/${x}/${y}@2x`;
      const raster = (await style.renderer.renderWindow({ ...tileWindow({ z, x, y }, 512), pixelRatio: 2 }, params, { backend })).raster;
      const png = await fetchBytes(`${s.url}tiles/${tile}.png`);
      expect({ tile, status: png.status }).toEqual({ tile, status: 200 });
      expect({ tile, png: await differenceFromRaster(png.bytes, raster) }).toEqual({ tile, png: undefined });
      const webp = await fetchBytes(`${s.url}tiles/${tile}.webp`);
      expect({ tile, worse: (await lossyAgainstLibvips(webp.bytes, raster)).worse }).toEqual({ tile, worse: 0 });
    } finally {
      await s.close(0);
    }
  }, 180_000);
});
