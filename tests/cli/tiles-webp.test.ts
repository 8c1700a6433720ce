// `tiles --format webp` (issue 15 item 5): WebP tiles into a directory or a PMTiles archive, and
// shards of one WebP export merged. Each tile is decoded by libvips and judged against libvips'
// own WebP of the same tile's pixels (rendered in this process): WebP is lossy.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PMTiles, TileType } from 'pmtiles';
import { NodeFileSource } from '../../src/hosts/node/pmtiles/index.js';
import { requireBuild, writeFixtures, type Fixture } from '../server/fixtures.js';
import { lossyAgainstLibvips } from '../helpers/decode.js';
import { cli, renderTileHere } from './helpers.js';

let fx: Fixture;
let tmp: string;
beforeAll(() => {
  requireBuild();
  fx = writeFixtures();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-webp-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const isWebp = (b: Uint8Array) => Buffer.from(b.subarray(0, 4)).toString('latin1') === 'RIFF' && Buffer.from(b.subarray(8, 12)).toString('latin1') === 'WEBP';

test('into a directory: z/x/y.webp files', async () => {
  const out = path.join(tmp, 'dir');
  const r = await cli(['tiles', '--style', fx.shapes, '--max-zoom', '1', '--format', 'webp', '--out', out, '--progress', 'none']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(existsSync(path.join(out, '1/1/1.png'))).toBe(false);
  for (const t of [
    [0, 0, 0],
    [1, 0, 0],
    [1, 1, 1],
  ]) {
    const bytes = readFileSync(path.join(out, `${t.join('/')}.webp`));
    expect(isWebp(bytes)).toBe(true);
    await expectNearRender(bytes, t);
  }
});

/** A WebP tile no further from the pixels than libvips' own WebP of them (per pixel, 1/255 slack). */
async function expectNearRender(bytes: Uint8Array, tile: readonly number[]): Promise<void> {
  const c = await lossyAgainstLibvips(bytes, await renderTileHere(fx.shapes, tile));
  expect({ tile: tile.join('/'), worse: c.worse }).toEqual({ tile: tile.join('/'), worse: 0 });
  // Flat fills with anti-aliased edges: a few levels on average at quality 90.
  expect(c.mean).toBeLessThan(3);
}

test('into PMTiles: tile type WebP, metadata format webp; two shards merge into one WebP archive', async () => {
  const parts = [0, 1].map((i) => path.join(tmp, `part-${i}.pmtiles`));
  for (const i of [0, 1]) {
    const r = await cli([
      'tiles',
      '--style',
      fx.shapes,
      '--max-zoom',
      '2',
      '--format',
      'webp',
      '--shard',
      `${i}/2`,
      '--out',
      path.join(tmp, 'part-{shard}.pmtiles'),
      '--progress',
      'none',
    ]);
    expect(r.code).toBe(0);
  }
  const merged = path.join(tmp, 'all.pmtiles');
  const m = await cli(['merge', '--out', merged, ...parts]);
  expect(m.code).toBe(0);
  const src = new NodeFileSource(merged);
  try {
    const p = new PMTiles(src);
    const h = await p.getHeader();
    expect(h.tileType).toBe(TileType.Webp);
    expect(h.numAddressedTiles).toBe(1 + 4 + 16);
    expect(((await p.getMetadata()) as { format: string }).format).toBe('webp');
    for (const tile of [
      [0, 0, 0],
      [1, 1, 0],
      [2, 1, 1],
      [2, 3, 2],
    ]) {
      const t = await p.getZxy(tile[0]!, tile[1]!, tile[2]!);
      expect(isWebp(new Uint8Array(t!.data))).toBe(true);
      await expectNearRender(new Uint8Array(t!.data), tile);
    }
  } finally {
    await (src as { close?: () => Promise<void> }).close?.();
  }
  // A PNG archive and a WebP archive are not one export.
  const png = path.join(tmp, 'png.pmtiles');
  expect((await cli(['tiles', '--style', fx.shapes, '--max-zoom', '0', '--out', png, '--progress', 'none'])).code).toBe(0);
  const mixed = await cli(['merge', '--out', path.join(tmp, 'mixed.pmtiles'), parts[0]!, png]);
  expect(mixed.code).toBe(5);
});
