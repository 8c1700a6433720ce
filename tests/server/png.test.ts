// The PNG encoder (src/render/encode.ts pngImage + src/hosts/node/png.ts) as a codec: every file
// it writes decodes, with libvips (sharp) and with pngjs, to exactly toRGBA8 of the raster, in
// every form it writes (property-based over rasters made to hit each form, and examples); and no
// larger than sharp's default encode (compressionLevel 6, no adaptive filtering) of the same
// pixels on real tiles. Witnesses: libvips/libpng and pngjs, two PNG readers we did not write.
// Every suite that writes files runs twice: with libdeflate (the addon npm install builds,
// src/hosts/node/deflate.ts) and with node:zlib, its fallback (setZlibDeflate). The addon's
// absence skips its half loudly; TILEGRAPH_REQUIRE_ADDON=1 (CI) makes it a failure.
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { CpuBackend, releaseRaster, toRGBA8, type Raster } from '../../src/index.js';
import { PNG_SIMD_MAX_PIXELS, pngImage, pngImageReference, pngImageSimdAvailable, toRGBA8Reference, type PngImage } from '../../src/render/encode.js';
import { ADDON as KERNELS, announceAddon, FAST_KERNELS, useNative } from '../helpers/native.js';
import { deflateInfo, setZlibDeflate, usingLibdeflate } from '../../src/hosts/node/deflate.js';
import { encodePng, encodePngSync, equalLeftShare, GRAIN_EQUAL_LEFT, levelOf, pngFile } from '../../src/hosts/node/png.js';
import { loadStyleFile } from '../../src/hosts/node/style-file.js';
import { tileWindow } from '../../src/types.js';
import { decodeWithPngjs, decodeWithSharp, pixelDifference, rgbaOf } from '../helpers/decode.js';
import { codecCase, countColours } from '../helpers/raster-arbitrary.js';
import { ROOT } from './fixtures.js';
import { acquire, release } from '../../src/backends/cpu/pool.js';
import { inArena, setArenaEnabled } from '../../src/util/wasm-arena.js';
import { markUniform, uniformOf } from '../../src/backends/cpu/uniform.js';

/** A raster from straight RGBA colours in [0, 1] (premultiplied here), `pick(x, y)` choosing one. */
function raster(width: number, height: number, pick: (x: number, y: number) => readonly number[]): Raster {
  const data = new Float32Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [r, g, b, a] = pick(x, y);
      const i = (y * width + x) * 4;
      data[i] = r! * a!;
      data[i + 1] = g! * a!;
      data[i + 2] = b! * a!;
      data[i + 3] = a!;
    }
  return { kind: 'raster', width, height, data };
}

/** Seeded uniform numbers (mulberry32). */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function palette(count: number, alpha: boolean, seed = 1): number[][] {
  const rand = rng(seed);
  return Array.from({ length: count }, () => [rand(), rand(), rand(), alpha ? rand() : 1]);
}

/**
 * Noise across the rows that varies smoothly down them (what Up filters: terrain's and watercolour's
 * textures): each column a random colour plus a slow wave down it (one pixel in ten, on diagonals,
 * the pixel to its left: real noise repeats a little); `alpha` makes it RGBA.
 */
function columnNoise(width: number, height: number, alpha: boolean, seed = 5): Raster {
  const rand = rng(seed);
  const cols = Array.from({ length: width }, () => [rand(), rand(), rand(), 0.4 + 0.5 * rand(), 10 * rand()]);
  return raster(width, height, (x, y) => {
    const [r, g, b, a, phase] = cols[x > 0 && (x + y) % 10 === 3 ? x - 1 : x]!;
    const wave = 0.08 * Math.sin(y / 9 + phase!);
    return [0.1 + 0.8 * r! + wave, 0.1 + 0.8 * g! - wave, 0.1 + 0.8 * b!, alpha ? a! + wave : 1];
  });
}

/** The file's IHDR colour type and bit depth (bytes 24 and 25 of a PNG). */
const form = (png: Uint8Array) => ({ colorType: png[25]!, bitDepth: png[24]! });

/** Decodes with libvips and with pngjs to exactly toRGBA8(r); the form written. */
async function roundTrip(r: Raster, png = encodePngSync(r)): Promise<{ colorType: number; bitDepth: number }> {
  const want = { width: r.width, height: r.height, data: rgbaOf(r) };
  expect(pixelDifference(await decodeWithSharp(png), want)).toBeUndefined();
  expect(pixelDifference(decodeWithPngjs(png), want)).toBeUndefined();
  return form(png);
}

/** The form a lossless encoder of this size should pick for `colours` distinct colours. */
function formFor(colours: number, opaque: boolean): { colorType: number; bitDepth: number } {
  if (colours <= 256) return { colorType: 3, bitDepth: colours <= 2 ? 1 : colours <= 4 ? 2 : colours <= 16 ? 4 : 8 };
  return { colorType: opaque ? 2 : 6, bitDepth: 8 };
}

/** The fields of image data, its scanlines copied (they are a view of scratch memory). */
const imageOf = (img: PngImage) => ({ ...img, scanlines: Uint8Array.from(img.scanlines) });

/** Truecolour rows of toRGBA8(r) unfiltered, in img's channels: each row a 0 byte, then its pixels. */
function noneRows(r: Raster, img: PngImage): Uint8Array {
  const rgba = rgbaOf(r);
  const ch = img.colorType === 2 ? 3 : 4;
  const out = new Uint8Array(r.height * (r.width * ch + 1));
  let o = 0;
  for (let p = 0; p < r.width * r.height; p++) {
    if (p % r.width === 0) out[o++] = 0;
    for (let c = 0; c < ch; c++) out[o++] = rgba[p * 4 + c]!;
  }
  return out;
}

announceAddon('tests/server/png.test.ts');

const ADDON = usingLibdeflate();
if (!ADDON) {
  const msg = `tests/server/png.test.ts: libdeflate's half SKIPPED: ${deflateInfo().reason} (scripts/build-native.mjs builds it).`;
  if (process.env.TILEGRAPH_REQUIRE_ADDON === '1') throw new Error(`${msg} TILEGRAPH_REQUIRE_ADDON=1 makes this a failure.`);
  console.warn(msg);
}

test('the deflate in use: libdeflate where the addon loads, node:zlib where setZlibDeflate(true) says', () => {
  if (ADDON) expect(deflateInfo().name).toMatch(/^libdeflate \d+\.\d+$/);
  setZlibDeflate(true);
  expect(deflateInfo()).toEqual({ name: 'node:zlib', reason: 'setZlibDeflate(true)' });
  setZlibDeflate(false);
  expect(usingLibdeflate()).toBe(ADDON);
});

const DEFLATERS: ['libdeflate' | 'node:zlib'][] = [['node:zlib']];
if (ADDON) DEFLATERS.unshift(['libdeflate']);

describe.each(DEFLATERS)('deflate: %s', (deflater) => {
  beforeAll(() => setZlibDeflate(deflater === 'node:zlib'));
  afterAll(() => setZlibDeflate(false));
  test('this half runs with that deflate', () => {
    expect(deflateInfo().name.split(' ')[0]).toBe(deflater);
  });

  test('the level of each form: grain (few pixels equal to their left) at libdeflate 2, runs and gradients at 4, indexed 5, Up 1; decoding to toRGBA8', async () => {
    const rand = rng(31);
    // Grain: random pixels, 3% of them repeating the one to their left (as paper grain does:
    // None rows, since Sub then changes more often than the pixels do).
    let left = [0.5, 0.5, 0.5, 1];
    const grain = raster(256, 256, () => (left = rand() < 0.03 ? left : [0.3 + 0.4 * rand(), 0.3 + 0.4 * rand(), 0.5, 1]));
    const runs = raster(100, 40, (x, y) => palette(300, true)[Math.floor((x + 100 * y) / 5) % 300]!);
    const gradient = raster(256, 256, (x, y) => [x / 255, 0.5 + 0.4 * Math.sin(y / 40), (x + y) / 510, 1]);
    const lib = deflater === 'libdeflate';
    const cases: [Raster, number, number, number][] = [
      // raster, filter, level with libdeflate, level with node:zlib
      [grain, 0, 2, 4],
      [runs, 0, 4, 4],
      [gradient, 1, 4, 4],
      [raster(64, 64, (x, y) => palette(17, true)[(x * y) % 17]!), 0, 5, 4],
      [columnNoise(256, 256, false), 2, 1, 1],
    ];
    for (const [r, filter, libLevel, zlibLevel] of cases) {
      const img = pngImage(r);
      expect(img.filter).toBe(filter);
      expect(levelOf(img)).toBe(lib ? libLevel : zlibLevel);
      expect(levelOf(img, { compressionLevel: 7 })).toBe(7);
      await roundTrip(r);
    }
    expect(equalLeftShare(pngImage(grain))).toBeLessThan(GRAIN_EQUAL_LEFT);
    expect(equalLeftShare(pngImage(runs))).toBeGreaterThan(0.7);
  });

  describe('pngImage + pngFile as a codec (fast-check)', () => {
    test('every raster decodes with libvips and pngjs to exactly toRGBA8, in the smallest form for its colours', async () => {
      await fc.assert(
        fc.asyncProperty(codecCase, async ({ raster: r, colours, opaque }) => {
          const want = rgbaOf(r);
          // The generator's promise, checked: the form below depends on it.
          expect(countColours(want)).toBe(colours);
          const png = pngFile(pngImage(r));
          expect(await roundTrip(r, png)).toEqual(formFor(colours, opaque));
          // The same pixels in a buffer not 8-byte aligned (a view 4 bytes in): the run test's
          // int32 path, where the aligned one compares float64 pairs.
          const shifted = new Float32Array(r.data.length + 1);
          shifted.set(r.data, 1);
          const unaligned: Raster = { ...r, data: shifted.subarray(1) };
          expect(await roundTrip(unaligned)).toEqual(formFor(colours, opaque));
        }),
        { numRuns: 300 },
      );
    });

    test('one encode after another reuses scratch memory without leaking pixels between them', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(codecCase, { minLength: 2, maxLength: 4 }), async (cases) => {
          // Image data is a view of shared scratch: write every file first, then decode them all.
          const files = cases.map((c) => pngFile(pngImage(c.raster)));
          for (let i = 0; i < cases.length; i++) await roundTrip(cases[i]!.raster, files[i]!);
        }),
        { numRuns: 40 },
      );
    });
  });

  describe('encodePng: lossless', () => {
    const cases: [string, Raster, number, number][] = [
      ['one colour', raster(256, 256, () => [0.66, 0.81, 0.9, 1]), 3, 1],
      // Opaque white packs to -1, the run test's old sentinel: an empty PLTE, or the first run
      // taking another colour's index (the outside audit's bug).
      ['opaque white only', raster(256, 256, () => [1, 1, 1, 1]), 3, 1],
      ['white top half, black square below', raster(256, 256, (x, y) => (y >= 128 && x >= 64 && x < 192 ? [0, 0, 0, 1] : [1, 1, 1, 1])), 3, 1],
      ['white first pixel, then 3 colours', raster(9, 9, (x, y) => (x + y === 0 ? [1, 1, 1, 1] : palette(3, false)[(x + y) % 3]!)), 3, 2],
      ['fully transparent', raster(64, 64, () => [0, 0, 0, 0]), 3, 1],
      ['2 colours, odd size', raster(13, 7, (x, y) => ((x + y) % 2 ? [1, 0.5, 0, 1] : [0.2, 0.3, 0.4, 1])), 3, 1],
      ['3 colours with alpha, odd size', raster(11, 5, (x, y) => palette(3, true)[(x * 7 + y) % 3]!), 3, 2],
      ['16 colours', raster(37, 9, (x, y) => palette(16, false)[(x + 3 * y) % 16]!), 3, 4],
      ['17 colours with alpha', raster(40, 40, (x, y) => palette(17, true)[(x * y) % 17]!), 3, 8],
      ['256 colours', raster(64, 64, (x, y) => palette(256, true)[(x + 64 * y) % 256]!), 3, 8],
      ['257 colours, opaque', raster(64, 64, (x, y) => palette(257, false)[(x + 64 * y) % 257]!), 2, 8],
      ['257 colours with alpha', raster(64, 64, (x, y) => palette(257, true)[(x + 64 * y) % 257]!), 6, 8],
      ['runs of 7 translucent colours', raster(50, 20, (x, y) => palette(7, true)[Math.floor((x + 50 * y) / 9) % 7]!), 3, 4],
      // -0 and +0 compare equal as float64 pairs (the run test): both convert to 0, one colour.
      ['signed zeros in one run', raster(40, 3, (x) => (x % 3 ? [0, -0, 0.5, 1] : [0, 0, 0.5, 1])), 3, 1],
      ['runs of 300 colours with alpha', raster(100, 40, (x, y) => palette(300, true)[Math.floor((x + 100 * y) / 5) % 300]!), 6, 8],
    ];
    test.each(cases)('%s: decodes to the bytes toRGBA8 gives, in the expected form', async (_name, r, colorType, bitDepth) => {
      expect(await roundTrip(r)).toEqual({ colorType, bitDepth });
    });

    test('random floats, rounding ties, values outside [0, 1] and NaN convert as toRGBA8 does', async () => {
      const rand = rng(7);
      const w = 97;
      const h = 61;
      const data = new Float32Array(w * h * 4);
      const special = [0, 1, 0.5, 1.5, -0.25, Number.NaN, 126.5 / 255, 127.5 / 255, 0.25];
      for (let i = 0; i < data.length; i += 4) {
        const k = (i / 4) % 5;
        const a = k === 0 ? 1 : k === 1 ? 0.5 : k === 2 ? rand() : k === 3 ? 0 : special[(i >> 2) % special.length]!;
        for (let c = 0; c < 3; c++) data[i + c] = rand() < 0.2 ? special[Math.floor(rand() * special.length)]! : rand() * (a > 0 ? a : 1);
        data[i + 3] = a;
      }
      await roundTrip({ kind: 'raster', width: w, height: h, data });
    });

    test.each([
      ['RGB', false, 2],
      ['RGBA', true, 6],
    ] as const)(
      'noise varying smoothly down the rows, %s: Up rows (zlib level 1), decoding to toRGBA8, smaller than None rows',
      async (_name, alpha, colorType) => {
        for (const [w, h] of [
          [256, 256],
          [203, 77],
        ] as const) {
          const r = columnNoise(w, h, alpha);
          const img = pngImage(r);
          expect([img.colorType, img.filter]).toEqual([colorType, 2]);
          expect(await roundTrip(r)).toEqual({ colorType, bitDepth: 8 });
          // the same pixels with None rows at level 4 (the encoder's choice before Up): larger
          const none = { ...imageOf(img), filter: 0 as const, scanlines: noneRows(r, img) };
          await roundTrip(r, pngFile(none, { compressionLevel: 4 }));
          expect(encodePngSync(r).length).toBeLessThan(pngFile(none, { compressionLevel: 4 }).length);
        }
      },
    );

    test('scratch reuse: a large encode then a small one, and the async form', async () => {
      await roundTrip(raster(300, 200, (x, y) => [x / 300, y / 200, 0.5, 1]));
      const small = raster(3, 2, (x) => [x / 2, 0, 0, 1]);
      await roundTrip(small);
      await roundTrip(small, await encodePng(small));
      expect(pngImage(small).scanlines.length).toBe(2 * (1 + 1)); // 3 colours: 2 bits, one byte a row
    });
  });

  describe('encodePngSync: one-colour rasters encoded once, then their bytes reused', () => {
    // A raster whose pixels all have the same bits is encoded once per size, colour and zlib level;
    // later ones get a copy of those bytes. Witnesses: libvips and pngjs decode every file to
    // toRGBA8 of the raster; the bytes are those of the encoder's general path (pngImageReference).
    const cases: [string, Raster][] = [
      ['open sea, 256 px', raster(256, 256, () => [0.66, 0.81, 0.9, 1])],
      ['transparent, 256 px', raster(256, 256, () => [0, 0, 0, 0])],
      ['translucent, 512 px', raster(512, 512, () => [0.2, 0.4, 0.6, 0.5])],
      ['one colour, odd size', raster(13, 7, () => [1, 0.5, 0, 1])],
      ['one pixel', raster(1, 1, () => [0.3, 0.3, 0.3, 0.7])],
    ];
    test.each(cases)("%s: every encode decodes to toRGBA8, with the general path's bytes, in a buffer of its own", async (_name, r) => {
      const want = pngFile(pngImageReference(r));
      for (const level of [undefined, 6]) {
        const first = encodePngSync(r, { compressionLevel: level });
        const second = encodePngSync(r, { compressionLevel: level });
        expect(second.buffer).not.toBe(first.buffer);
        if (level === undefined) {
          expect(Buffer.from(first).equals(Buffer.from(want))).toBe(true);
          expect(Buffer.from(second).equals(Buffer.from(want))).toBe(true);
        } else expect(Buffer.from(second).equals(Buffer.from(pngFile(pngImageReference(r), { compressionLevel: 6 })))).toBe(true);
        first.fill(0); // the caller owns (and may transfer or overwrite) what it gets
        expect(Buffer.from(encodePngSync(r, { compressionLevel: level })).equals(Buffer.from(second))).toBe(true);
        await roundTrip(r, second);
      }
    });

    test("a raster marked one value (src/backends/cpu/uniform.ts) skips the pixels' test: the bytes of the same pixels unmarked", async () => {
      for (const [w, h, px] of [
        [256, 256, [0.66, 0.81, 0.9, 1]],
        [256, 256, [0, 0, 0, 0]],
        [300, 17, [0.2, 0.4, 0.6, 0.5]],
        [1, 1, [0.3, 0.3, 0.3, 0.7]],
      ] as [number, number, number[]][]) {
        const plain = raster(w, h, () => px);
        const marked = raster(w, h, () => px);
        markUniform(marked.data, marked.data.subarray(0, 4));
        for (const level of [undefined, 6]) {
          const want = pngFile(pngImageReference(plain), { compressionLevel: level });
          expect(Buffer.from(encodePngSync(marked, { compressionLevel: level })).equals(Buffer.from(want))).toBe(true);
          expect(Buffer.from(encodePngSync(plain, { compressionLevel: level })).equals(Buffer.from(want))).toBe(true);
        }
        await roundTrip(marked);
      }
      // The world's open sea, rendered: its output is marked, and its file is the unmarked pixels' file.
      const style = await loadStyleFile(path.join(ROOT, 'examples/world/style.json'));
      const { raster: sea } = await style.renderer.renderWindow(tileWindow({ z: 4, x: 7, y: 8 }, 256), style.renderer.params({}), {
        backend: new CpuBackend(),
      });
      expect(uniformOf(sea.data)).toBeDefined();
      const copy: Raster = { ...sea, data: sea.data.slice() };
      expect(Buffer.from(encodePngSync(sea)).equals(Buffer.from(pngFile(pngImageReference(copy))))).toBe(true);
      releaseRaster(sea);
    });

    test('a raster of one colour but its last pixel, or of another size or colour, is not answered from the one-colour files', async () => {
      const sea = raster(64, 64, () => [0.66, 0.81, 0.9, 1]);
      encodePngSync(sea);
      const last = raster(64, 64, (x, y) => (x === 63 && y === 63 ? [0.5, 0.5, 0.5, 1] : [0.66, 0.81, 0.9, 1]));
      expect(form(encodePngSync(last))).toEqual({ colorType: 3, bitDepth: 1 });
      await roundTrip(last);
      await roundTrip(raster(64, 32, () => [0.66, 0.81, 0.9, 1]));
      await roundTrip(raster(64, 64, () => [0.66, 0.81, 0.9, 0.5]));
      // -0 and +0 differ in their bits: each its own entry, both the same image.
      const signed = raster(8, 8, () => [0, -0, 0.5, 1]);
      expect(Buffer.from(encodePngSync(signed)).equals(Buffer.from(pngFile(pngImageReference(signed))))).toBe(true);
      await roundTrip(signed);
    });
  });

  describe('encodePng: size against sharp default', () => {
    const sharpDefault = (r: Raster) => {
      const rgba = toRGBA8(r);
      return sharp(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), { raw: { width: r.width, height: r.height, channels: 4 } })
        .png({ compressionLevel: 6 })
        .toBuffer();
    };
    // The 16 zoom-2 tiles of the bundled example and a few deeper ones: open sea (one colour), land
    // with borders (a few dozen colours), coasts under the blurred shadow (> 256 colours: the hardest
    // case, where zlib-ng's level 6 in sharp beats Node's zlib on the same rows by a few percent, and
    // the None / Sub choice is a heuristic).
    const tiles: [number, number, number][] = [
      [0, 0, 0],
      [4, 0, 15],
      [4, 8, 5],
      [4, 11, 6],
      [5, 17, 11],
    ];
    for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) tiles.push([2, x, y]);
    test('bundled example tiles: lossless, fewer bytes in total, none more than 10% larger', async () => {
      const style = await loadStyleFile(path.join(ROOT, 'examples/world/style.json'));
      const backend = new CpuBackend();
      const params = style.renderer.params({});
      let ours = 0;
      let theirs = 0;
      for (const [z, x, y] of tiles) {
        const { raster: r } = await style.renderer.renderWindow(tileWindow({ z, x, y }, 256), params, { backend });
        const a = encodePngSync(r).length;
        const b = (await sharpDefault(r)).length;
        await roundTrip(r);
        expect({ tile: `${z}/${x}/${y}`, within: a / b <= 1.1 }).toEqual({ tile: `${z}/${x}/${y}`, within: true });
        ours += a;
        theirs += b;
        releaseRaster(r);
      }
      expect(ours).toBeLessThan(theirs);
    });

    test('watercolour example tiles (noise, Up rows): lossless, fewer bytes than sharp default, each', async () => {
      const style = await loadStyleFile(path.join(ROOT, 'examples/watercolor/style.json'));
      const backend = new CpuBackend();
      const params = style.renderer.params({});
      for (const [z, x, y] of [
        [4, 8, 5],
        [4, 4, 6],
      ] as const) {
        const { raster: r } = await style.renderer.renderWindow(tileWindow({ z, x, y }, 256), params, { backend });
        expect(pngImage(r).filter).toBe(2);
        const a = encodePngSync(r).length;
        await roundTrip(r);
        expect(a).toBeLessThan((await sharpDefault(r)).length);
        releaseRaster(r);
      }
    });

    test('a smooth gradient (Sub filter) is well below sharp default', async () => {
      const r = raster(256, 256, (x, y) => [x / 255, 0.5 + 0.4 * Math.sin(y / 40), (x + y) / 510, 1]);
      const img = pngImage(r);
      expect([img.colorType, img.filter]).toEqual([2, 1]);
      await roundTrip(r);
      expect(encodePngSync(r).length).toBeLessThan(0.8 * (await sharpDefault(r)).length);
    });
  });
});

describe.each(FAST_KERNELS)('%s conversion', (_name, native) => {
  describe('pngImage (png-rows.wat; its conversion in the addon where bound) against its TypeScript reference', () => {
    // useNative: the pixels' conversion in png-rows.wat, or in the addon where the CPU has AVX-512
    beforeEach(() => useNative(native));
    afterAll(() => useNative(true));
    // The reference (pngImageReference) is the witnessed encoder above: its files decode with
    // libvips and pngjs to toRGBA8. The SIMD form must give the same image data byte for byte.
    const same = (r: Raster) => {
      const ref = imageOf(pngImageReference(r));
      const got = imageOf(pngImage(r));
      // the scanlines compared as bytes first (toEqual on 200 KB is slow), then every field
      expect(Buffer.from(got.scanlines).equals(Buffer.from(ref.scanlines))).toBe(true);
      expect({ ...got, scanlines: null }).toEqual({ ...ref, scanlines: null });
      // The deflate level's grain test: the count taken by the filter choice's pass is the share
      // counted over the unfiltered scanlines themselves (equalLeftShare without the image's count).
      if (ref.colorType !== 3 && ref.filter === 0) expect(got.equalLeft).toBe(equalLeftShare({ ...ref, equalLeft: undefined }));
      return ref;
    };

    test('the WebAssembly form runs here (Node 20 has SIMD)', () => {
      expect(pngImageSimdAvailable()).toBe(true);
    });

    test('codec cases, every width 1-21 (the four-pixel loops and their tails), odd heights', async () => {
      await fc.assert(
        fc.asyncProperty(codecCase, async ({ raster: r }) => {
          same(r);
          await roundTrip(r, pngFile(pngImageReference(r)));
        }),
        { numRuns: 200 },
      );
      const rand = rng(11);
      for (let w = 1; w <= 21; w++)
        for (const h of [1, 2, 5]) {
          // gradients (Sub), 300 colours (truecolour), with and without alpha
          same(raster(w, h, (x, y) => [x / w, y / h, rand(), 1]));
          same(raster(w, h, (x, y) => [rand(), (x * y) / (w * h), 0.5, rand()]));
          same(raster(w, h, (x) => [x % 2, 0.5, 0.25, 1]));
        }
      // Up rows, RGB and RGBA, every width 4-21 (the four-pixel loop and its tail, the first row as it
      // is; narrower rows sample too few bytes for the entropy estimate to pick Up)
      for (let w = 4; w <= 21; w++)
        for (const alpha of [false, true]) {
          const r = columnNoise(w, 200, alpha, w);
          expect(same(r).filter).toBe(2);
          await roundTrip(r);
        }
    });

    test('the palette pass: 1, 2, 16, 255, 256 and 257 colours in runs of every length 1-40 (across rows), with and without alpha', () => {
      const rand = rng(31);
      for (const count of [1, 2, 16, 255, 256, 257])
        for (const alpha of [false, true]) {
          const colours = palette(count, alpha, count);
          // runs of 1-40 pixels, each colour met first in order, then at random
          const seq: number[] = [];
          for (let k = 0; seq.length < 97 * 53; k++) {
            const c = k < count ? k : Math.floor(rand() * count);
            for (let i = 1 + (k % 40); i > 0; i--) seq.push(c);
          }
          const img = same(raster(97, 53, (x, y) => colours[seq[y * 97 + x]!]!));
          expect(img.colorType === 3).toBe(count <= 256);
        }
    });

    test('random floats, rounding ties, values outside [0, 1], NaN, infinities and signed zeros', () => {
      const rand = rng(23);
      const special = [0, -0, 1, 0.5, 1.5, -0.25, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 126.5 / 255, 127.5 / 255, 0.25, 1e-40, 3e38];
      for (const [w, h] of [
        [97, 61],
        [256, 256],
        [3, 300],
      ] as const) {
        const data = new Float32Array(w * h * 4);
        for (let i = 0; i < data.length; i += 4) {
          const k = (i / 4) % 6;
          const a = k === 0 ? 1 : k === 1 ? 0.5 : k === 2 ? rand() : k === 3 ? 0 : k === 4 ? special[(i >> 2) % special.length]! : 1;
          for (let c = 0; c < 3; c++) data[i + c] = rand() < 0.2 ? special[Math.floor(rand() * special.length)]! : rand() * (a > 0 ? a : 1);
          data[i + 3] = a;
          // runs: the pixel before, repeated
          if (i >= 4 && rand() < 0.3) data.copyWithin(i, i - 4, i);
        }
        same({ kind: 'raster', width: w, height: h, data });
      }
      // The four-pixel paths: every alpha >= 1 (1, past 1, infinite), the colours random or special,
      // runs; then opaque pixels with one in 2-9 not (alpha below 1, 0, NaN), so that blocks of four
      // fall on both paths and on the one-at-a-time path after them.
      for (const every of [0, 2, 3, 5, 9]) {
        const w = 61;
        const h = 37;
        const data = new Float32Array(w * h * 4);
        const alphas = [1, 1, 1, 1.5, Number.POSITIVE_INFINITY, 3e38];
        for (let i = 0; i < data.length; i += 4) {
          const a = every && rand() < 1 / every ? special[Math.floor(rand() * 7)]! : alphas[Math.floor(rand() * alphas.length)]!;
          for (let c = 0; c < 3; c++) data[i + c] = rand() < 0.2 ? special[Math.floor(rand() * special.length)]! : rand();
          data[i + 3] = a;
          if (i >= 4 && rand() < 0.3) data.copyWithin(i, i - 4, i);
          if (i >= 16 && rand() < 0.05) data.copyWithin(i, i - 16, i - 12); // a run of one more pixel, across blocks
        }
        same({ kind: 'raster', width: w, height: h, data });
      }
    });

    test('past PNG_SIMD_MAX_PIXELS (the TypeScript loops, the kernel memory bounded): the same data, decoding to toRGBA8', async () => {
      const big = raster(1025, 1024, (x, y) => [x / 1025, y / 1024, 0.5, 1]);
      expect(big.width * big.height).toBeGreaterThan(PNG_SIMD_MAX_PIXELS);
      same(big);
      await roundTrip(big);
    });

    test('world example tiles: the same image data', async () => {
      const backend = new CpuBackend();
      const forms = new Set<string>();
      const style = await loadStyleFile(path.join(ROOT, 'examples/world/style.json'));
      const params = style.renderer.params({});
      for (const [z, x, y] of [
        [2, 1, 1],
        [3, 4, 2],
        [4, 8, 5],
        [4, 2, 9],
      ] as const) {
        const { raster: r } = await style.renderer.renderWindow(tileWindow({ z, x, y }, 256), params, { backend });
        const img = same(r);
        forms.add(img.colorType === 3 ? 'indexed' : 'truecolour');
        releaseRaster(r);
      }
      expect([...forms].sort()).toEqual(['indexed', 'truecolour']);
    });

    /** `r`'s pixels in a canvas of the canvas arena (src/util/wasm-arena.ts), as a render worker's output lies. */
    const inTheArena = (r: Raster): Raster => {
      const data = acquire(r.data.length, false);
      data.set(r.data);
      expect(inArena(data)).toBe(true);
      return { ...r, data };
    };

    test('a raster lying in the canvas arena is read in place: the same image data (indexed, Sub, Up, RGBA, specials; sizes up and down)', () => {
      const rand = rng(31);
      const cases: Raster[] = [
        raster(256, 256, (x, y) => [x / 256, y / 256, 0.5, 1]), // gradients: Sub
        columnNoise(300, 200, false, 7), // Up, RGB
        columnNoise(64, 64, true, 3), // Up, RGBA
        raster(256, 256, (x) => [x % 3 ? 0.2 : 0.6, 0.5, 0.25, 1]), // indexed
        raster(1024, 1024, (x, y) => [(x ^ y) / 1024, 0.5, 0.5, (x % 7) / 6]), // the largest the kernel takes: the block grows
        raster(37, 29, () => [rand(), rand(), rand(), rand()]), // small after large: a new block
        raster(256, 256, () => [rand() < 0.1 ? Number.NaN : rand(), -0, rand() * 2 - 0.5, rand() < 0.5 ? 1 : rand()]),
      ];
      for (const r of cases) {
        const there = inTheArena(r);
        same(there);
        // the image data of the raster outside the arena (the copying path) too
        expect(Buffer.from(pngFile(pngImage(there))).equals(Buffer.from(pngFile(pngImage(r))))).toBe(true);
        release(there.data);
      }
    });

    test("in the arena with no room for the encoder's block (arena turned off for new blocks): the copying path, the same data", () => {
      const r = inTheArena(columnNoise(300, 200, true, 5));
      const small = inTheArena(raster(40, 30, (x) => [x / 40, 0.5, 0.5, 1]));
      setArenaEnabled(false);
      try {
        same(r); // may reuse the block held from before
        same(small); // needs a block of its own size, which the arena refuses: the copying path
      } finally {
        setArenaEnabled(true);
        release(r.data);
        release(small.data);
      }
    });

    test('world example tiles rendered as a render worker renders them (arenaOutput): read in place, the same image data', async () => {
      const backend = new CpuBackend();
      const style = await loadStyleFile(path.join(ROOT, 'examples/world/style.json'));
      const params = style.renderer.params({});
      for (const [z, x, y] of [
        [3, 4, 2],
        [4, 8, 5],
        [4, 2, 9],
        [4, 1, 9],
      ] as const)
        for (const size of [256, 512]) {
          const { raster: r } = await style.renderer.renderWindow(tileWindow({ z, x, y }, size), params, { backend, arenaOutput: true });
          expect(inArena(r.data)).toBe(true);
          same(r);
          releaseRaster(r);
        }
    });
  });
});

describe("the addon's conversion (native/pixels.h convert_pixels)", () => {
  // Both copies against toRGBA8Reference's bytes (the witnessed encoder's conversion): alphas 1, 0,
  // in between and odd (NaN, -0, negative, above 1, tiny), colours on rounding ties, outside [0, 1],
  // NaN and infinities; every length 0-70 (so every tail of the eight-pixel loop).
  const special = [0, -0, 1, 0.5, 1.5, -0.25, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 126.5 / 255, 127.5 / 255, 1e-40, 3e38, 0.999999];
  (KERNELS ? test : test.skip)('the bytes of toRGBA8Reference, and whether every alpha is 255', () => {
    const rand = rng(77);
    let checked = 0;
    for (let n = 0; n <= 70; n++)
      for (const kind of [0, 1, 2]) {
        const data = new Float32Array(n * 4);
        for (let i = 0; i < data.length; i++) {
          const odd = rand() < (kind === 0 ? 0 : 0.2);
          data[i] = odd ? special[Math.floor(rand() * special.length)]! : i % 4 === 3 ? (kind === 1 || rand() < 0.5 ? 1 : rand()) : rand();
        }
        const want = toRGBA8Reference({ kind: 'raster', width: n, height: 1, data });
        const opaque = want.every((v, i) => i % 4 !== 3 || v === 255) ? 1 : 0;
        for (const generic of KERNELS!.simd === 'avx512' ? ([0, 1] as const) : ([1] as const)) {
          const out = new Int32Array(n).fill(7);
          expect(KERNELS!.convert(data, out, n, generic)).toBe(opaque);
          expect(Buffer.from(out.buffer).equals(Buffer.from(want.buffer, want.byteOffset, n * 4))).toBe(true);
          checked++;
        }
      }
    expect(checked).toBe(71 * 3 * (KERNELS!.simd === 'avx512' ? 2 : 1));
  });
  (KERNELS ? test : test.skip)('bad arguments throw, never read or write past an array', () => {
    expect(() => KERNELS!.convert(new Float32Array(7), new Int32Array(2), 2, 0)).toThrow(/^convert: /);
    expect(() => KERNELS!.convert(new Float32Array(8), new Int32Array(1), 2, 0)).toThrow(/^convert: /);
    expect(() => KERNELS!.convert(new Float32Array(8), new Uint8Array(8) as unknown as Int32Array, 2, 0)).toThrow(/^convert: /);
    expect(() => KERNELS!.convert(new Float32Array(8), new Int32Array(2), -1, 0)).toThrow(/^convert: /);
  });
});
