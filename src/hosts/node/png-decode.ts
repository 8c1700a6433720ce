// A direct PNG decoder for the common DEM tile (8-bit grey, grey + alpha, RGB, RGBA or palette,
// not interlaced): chunks parsed here, IDAT inflated with node:zlib, rows unfiltered straight into
// RGBA8. Cheaper than a libvips pipeline for a 512 px Terrain-RGB tile (no colourspace step, no
// worker-thread round trip). Anything else (16-bit, sub-byte depths, interlaced, a tRNS colour key on
// grey or RGB, an embedded ICC profile) returns undefined and the caller decodes through sharp.
import { inflateSync } from 'node:zlib';
import { formatInt, LIMITS } from '../../limits.js';
import type { DecodedElevation, DecodedImage } from '../../sources/types.js';
import type { DemEncoding } from '../../sources/dem.js';
import { demKernels, paethKernels } from './png-paeth.js';

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

/** Channels per pixel of each supported colour type (8-bit samples). */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

const u32 = (b: Uint8Array, p: number) => ((b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!) >>> 0;

/** A parsed PNG this decoder supports: its header, palette and inflated (still filtered) rows. */
interface RawPng {
  width: number;
  height: number;
  type: number;
  channels: number;
  palette: Uint8Array | undefined;
  trns: Uint8Array | undefined;
  /** The inflated rows, each its filter byte and width * channels bytes; `expected` bytes in all. */
  raw: Uint8Array;
  expected: number;
}

/**
 * Header checks, chunks and the inflate shared by both decoders: undefined for a PNG left to a
 * general decoder, throws on a corrupt file and on an image above LIMITS.maxImagePixels (before
 * inflating anything; the inflate is capped at the expected size).
 */
function readPng(bytes: Uint8Array): RawPng | undefined {
  if (bytes.length < 33) return undefined;
  for (let i = 0; i < 8; i++) if (bytes[i] !== SIGNATURE[i]) return undefined;
  if (u32(bytes, 8) !== 13 || u32(bytes, 12) !== 0x49484452) return undefined; // IHDR first
  const width = u32(bytes, 16);
  const height = u32(bytes, 20);
  const depth = bytes[24]!;
  const type = bytes[25]!;
  const interlace = bytes[28]!;
  if (width === 0 || height === 0) throw new Error('the PNG has a zero width or height');
  if (width * height > LIMITS.maxImagePixels) {
    throw new Error(`the PNG is ${width}x${height} px, above the limit of ${formatInt(LIMITS.maxImagePixels)} pixels`);
  }
  const channels = CHANNELS[type];
  if (depth !== 8 || channels === undefined || interlace !== 0 || bytes[26] !== 0 || bytes[27] !== 0) return undefined;

  // Chunks: IDAT pieces, the palette and its alpha; anything that would change the colours leaves.
  const idat: Uint8Array[] = [];
  let idatBytes = 0;
  let palette: Uint8Array | undefined;
  let trns: Uint8Array | undefined;
  let p = 33;
  for (;;) {
    if (p + 12 > bytes.length) throw new Error('the PNG is truncated (no IEND chunk)');
    const len = u32(bytes, p);
    const kind = u32(bytes, p + 4);
    const start = p + 8;
    const end = start + len;
    if (end + 4 > bytes.length) throw new Error('the PNG is truncated (a chunk runs past the end)');
    if (kind === 0x49444154) {
      idat.push(bytes.subarray(start, end)); // IDAT
      idatBytes += len;
    } else if (kind === 0x504c5445)
      palette = bytes.subarray(start, end); // PLTE
    else if (kind === 0x74524e53)
      trns = bytes.subarray(start, end); // tRNS
    else if (kind === 0x69434350)
      return undefined; // iCCP: a profile sharp would apply
    else if (kind === 0x49454e44) break; // IEND
    p = end + 4;
  }
  if (trns && type !== 3) return undefined; // a colour key on grey / RGB
  if (type === 3 && (!palette || palette.length % 3 !== 0)) throw new Error('the PNG has no valid palette');
  if (!idatBytes) throw new Error('the PNG has no image data');

  const expected = height * (width * channels + 1);
  let raw: Uint8Array;
  try {
    const joined = idat.length === 1 ? idat[0]! : Buffer.concat(idat, idatBytes);
    // One output chunk a byte longer than the image: no joining of pieces, and a stream with more
    // data than the image holds still passes maxOutputLength and is refused.
    raw = inflateSync(joined, { maxOutputLength: expected, chunkSize: Math.max(64, expected + 1) });
  } catch (e) {
    // More data than the image holds: leave the oddity to the general decoder (itself bounded).
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return undefined;
    throw new Error(`the PNG's image data is corrupt (${(e as Error).message})`);
  }
  if (raw.length < expected) throw new Error('the PNG has fewer rows of image data than its height');
  return { width, height, type, channels, palette, trns, raw, expected };
}

/** Metres per step of R << 16 | G << 8 | B, and the offset, of each encoding (src/sources/dem.ts). */
const ENCODINGS: Record<DemEncoding, [scale: number, offset: number]> = {
  mapbox: [0.1, -10000],
  terrarium: [1 / 256, -32768],
};

/**
 * Elevations straight from an RGB PNG (the common Terrain-RGB / Terrarium tile): rows unfiltered
 * and converted to metres one at a time in WebAssembly, so no RGBA8 image is made. The values are
 * those of `decodeElevation(decodePngFast(bytes), encoding)`. Undefined for any other PNG (alpha,
 * palette, grey, or anything decodePngFast leaves to sharp) and without WebAssembly SIMD: the
 * caller then decodes the image and converts it. Throws as decodePngFast does.
 */
export function decodePngElevation(bytes: Uint8Array, encoding: DemEncoding): DecodedElevation | undefined {
  if (!LITTLE_ENDIAN || bytes.length < 33 || bytes[25] !== 2) return undefined; // RGB only (IHDR's colour type)
  const k = demKernels();
  if (!k) return undefined;
  const png = readPng(bytes);
  if (!png || png.type !== 2) return undefined;
  const { width, height, raw, expected } = png;
  const [scale, offset] = ENCODINGS[encoding];
  // Memory: the filtered rows (+ 4 bytes: a pixel's load reads one past its 3), two rows of
  // unfiltered pixels (8 bytes each; the first starts as zeros, the row above the first row), metres.
  // Each row buffer has room for the 4-pixel steps of the conversion (up to 3 pixels past the row),
  // and the metres 3 values past the last row.
  const rowBytes = ((width + 3) & ~3) * 8;
  const rowsAt = (expected + 4 + 15) & ~15;
  const outAt = rowsAt + 2 * rowBytes;
  k.reserve(outAt + width * height * 4 + 16);
  k.u8(0, expected).set(raw.subarray(0, expected));
  k.u8(rowsAt, rowBytes).fill(0);
  const stride = width * 3 + 1;
  for (let y = 0; y < height; y++) {
    const s = y * stride;
    const f = raw[s]!;
    if (f > 4) throw new Error(`the PNG has an unknown row filter ${f}`);
    const prev = rowsAt + (y & 1) * rowBytes;
    const cur = rowsAt + ((y + 1) & 1) * rowBytes;
    k.fn.demRow(s + 1, prev, cur, outAt + y * width * 4, width, f, scale, offset);
  }
  return { data: k.f32(outAt, width * height).slice(), width, height };
}

/**
 * RGBA8 pixels of a PNG this decoder supports, undefined for one it leaves to a general decoder.
 * Throws on a corrupt file and on an image above LIMITS.maxImagePixels (before inflating anything:
 * a decompression bomb is refused by its header, and the inflate is capped at the expected size).
 * `wasm: false` keeps RGB Paeth rows in TypeScript (the path without WebAssembly; for tests).
 */
export function decodePngFast(bytes: Uint8Array, options: { wasm?: boolean } = {}): DecodedImage | undefined {
  const png = readPng(bytes);
  if (!png) return undefined;
  const { width, height, type, channels, palette, trns, raw, expected } = png;
  const stride = width * channels;
  const out = new Uint8Array(width * height * 4);
  if (type === 2 && LITTLE_ENDIAN) {
    const k = options.wasm === false ? null : paethKernels();
    if (k) {
      // Rows and pixels in the WebAssembly memory: Paeth rows there, the other filters here on views.
      const outAt = (expected + 3) & ~3;
      k.reserve(outAt + width * height * 4);
      k.u8(0, expected).set(raw.subarray(0, expected));
      const paeth = (s: number, o: number) => k.fn.paeth(s, outAt + o * 4, width, width * 4);
      rgbToRgba(k.u8(0, expected), k.u32(outAt, width * height), width, height, paeth);
      out.set(k.u8(outAt, width * height * 4));
    } else rgbToRgba(raw, new Uint32Array(out.buffer), width, height);
  } else {
    unfilter(raw, height, stride, channels);
    expand(raw, out, height, stride, type, palette, trns);
  }
  return { data: out, width, height };
}

/** True on little-endian hosts, where a Uint32 word R | G << 8 | B << 16 | A << 24 is the bytes R, G, B, A. */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/**
 * RGB rows unfiltered straight into RGBA8 (alpha 255), one 32-bit word a pixel: the left pixel
 * stays in locals, the row above is read from the output. The filters of `unfilter`, written out
 * for three channels.
 */
function rgbToRgba(raw: Uint8Array, out32: Uint32Array, width: number, height: number, paethRow?: (s: number, o: number) => void): void {
  const stride = width * 3;
  const A = 0xff000000;
  for (let y = 0; y < height; y++) {
    let s = y * (stride + 1);
    const f = raw[s++]!;
    let o = y * width;
    const end = o + width;
    const first = y === 0;
    let r = 0,
      g = 0,
      b = 0;
    if (f === 0 || (f === 2 && first)) {
      for (; o < end; o++, s += 3) out32[o] = (raw[s]! | (raw[s + 1]! << 8) | (raw[s + 2]! << 16) | A) >>> 0;
    } else if (f === 1 || (f === 4 && first)) {
      // Sub (and Paeth with no row above, which is Sub).
      for (; o < end; o++, s += 3) {
        r = (raw[s]! + r) & 255;
        g = (raw[s + 1]! + g) & 255;
        b = (raw[s + 2]! + b) & 255;
        out32[o] = (r | (g << 8) | (b << 16) | A) >>> 0;
      }
    } else if (f === 2) {
      for (; o < end; o++, s += 3) {
        const up = out32[o - width]!;
        r = (raw[s]! + up) & 255;
        g = (raw[s + 1]! + (up >>> 8)) & 255;
        b = (raw[s + 2]! + (up >>> 16)) & 255;
        out32[o] = (r | (g << 8) | (b << 16) | A) >>> 0;
      }
    } else if (f === 3) {
      for (; o < end; o++, s += 3) {
        const up = first ? 0 : out32[o - width]!;
        r = (raw[s]! + ((r + (up & 255)) >> 1)) & 255;
        g = (raw[s + 1]! + ((g + ((up >>> 8) & 255)) >> 1)) & 255;
        b = (raw[s + 2]! + ((b + ((up >>> 16) & 255)) >> 1)) & 255;
        out32[o] = (r | (g << 8) | (b << 16) | A) >>> 0;
      }
    } else if (f === 4 && paethRow) {
      paethRow(s, o); // raw byte s and output word o, in the kernel's memory (png-paeth.ts)
    } else if (f === 4) {
      let cr = 0,
        cg = 0,
        cb = 0;
      for (; o < end; o++, s += 3) {
        const up = out32[o - width]!;
        const u = up & 255,
          v = (up >>> 8) & 255,
          w = (up >>> 16) & 255;
        r = (raw[s]! + paeth(r, u, cr)) & 255;
        g = (raw[s + 1]! + paeth(g, v, cg)) & 255;
        b = (raw[s + 2]! + paeth(b, w, cb)) & 255;
        out32[o] = (r | (g << 8) | (b << 16) | A) >>> 0;
        cr = u;
        cg = v;
        cb = w;
      }
    } else throw new Error(`the PNG has an unknown row filter ${f}`);
  }
}

/** Undo the row filters in place: each row is its filter byte and `stride` bytes. */
function unfilter(raw: Uint8Array, height: number, stride: number, bpp: number): void {
  for (let y = 0; y < height; y++) {
    const row = y * (stride + 1) + 1;
    const prev = row - stride - 1; // the previous row's first byte (unused on the first row)
    const f = raw[row - 1]!;
    const first = y === 0;
    if (f === 0) continue;
    if (f === 1) {
      for (let i = row + bpp, end = row + stride; i < end; i++) raw[i] = (raw[i]! + raw[i - bpp]!) & 255;
    } else if (f === 2) {
      if (first) continue;
      for (let i = row, end = row + stride; i < end; i++) raw[i] = (raw[i]! + raw[i - stride - 1]!) & 255;
    } else if (f === 3) {
      if (first) {
        for (let i = row + bpp, end = row + stride; i < end; i++) raw[i] = (raw[i]! + (raw[i - bpp]! >> 1)) & 255;
        continue;
      }
      for (let i = row; i < row + bpp; i++) raw[i] = (raw[i]! + (raw[prev + i - row]! >> 1)) & 255;
      for (let i = row + bpp, end = row + stride; i < end; i++) raw[i] = (raw[i]! + ((raw[i - bpp]! + raw[i - stride - 1]!) >> 1)) & 255;
    } else if (f === 4) {
      if (first) {
        // Paeth with no row above is Sub.
        for (let i = row + bpp, end = row + stride; i < end; i++) raw[i] = (raw[i]! + raw[i - bpp]!) & 255;
        continue;
      }
      for (let i = row; i < row + bpp; i++) raw[i] = (raw[i]! + raw[prev + i - row]!) & 255; // a = c = 0: b
      paethRow(raw, row, stride, bpp);
    } else throw new Error(`the PNG has an unknown row filter ${f}`);
  }
}

/**
 * Paeth from the second pixel on: the predictor nearest to p = a + b - c (a left, b above, c
 * above-left; ties to a, then b), chosen without branches (the choice is data-dependent noise).
 */
function paethRow(raw: Uint8Array, row: number, stride: number, bpp: number): void {
  const up = stride + 1;
  for (let i = row + bpp, end = row + stride; i < end; i++) {
    const a = raw[i - bpp]!,
      b = raw[i - up]!,
      c = raw[i - up - bpp]!;
    raw[i] = (raw[i]! + paeth(a, b, c)) & 255;
  }
}

/** Paeth's predictor with masks: pa = |b - c|, pb = |a - c|, pc = |a + b - 2c|. */
function paeth(a: number, b: number, c: number): number {
  const db = b - c,
    da = a - c,
    s = da + db;
  const ma = db >> 31,
    mb = da >> 31,
    ms = s >> 31;
  const pa = (db ^ ma) - ma,
    pb = (da ^ mb) - mb,
    pc = (s ^ ms) - ms;
  const notB = (pc - pb) >> 31; // pb > pc: c
  const bc = b ^ ((b ^ c) & notB);
  const notA = ((pb - pa) | (pc - pa)) >> 31; // pa above either: b or c
  return a ^ ((a ^ bc) & notA);
}

/** Unfiltered rows to RGBA8. */
function expand(
  raw: Uint8Array,
  out: Uint8Array,
  height: number,
  stride: number,
  type: number,
  palette: Uint8Array | undefined,
  trns: Uint8Array | undefined,
): void {
  let o = 0;
  for (let y = 0; y < height; y++) {
    let s = y * (stride + 1) + 1;
    const end = s + stride;
    if (type === 6) {
      out.set(raw.subarray(s, end), o);
      o += stride;
    } else if (type === 2) {
      for (; s < end; s += 3, o += 4) {
        out[o] = raw[s]!;
        out[o + 1] = raw[s + 1]!;
        out[o + 2] = raw[s + 2]!;
        out[o + 3] = 255;
      }
    } else if (type === 0) {
      for (; s < end; s++, o += 4) {
        const v = raw[s]!;
        out[o] = out[o + 1] = out[o + 2] = v;
        out[o + 3] = 255;
      }
    } else if (type === 4) {
      for (; s < end; s += 2, o += 4) {
        const v = raw[s]!;
        out[o] = out[o + 1] = out[o + 2] = v;
        out[o + 3] = raw[s + 1]!;
      }
    } else {
      const pal = palette!;
      const n = pal.length / 3;
      for (; s < end; s++, o += 4) {
        const k = raw[s]!;
        if (k >= n) throw new Error(`the PNG uses palette entry ${k} of ${n}`);
        out[o] = pal[k * 3]!;
        out[o + 1] = pal[k * 3 + 1]!;
        out[o + 2] = pal[k * 3 + 2]!;
        out[o + 3] = trns && k < trns.length ? trns[k]! : 255;
      }
    }
  }
}
