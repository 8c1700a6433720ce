// WebP tiles (issue 15 item 5): /tiles/{z}/{x}/{y}[@2x].webp, the same map as the PNG. WebP is
// lossy (quality 90, effort 2; docs/server.md), so its witness is libvips' own WebP encode of the
// same pixels (toRGBA8 of the raster): on every raster of the codec generator ours is no further
// from the pixels than libvips' encode is, pixel by pixel; both decoded by libvips.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { CpuBackend } from '../../src/index.js';
import { encodePngSync } from '../../src/hosts/node/png.js';
import { loadStyleFile } from '../../src/hosts/node/style-file.js';
import { pngToWebp } from '../../src/hosts/node/webp.js';
import { serve, type RunningServer } from '../../src/hosts/server/serve.js';
import type { Raster } from '../../src/types.js';
import { decodeWithSharp, lossyAgainstLibvips } from '../helpers/decode.js';
import { codecCase } from '../helpers/raster-arbitrary.js';
import { writeFixtures, type Fixture } from './fixtures.js';

let fx: Fixture;
let s: RunningServer;
beforeAll(async () => {
  fx = writeFixtures();
  s = await serve({ style: fx.shapes, port: 0, workers: 0, backend: 'cpu', log: () => undefined });
});
afterAll(async () => {
  await s?.close(0);
});

async function get(url: string) {
  const r = await fetch(url);
  return { status: r.status, headers: r.headers, bytes: Buffer.from(await r.arrayBuffer()) };
}

/**
 * Our WebP of `r` decodes (libvips) to its size, and no pixel is further from toRGBA8(r) than in
 * libvips' encode of the same pixels (premultiplied, 1/255 slack for a different but equal-quality
 * encode); the mean error no more than 5% above libvips'.
 */
async function expectAsGoodAsLibvips(r: Raster, webp: Uint8Array): Promise<{ max: number; mean: number }> {
  const c = await lossyAgainstLibvips(webp, r);
  expect({ worse: c.worse }).toEqual({ worse: 0 });
  expect(c.mean).toBeLessThanOrEqual(c.libvipsMean * 1.05 + 1e-9);
  return { max: c.max, mean: c.mean };
}

describe('WebP of our PNG against libvips’ own WebP of the same pixels (fast-check)', () => {
  test('every raster: decodes, and no pixel further from toRGBA8 than in libvips’ encode', async () => {
    await fc.assert(
      fc.asyncProperty(codecCase, async ({ raster: r }) => {
        await expectAsGoodAsLibvips(r, await pngToWebp(encodePngSync(r)));
      }),
      { numRuns: 60 },
    );
  });

  test('one-colour tiles, white above all (the PNG with an empty palette made its WebP throw): white, black and transparent exact, a colour within 2/255 (YUV)', async () => {
    for (const [c, bound] of [
      [[1, 1, 1, 1], 0],
      [[0, 0, 0, 1], 0],
      [[0, 0, 0, 0], 0],
      [[0.2, 0.4, 0.6, 1], 2],
    ] as const) {
      const data = new Float32Array(256 * 256 * 4);
      for (let i = 0; i < data.length; i += 4) data.set([c[0]! * c[3]!, c[1]! * c[3]!, c[2]! * c[3]!, c[3]!], i);
      const r: Raster = { kind: 'raster', width: 256, height: 256, data };
      expect((await expectAsGoodAsLibvips(r, await pngToWebp(encodePngSync(r)))).max).toBeLessThanOrEqual(bound);
    }
  });
});

test('a .webp tile is WebP of the raster’s pixels (lossy: as close as libvips’ own encode), cached under its own ETag', async () => {
  const png = await get(`${s.url}tiles/1/0/0.png?fill=%2300aa44`);
  const webp = await get(`${s.url}tiles/1/0/0.webp?fill=%2300aa44`);
  expect(webp.status).toBe(200);
  expect(webp.headers.get('content-type')).toBe('image/webp');
  expect(webp.bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
  expect(webp.bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
  expect(webp.headers.get('etag')).not.toBe(png.headers.get('etag'));
  const style = await loadStyleFile(fx.shapes);
  const raster = await style.renderer.renderTile({ z: 1, x: 0, y: 0 }, style.renderer.params({ fill: '#00aa44' }), { backend: new CpuBackend() });
  const err = await expectAsGoodAsLibvips(raster, webp.bytes);
  // Flat fills with anti-aliased edges: a few levels on average at quality 90.
  expect(err.mean).toBeLessThan(3);
  const again = await get(`${s.url}tiles/1/0/0.webp?fill=%2300aa44`);
  expect(again.headers.get('x-tilegraph-cache')).toBe('hit');
  expect(Buffer.compare(again.bytes, webp.bytes)).toBe(0);
  const etag = webp.headers.get('etag')!;
  expect((await fetch(`${s.url}tiles/1/0/0.webp?fill=%2300aa44`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
});

test('@2x.webp is 512 px; a bad extension names the accepted forms', async () => {
  const big = await get(`${s.url}tiles/2/1/1@2x.webp`);
  expect(big.status).toBe(200);
  expect((await decodeWithSharp(big.bytes)).width).toBe(512);
  const bad = await get(`${s.url}tiles/1/0/0.jpg`);
  expect(bad.status).toBe(400);
  expect(JSON.parse(bad.bytes.toString()).details[0]).toEqual({ field: 'format', message: "'0.jpg' is not {y}.png, {y}@2x.png, {y}.webp or {y}@2x.webp" });
});

test('an all-white style: its PNG and WebP tiles (and @2x) decode with libvips to white pixels only', async () => {
  const file = path.join(fx.dir, 'white.json');
  writeFileSync(file, JSON.stringify({ name: 'white', output: 'bg', nodes: { bg: { op: 'solid', color: '#ffffff' } } }));
  const w = await serve({ style: file, port: 0, workers: 0, backend: 'cpu', log: () => undefined });
  try {
    for (const [name, size] of [
      ['0/0/0.png', 256],
      ['0/0/0.webp', 256],
      ['3/2/5@2x.png', 512],
      ['3/2/5@2x.webp', 512],
    ] as const) {
      const r = await get(`${w.url}tiles/${name}`);
      expect({ name, status: r.status }).toEqual({ name, status: 200 });
      const img = await decodeWithSharp(r.bytes);
      expect([img.width, img.height]).toEqual([size, size]);
      expect({ name, white: img.data.every((v) => v === 255) }).toEqual({ name, white: true });
    }
  } finally {
    await w.close(0);
  }
});
