// WebP tiles (issue 15 item 5): /tiles/{z}/{x}/{y}[@2x].webp, the same map as the PNG.
import sharp from 'sharp';
import { serve, type RunningServer } from '../../src/hosts/server/serve.js';
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

async function rgba(bytes: Buffer) {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

test('a .webp tile is WebP with the PNG tile’s pixels (lossy, within a few levels), cached under its own ETag', async () => {
  const png = await get(`${s.url}tiles/1/0/0.png?fill=%2300aa44`);
  const webp = await get(`${s.url}tiles/1/0/0.webp?fill=%2300aa44`);
  expect(webp.status).toBe(200);
  expect(webp.headers.get('content-type')).toBe('image/webp');
  expect(webp.bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
  expect(webp.bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
  expect(webp.headers.get('etag')).not.toBe(png.headers.get('etag'));
  const a = await rgba(png.bytes);
  const b = await rgba(webp.bytes);
  expect([b.width, b.height]).toEqual([256, 256]);
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i]! - b.data[i]!);
  expect(sum / a.data.length).toBeLessThan(3);
  const again = await get(`${s.url}tiles/1/0/0.webp?fill=%2300aa44`);
  expect(again.headers.get('x-tilegraph-cache')).toBe('hit');
  expect(Buffer.compare(again.bytes, webp.bytes)).toBe(0);
  const etag = webp.headers.get('etag')!;
  expect((await fetch(`${s.url}tiles/1/0/0.webp?fill=%2300aa44`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
});

test('@2x.webp is 512 px; a bad extension names the accepted forms', async () => {
  const big = await get(`${s.url}tiles/2/1/1@2x.webp`);
  expect(big.status).toBe(200);
  expect((await rgba(big.bytes)).width).toBe(512);
  const bad = await get(`${s.url}tiles/1/0/0.jpg`);
  expect(bad.status).toBe(400);
  expect(JSON.parse(bad.bytes.toString()).details[0]).toEqual({ field: 'format', message: "'0.jpg' is not {y}.png, {y}@2x.png, {y}.webp or {y}@2x.webp" });
});
