// Issue 13, defects 2 and 3 and the PMTiles codecs of defect 9: decompression bombs, truncated and
// corrupt data, brotli and zstd archives. Every failure is a SourceError, fast and without the memory.
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { SourceError } from '../../src/index.js';
import { LIMITS } from '../../src/limits.js';
import { createDemSource } from '../../src/sources/dem.js';
import { gunzip, unzstd } from '../../src/sources/gzip.js';
import { imageSize } from '../../src/sources/image-size.js';
import { checkTileStructure } from '../../src/sources/mvt-decode.js';
import { createMvtSource } from '../../src/sources/mvt.js';
import { createPmtilesSource } from '../../src/sources/pmtiles.js';
import { decodeImage } from '../../src/hosts/node/image.js';
import { NodeLoader } from '../../src/hosts/node/loader.js';
import { tileWindow } from '../../src/types.js';
import { ctxOf, MemoryLoader, MVT_FIXTURES, readBytes, solidPng, zstdRaw } from './helpers.js';
import { writePmtiles } from './pmtiles-writer.js';

const T = tileWindow({ z: 13, x: 2101, y: 3044 }, 256);
const chicagoTile = () => readBytes(path.join(MVT_FIXTURES, 'chicago/13-2101-3044.mvt'));

const archive = () =>
  writePmtiles([{ z: 13, x: 2101, y: 3044, data: chicagoTile() }], { tileType: 1, metadata: { vector_layers: [{ id: 'road' }, { id: 'water' }] } });
const pm = (bytes: Uint8Array) => createPmtilesSource('arch', { type: 'pmtiles', url: 'a.pmtiles' }, ctxOf(new MemoryLoader({ 'a.pmtiles': bytes })));

async function sourceError(p: Promise<unknown>): Promise<SourceError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(SourceError);
  return e as SourceError;
}

/** A zstd bomb: RLE blocks of 128 KiB from one byte each. */
function zstdBomb(blocks: number): Uint8Array {
  const out: number[] = [0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58]; // window 8 MiB
  for (let i = 0; i < blocks; i++) {
    const h = (i === blocks - 1 ? 1 : 0) | (1 << 1) | ((128 * 1024) << 3); // RLE block
    out.push(h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff, 0);
  }
  return Uint8Array.from(out);
}

describe('decompression bombs (defect 2)', () => {
  test('a gzip MVT inflating past the limit fails fast with a SourceError', async () => {
    const bomb = new Uint8Array(gzipSync(Buffer.alloc(LIMITS.maxTileBytes + 1024 * 1024)));
    expect(bomb.length).toBeLessThan(100_000);
    const src = createMvtSource(
      'streets',
      { type: 'mvt', tiles: ['t/{z}/{x}/{y}.mvt'], minzoom: 13, maxzoom: 13 },
      ctxOf(new MemoryLoader({ 't/13/2101/3044.mvt': bomb })),
    );
    // "Fast" is judged by the CPU this process spent (all its threads), not wall time: on a
    // loaded machine the wall clock read 6-7 s while the inflate itself stops at 33 MiB.
    const cpu0 = process.cpuUsage();
    const e = await sourceError(src.features('road', T));
    expect(e.message).toMatch(/tile 13\/2101\/3044: .*inflates to more than 32 MiB \(the limit\)/);
    const cpu = process.cpuUsage(cpu0);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(5000);
  });

  test('gzip, zstd and brotli stop at the cap; data within it round-trips', async () => {
    const data = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7) & 0xff);
    const same = (a: Uint8Array) => expect(Buffer.compare(Buffer.from(a), Buffer.from(data))).toBe(0);
    same(await gunzip(new Uint8Array(gzipSync(data)), 1e6));
    await expect(gunzip(new Uint8Array(gzipSync(data)), 1000)).rejects.toThrow(/more than 1000 bytes/);
    same(unzstd(zstdRaw(data), 1e6));
    expect(() => unzstd(zstdBomb(300), LIMITS.maxPmtilesBlockBytes)).toThrow(/zstd data inflates to more than 32 MiB/);
    expect(() => unzstd(zstdRaw(data).subarray(0, 5000), 1e6)).toThrow();
    const l = new NodeLoader({ baseDir: '.' });
    same(await l.decompress(new Uint8Array(brotliCompressSync(data)), 'br', 1e6));
    await expect(l.decompress(new Uint8Array(brotliCompressSync(data)), 'br', 1000)).rejects.toThrow(/more than 1000 bytes/);
  });

  test('a huge DEM image is refused from its header, before decoding', async () => {
    const png = (await solidPng(256, [1, 134, 160, 255])).slice();
    const dv = new DataView(png.buffer);
    dv.setUint32(16, 16000);
    dv.setUint32(20, 16000);
    expect(imageSize(png)).toEqual({ width: 16000, height: 16000 });
    const src = createDemSource(
      'relief',
      { type: 'dem', tiles: ['d/{z}/{x}/{y}.png'], maxzoom: 3, tileSize: 256 },
      ctxOf(new MemoryLoader({ 'd/3/2/2.png': png })),
    );
    const e = await sourceError(src.field(tileWindow({ z: 3, x: 2, y: 2 }, 256)));
    expect(e.message).toMatch(/16000x16000 px, above the limit of 16,777,216 pixels/);
    // The host decoder has its own bound (sharp's limitInputPixels), for formats the sniffer does not read.
    await expect(decodeImage(png)).rejects.toThrow();
  });

  test('image sizes from PNG and WebP headers', async () => {
    const sharp = (await import('sharp')).default;
    const raw = { raw: { width: 300, height: 200, channels: 4 as const } };
    const px = Buffer.alloc(300 * 200 * 4, 128);
    expect(imageSize(new Uint8Array(await sharp(px, raw).png().toBuffer()))).toEqual({ width: 300, height: 200 });
    expect(imageSize(new Uint8Array(await sharp(px, raw).webp({ lossless: true }).toBuffer()))).toEqual({ width: 300, height: 200 });
    expect(imageSize(new Uint8Array(await sharp(px, raw).webp({ quality: 50 }).toBuffer()))).toEqual({ width: 300, height: 200 });
    expect(imageSize(new Uint8Array([1, 2, 3]))).toBeUndefined();
  });
});

describe('truncated and corrupt data (defect 3)', () => {
  test('a truncated MVT is a SourceError, never a tile with fewer layers', async () => {
    const full = chicagoTile();
    checkTileStructure(full);
    for (const cut of [0.2, 0.5, 0.9, 0.999]) {
      const part = full.subarray(0, Math.floor(full.length * cut));
      expect(() => checkTileStructure(part)).toThrow(/truncated/);
      const src = createMvtSource(
        'streets',
        { type: 'mvt', tiles: ['t/{z}/{x}/{y}.mvt'], minzoom: 13, maxzoom: 13 },
        ctxOf(new MemoryLoader({ 't/13/2101/3044.mvt': part })),
      );
      // 'water' is an early layer: it decoded from a cut tile before.
      const e = await sourceError(src.features('water', T));
      expect(e.message).toMatch(/not a valid vector tile.*truncated/);
    }
  });

  test('every real MVT fixture passes the structure check', () => {
    for (const f of ['13-2101-3044', '13-2101-3045', '13-2102-3044', '13-2102-3045'])
      checkTileStructure(readBytes(path.join(MVT_FIXTURES, `chicago/${f}.mvt`)));
  });

  test('a truncated PMTiles archive fails: cut in the tile data, cut in the root directory', async () => {
    expect((await pm(archive()).features('road', T)).length).toBeGreaterThan(100);
    const a = archive();
    expect((await sourceError(pm(a.subarray(0, a.length - 100)).features('road', T))).message).toMatch(/archive is truncated/);
    expect((await sourceError(pm(a.subarray(0, 130)).features('road', T))).message).toMatch(/root directory .* ends past/);
  });

  test('a metadata length of 2 GB and a maxzoom of 255 are corrupt headers', async () => {
    const big = archive();
    new DataView(big.buffer).setUint32(32, 2 ** 31, true);
    expect((await sourceError(pm(big).features('road', T))).message).toMatch(/metadata is 2.0 GiB, above the limit/);
    const z = archive();
    z[101] = 255;
    expect((await sourceError(pm(z).features('road', T))).message).toMatch(/zoom range 13\.\.255 is not within 0\.\.26/);
    const lying = archive();
    new DataView(lying.buffer).setUint32(64, 1e9, true); // tile data length: no read is sized by it
    expect((await pm(lying).features('road', T)).length).toBeGreaterThan(100);
  });
});

describe('PMTiles compression (defect 9)', () => {
  test('gzip, brotli and zstd archives (directories, metadata and tiles) read the same features', async () => {
    const tile = chicagoTile();
    const codecs = [
      { code: 2, compress: (b: Uint8Array) => new Uint8Array(gzipSync(b)) },
      { code: 3, compress: (b: Uint8Array) => new Uint8Array(brotliCompressSync(b)) },
      { code: 4, compress: zstdRaw },
    ];
    const plain = await createPmtilesSource(
      'a',
      { type: 'pmtiles', url: 'a.pmtiles' },
      ctxOf(new MemoryLoader({ 'a.pmtiles': writePmtiles([{ z: 13, x: 2101, y: 3044, data: tile }], { tileType: 1 }) })),
    ).features('road', T);
    for (const c of codecs) {
      const bytes = writePmtiles([{ z: 13, x: 2101, y: 3044, data: tile }], { tileType: 1, compression: c, metadata: { vector_layers: [{ id: 'road' }] } });
      const loader = new NodeLoader({ baseDir: '.' });
      const mem = new MemoryLoader({ 'a.pmtiles': bytes });
      const withBrotli = Object.assign(mem, { decompress: loader.decompress.bind(loader) });
      const got = await createPmtilesSource('a', { type: 'pmtiles', url: 'a.pmtiles' }, ctxOf(withBrotli)).features('road', T);
      expect(got.length).toBe(plain.length);
    }
  });

  test('brotli without a host decompressor names what is missing', async () => {
    const bytes = writePmtiles([{ z: 13, x: 2101, y: 3044, data: chicagoTile() }], {
      tileType: 1,
      compression: { code: 3, compress: (b) => new Uint8Array(brotliCompressSync(b)) },
    });
    const e = await sourceError(pm(bytes).features('road', T));
    expect(e.message).toMatch(/brotli-compressed data needs a host decompressor/);
  });
});
