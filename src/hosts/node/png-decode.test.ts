// The direct PNG decoder against sharp's decode (libvips / libpng, an independent reference): the
// DEM fixtures, and PNGs written here with every row filter and every supported colour type.
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { decodePngElevation, decodePngFast } from './png-decode.js';
import { demKernels, paethKernels } from './png-paeth.js';
import { decodeElevation, type DemEncoding } from '../../sources/dem.js';
import { decodeImage, decodeImageSharp } from './image.js';
import { fixture, fixturesTest } from '../../../tests/helpers/fixtures.js';

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (const v of b) c = CRC_TABLE[(c ^ v) & 255]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

interface PngSpec {
  width: number;
  height: number;
  type: 0 | 2 | 3 | 4 | 6;
  /** Samples, channels of `type` a pixel (palette indices for type 3). */
  samples: Uint8Array;
  /** Filter of each row (cycled). */
  filters: number[];
  palette?: Uint8Array;
  trns?: Uint8Array;
  depth?: number;
  interlace?: number;
  /** Width written in the header when not `width` (the rows are laid out for `width`). */
  headerWidth?: number;
  /** Split the compressed data over this many IDAT chunks. */
  idats?: number;
}

const CH = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 } as const;

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a),
    pb = Math.abs(p - b),
    pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** A PNG file written with the given row filters (the filter equations of the PNG spec). */
function writePng(s: PngSpec): Uint8Array {
  const bpp = CH[s.type];
  const stride = s.width * bpp;
  const raw = new Uint8Array(s.height * (stride + 1));
  for (let y = 0; y < s.height; y++) {
    const f = s.filters[y % s.filters.length]!;
    raw[y * (stride + 1)] = f;
    for (let i = 0; i < stride; i++) {
      const x = s.samples[y * stride + i]!;
      const a = i >= bpp ? s.samples[y * stride + i - bpp]! : 0;
      const b = y > 0 ? s.samples[(y - 1) * stride + i]! : 0;
      const c = y > 0 && i >= bpp ? s.samples[(y - 1) * stride + i - bpp]! : 0;
      const pred = [0, a, b, (a + b) >> 1, paeth(a, b, c)][f]!;
      raw[y * (stride + 1) + 1 + i] = (x - pred) & 255;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(s.headerWidth ?? s.width, 0);
  ihdr.writeUInt32BE(s.height, 4);
  ihdr[8] = s.depth ?? 8;
  ihdr[9] = s.type;
  ihdr[12] = s.interlace ?? 0;
  const z = deflateSync(raw);
  const n = s.idats ?? 1;
  const parts: Buffer[] = [];
  for (let k = 0; k < n; k++) parts.push(chunk('IDAT', z.subarray(Math.floor((k * z.length) / n), Math.floor(((k + 1) * z.length) / n))));
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
      chunk('IHDR', ihdr),
      ...(s.palette ? [chunk('PLTE', s.palette)] : []),
      ...(s.trns ? [chunk('tRNS', s.trns)] : []),
      ...parts,
      chunk('IEND', new Uint8Array(0)),
    ]),
  );
}

function noise(n: number, seed: number, smooth: boolean): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (s * 1664525 + 1013904223) >>> 0;
    out[i] = smooth ? (128 + 100 * Math.sin(i / 37) + (s >>> 29)) & 255 : s >>> 24;
  }
  return out;
}

async function expectSameAsSharp(png: Uint8Array): Promise<void> {
  const ref = await decodeImageSharp(png);
  // With RGB Paeth rows in WebAssembly (png-paeth.ts) and in TypeScript.
  for (const wasm of [true, false]) {
    const fast = decodePngFast(png, { wasm });
    expect(fast).toBeDefined();
    expect([fast!.width, fast!.height]).toEqual([ref.width, ref.height]);
    expect(Buffer.compare(Buffer.from(fast!.data), Buffer.from(ref.data))).toBe(0);
  }
}

describe('direct PNG decoder', () => {
  const W = 37,
    H = 29;
  for (const type of [0, 2, 3, 4, 6] as const)
    for (const filters of [[0], [1], [2], [3], [4], [0, 1, 2, 3, 4, 4, 3, 1]])
      test(`colour type ${type}, row filters ${filters.join(',')}: the same RGBA as sharp`, async () => {
        for (const smooth of [false, true]) {
          const samples = noise(W * H * CH[type], type * 31 + filters.length, smooth);
          const palette = type === 3 ? noise(256 * 3, 5, false) : undefined;
          await expectSameAsSharp(writePng({ width: W, height: H, type, samples, filters, palette, idats: 3 }));
        }
      });

  test('a palette with alpha (tRNS shorter than the palette): the same RGBA as sharp', async () => {
    const samples = noise(W * H, 9, false);
    const png = writePng({ width: W, height: H, type: 3, samples, filters: [4, 1], palette: noise(256 * 3, 2, false), trns: noise(100, 3, false) });
    await expectSameAsSharp(png);
  });

  test('a 1 px wide and a 1 px high image', async () => {
    await expectSameAsSharp(writePng({ width: 1, height: 9, type: 2, samples: noise(27, 1, false), filters: [0, 1, 2, 3, 4] }));
    await expectSameAsSharp(writePng({ width: 9, height: 1, type: 6, samples: noise(36, 1, false), filters: [4] }));
  });

  test('16-bit, interlaced and colour-keyed RGB PNGs are left to sharp (and decodeImage still reads them)', async () => {
    const rgb = noise(8 * 8 * 3, 4, false);
    const keyed = writePng({ width: 8, height: 8, type: 2, samples: rgb, filters: [0], trns: Uint8Array.of(0, 1, 0, 2, 0, 3) });
    expect(decodePngFast(keyed)).toBeUndefined();
    const deep = writePng({ width: 8, headerWidth: 4, height: 8, type: 2, samples: rgb, filters: [0], depth: 16 });
    expect(decodePngFast(deep)).toBeUndefined();
    const laced = writePng({ width: 8, height: 8, type: 2, samples: rgb, filters: [0], interlace: 1 });
    expect(decodePngFast(laced)).toBeUndefined();
    expect((await decodeImage(deep)).width).toBe(4);
    expect(decodePngFast(new Uint8Array([1, 2, 3]))).toBeUndefined(); // not a PNG (a WebP, say)
  });

  test('the WebAssembly Paeth kernel is available here', () => {
    expect(paethKernels()).not.toBeNull();
  });

  test('a decompression bomb is refused by its header, before anything is inflated', () => {
    const png = writePng({ width: 4, height: 4, type: 2, samples: new Uint8Array(48), filters: [0] });
    const bomb = Buffer.from(png);
    bomb.writeUInt32BE(100_000, 16); // width
    bomb.writeUInt32BE(100_000, 20); // height
    expect(() => decodePngFast(bomb)).toThrow(/100000x100000 px, above the limit of/);
  });

  test('more image data than the header announces is not inflated past the image size (left to sharp)', () => {
    const big = writePng({ width: 64, height: 64, type: 2, samples: new Uint8Array(64 * 64 * 3), filters: [0] });
    const small = Buffer.from(big);
    small.writeUInt32BE(8, 16);
    small.writeUInt32BE(8, 20);
    expect(decodePngFast(small)).toBeUndefined();
  });

  test('corrupt files: a clear error', () => {
    const png = writePng({ width: 16, height: 16, type: 6, samples: noise(16 * 16 * 4, 1, false), filters: [1] });
    expect(() => decodePngFast(png.subarray(0, png.length - 30))).toThrow(/truncated/);
    const bad = Buffer.from(png);
    bad[bad.indexOf('IDAT', 0, 'latin1') + 8] ^= 0xff; // break the zlib header
    expect(() => decodePngFast(bad)).toThrow(/corrupt/);
    const short = writePng({ width: 16, height: 16, type: 6, samples: new Uint8Array(16 * 8 * 4), filters: [0] });
    const tall = Buffer.from(short);
    tall.writeUInt32BE(16, 16);
    tall.writeUInt32BE(32, 20);
    expect(() => decodePngFast(tall)).toThrow(/fewer rows/);
    const filt = writePng({ width: 4, height: 4, type: 0, samples: new Uint8Array(16), filters: [7 as number] });
    expect(() => decodePngFast(filt)).toThrow(/unknown row filter 7/);
  });

  fixturesTest('every DEM fixture (Terrain-RGB and Terrarium, RGB and RGBA): the same RGBA as sharp', async () => {
    const dirs = ['dem/terrain-rgb', 'dem/terrarium'];
    let n = 0;
    for (const d of dirs)
      for (const sub of readdirSync(fixture(d)))
        for (const f of readdirSync(fixture(d, sub)).filter((f) => f.endsWith('.png'))) {
          await expectSameAsSharp(new Uint8Array(await readFile(path.join(fixture(d, sub), f))));
          n++;
        }
    expect(n).toBeGreaterThanOrEqual(20);
  });
});

/** Metres of the RGB PNG's rows (WebAssembly) bit for bit those of sharp's RGBA through the dem source's loop. */
async function expectSameMetres(png: Uint8Array): Promise<void> {
  const ref = await decodeImageSharp(png);
  for (const encoding of ['mapbox', 'terrarium'] as DemEncoding[]) {
    const want = decodeElevation(ref, encoding);
    const got = decodePngElevation(png, encoding);
    expect(got).toBeDefined();
    expect([got!.width, got!.height]).toEqual([ref.width, ref.height]);
    expect(got!.data.length).toBe(want.length);
    let diff = 0;
    for (let i = 0; i < want.length; i++) if (!Object.is(got!.data[i], want[i])) diff++;
    expect(diff).toBe(0);
  }
}

describe('direct PNG to metres (RGB rows unfiltered and converted in WebAssembly)', () => {
  test('the kernel is available here', () => {
    expect(demKernels()).not.toBeNull();
  });

  for (const filters of [[0], [1], [2], [3], [4], [0, 1, 2, 3, 4, 4, 3, 1]])
    test(`row filters ${filters.join(',')}: the metres of sharp's RGBA, both encodings`, async () => {
      for (const smooth of [false, true]) {
        const samples = noise(37 * 29 * 3, 7 + filters.length, smooth);
        await expectSameMetres(writePng({ width: 37, height: 29, type: 2, samples, filters, idats: 3 }));
      }
    });

  test('extreme samples (0 and 255 everywhere, alternating), 1 px wide and 1 px high images', async () => {
    const extremes = Uint8Array.from({ length: 16 * 16 * 3 }, (_, i) => (((i * 7) >> 2) & 1 ? 255 : 0));
    await expectSameMetres(writePng({ width: 16, height: 16, type: 2, samples: extremes, filters: [4, 3, 2, 1, 0] }));
    await expectSameMetres(writePng({ width: 16, height: 16, type: 2, samples: new Uint8Array(768).fill(255), filters: [4, 3] }));
    await expectSameMetres(writePng({ width: 1, height: 9, type: 2, samples: noise(27, 1, false), filters: [0, 1, 2, 3, 4] }));
    await expectSameMetres(writePng({ width: 9, height: 1, type: 2, samples: noise(27, 2, false), filters: [4] }));
    // Widths 2, 3, 6 and 7: the 4-pixel steps of the conversion run past the row end by 2, 1, 2 and 1.
    for (const width of [2, 3, 6, 7])
      await expectSameMetres(writePng({ width, height: 5, type: 2, samples: noise(width * 15, width, false), filters: [4, 3, 2, 1, 0] }));
  });

  test('anything but a plain 8-bit RGB PNG is left to decodeImage (undefined)', () => {
    for (const type of [0, 3, 4, 6] as const) {
      const samples = noise(8 * 8 * CH[type], 3, false);
      const png = writePng({ width: 8, height: 8, type, samples, filters: [0], palette: type === 3 ? noise(768, 5, false) : undefined });
      expect(decodePngElevation(png, 'mapbox')).toBeUndefined();
    }
    const rgb = noise(8 * 8 * 3, 4, false);
    expect(
      decodePngElevation(writePng({ width: 8, height: 8, type: 2, samples: rgb, filters: [0], trns: Uint8Array.of(0, 1, 0, 2, 0, 3) }), 'mapbox'),
    ).toBeUndefined();
    expect(decodePngElevation(writePng({ width: 8, headerWidth: 4, height: 8, type: 2, samples: rgb, filters: [0], depth: 16 }), 'mapbox')).toBeUndefined();
    expect(decodePngElevation(writePng({ width: 8, height: 8, type: 2, samples: rgb, filters: [0], interlace: 1 }), 'mapbox')).toBeUndefined();
    expect(decodePngElevation(new Uint8Array([1, 2, 3]), 'mapbox')).toBeUndefined();
  });

  test('the size bound before inflating, and corrupt files: the errors of decodePngFast', () => {
    const png = writePng({ width: 4, height: 4, type: 2, samples: new Uint8Array(48), filters: [0] });
    const bomb = Buffer.from(png);
    bomb.writeUInt32BE(100_000, 16);
    bomb.writeUInt32BE(100_000, 20);
    expect(() => decodePngElevation(bomb, 'mapbox')).toThrow(/100000x100000 px, above the limit of/);
    const big = Buffer.from(writePng({ width: 64, height: 64, type: 2, samples: new Uint8Array(64 * 64 * 3), filters: [0] }));
    big.writeUInt32BE(8, 16);
    big.writeUInt32BE(8, 20);
    expect(decodePngElevation(big, 'mapbox')).toBeUndefined(); // more data than the header says: left to sharp
    const ok = writePng({ width: 16, height: 16, type: 2, samples: noise(768, 1, false), filters: [1] });
    expect(() => decodePngElevation(ok.subarray(0, ok.length - 30), 'mapbox')).toThrow(/truncated/);
    const bad = Buffer.from(ok);
    bad[bad.indexOf('IDAT', 0, 'latin1') + 8] ^= 0xff;
    expect(() => decodePngElevation(bad, 'terrarium')).toThrow(/corrupt/);
    const tall = Buffer.from(writePng({ width: 16, height: 8, type: 2, samples: new Uint8Array(16 * 8 * 3), filters: [0] }));
    tall.writeUInt32BE(32, 20);
    expect(() => decodePngElevation(tall, 'mapbox')).toThrow(/fewer rows/);
    const filt = writePng({ width: 4, height: 4, type: 2, samples: new Uint8Array(48), filters: [5 as number] });
    expect(() => decodePngElevation(filt, 'mapbox')).toThrow(/unknown row filter 5/);
  });

  fixturesTest("every RGB DEM fixture, both encodings: the metres of sharp's RGBA; the RGBA one is left to decodeImage", async () => {
    let n = 0;
    for (const d of ['dem/terrain-rgb', 'dem/terrarium'])
      for (const sub of readdirSync(fixture(d)))
        for (const f of readdirSync(fixture(d, sub)).filter((f) => f.endsWith('.png'))) {
          const png = new Uint8Array(await readFile(path.join(fixture(d, sub), f)));
          if (png[25] === 2) {
            await expectSameMetres(png);
            n++;
          } else expect(decodePngElevation(png, 'mapbox')).toBeUndefined();
        }
    expect(n).toBeGreaterThanOrEqual(20);
  });
});
