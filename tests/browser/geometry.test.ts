// The geometry ops in chromium: examples/stipple (buffer and feature-boolean through Clipper2's
// WebAssembly build, dot-density, boundary and dash) rendered by the browser binding equals the
// server's PNG of the same tile.
import path from 'node:path';
import { compareRGBA } from '../helpers/compare.js';
import { decodePng, encodePng, httpGet, openSession, ROOT, saveArtifact, type Session } from './harness.js';

let s: Session;

beforeAll(async () => {
  s = await openSession(path.join(ROOT, 'examples/stipple/style.json'));
  s.page.on('response', (r) => {
    if (r.status() >= 400) missing.push(`${r.status()} ${r.url()}`);
  });
  await s.page.goto(s.base + 'health');
}, 120_000);

const missing: string[] = [];

afterAll(async () => {
  await s?.close();
});

test('examples/stipple: a tile rendered in a browser worker matches the server', async () => {
  const tile = { z: 3, x: 2, y: 2 };
  const b = await s.page.evaluate(async (tile) => {
    const bundle = '/preview/tilegraph.js';
    const { Renderer } = await import(bundle);
    const r = await Renderer.create({ style: '/style', dataUrl: '/data/', backend: 'cpu' });
    try {
      const img: ImageData = await r.renderTile(tile, {});
      const u8 = new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength);
      let bin = '';
      for (let i = 0; i < u8.length; i += 0x8000) bin += String.fromCharCode(...u8.subarray(i, i + 0x8000));
      return { width: img.width, height: img.height, b64: btoa(bin) };
    } finally {
      r.destroy();
    }
  }, tile);
  const res = await httpGet(`${s.base}tiles/${tile.z}/${tile.x}/${tile.y}.png`);
  expect(res.status).toBe(200);
  const server = decodePng(res.body);
  const pixels = new Uint8Array(Buffer.from(b.b64, 'base64'));
  saveArtifact('stipple-browser.png', encodePng(b.width, b.height, pixels));
  const cmp = compareRGBA(pixels, server.data, 256, 256);
  expect({ ok: cmp.ok, maxDiff: cmp.maxDiff }).toEqual(expect.objectContaining({ ok: true }));
  // Not a blank tile: the stipple dots (ink) are there.
  let ink = 0;
  for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! < 120 && pixels[i + 1]! < 120 && pixels[i + 2]! < 120) ink++;
  expect(ink).toBeGreaterThan(200);
  // Clipper2's WebAssembly sits beside the bundle (the page's own 404 is chromium's favicon probe).
  expect((await httpGet(`${s.base}preview/clipper2z.wasm`)).status).toBe(200);
  expect(missing).toEqual([]);
}, 120_000);
