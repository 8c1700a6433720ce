// PNG encoding (our own: libdeflate, else node:zlib, over the smallest lossless form of the pixels) and decoding
// through sharp (Node host only).
import zlib from 'node:zlib';
import sharp from './sharp.js';
import { fromRGBA8, pngImage, type PngImage } from '../../render/encode.js';
import { deflate, usingLibdeflate, ZLIB_MEM_LEVEL } from './deflate.js';
import { uniformOf } from '../../backends/cpu/uniform.js';
import type { Raster } from '../../types.js';

export interface PngOptions {
  /**
   * Compression level 0-9 of every tile. Default: PNG_DEFAULT_LEVEL (Up rows PNG_UP_LEVEL) with
   * node:zlib; with libdeflate (./deflate.ts), which takes zlib's level numbers as its own,
   * LIBDEFLATE_LEVEL (indexed LIBDEFLATE_INDEXED_LEVEL, Up rows LIBDEFLATE_UP_LEVEL)
   * (docs/server.md, PNG encoding).
   */
  compressionLevel?: number;
}

/**
 * node:zlib's level of every tile unless PngOptions says otherwise (see compressionLevel), but
 * PNG_UP_LEVEL's: on the bundled examples' tiles level 6 (sharp's default) cost 1.3-2.2x the
 * deflate CPU of 4 for 0.5-3% fewer bytes (indexed and unfiltered rows) and up to ~8% on
 * Sub-filtered gradients (docs/server.md, PNG encoding).
 */
export const PNG_DEFAULT_LEVEL = 4;

/**
 * node:zlib's level of Up-filtered rows (encode.ts chooseFilter: noise varying smoothly down the
 * rows) unless PngOptions says otherwise: what is left after Up is mostly small residuals that
 * matches barely shorten, so level 1 costs ~45% less deflate CPU than 4 for ~4% more bytes (the
 * terrain and watercolour examples' tiles; still ~15% fewer than those rows unfiltered at level 4).
 */
export const PNG_UP_LEVEL = 1;

/**
 * libdeflate's level of truecolour tiles with None or Sub rows: on the bundled examples' tiles
 * 1-5% fewer bytes than node:zlib at PNG_DEFAULT_LEVEL for ~35-50% less deflate CPU. Its level 2
 * costs ~25% less again and is as small on the textured tiles, but 7% larger on the heatmap's
 * gradients (docs/server.md, PNG encoding).
 */
export const LIBDEFLATE_LEVEL = 4;

/** libdeflate's level of indexed tiles: 0.3-9% fewer bytes than node:zlib at PNG_DEFAULT_LEVEL (level 4: up to 1% more) for ~30% less CPU. */
export const LIBDEFLATE_INDEXED_LEVEL = 5;

/** libdeflate's level of Up rows: 2-5% fewer bytes than node:zlib at PNG_UP_LEVEL for ~55% less deflate CPU. */
export const LIBDEFLATE_UP_LEVEL = 1;

/** zlib's memLevel for every tile (./deflate.ts ZLIB_MEM_LEVEL). */
export const PNG_MEM_LEVEL = ZLIB_MEM_LEVEL;

/**
 * libdeflate's level of truecolour None rows where fewer than GRAIN_EQUAL_LEFT of the pixels equal
 * the one to their left (grain over the whole tile: maplibre-effects' and hand-drawn's paper,
 * 2.5-12% of their pixels): ~25% less deflate CPU than its level 4 for 0.6-2% more bytes on those
 * tiles (still 1.5-4% fewer than node:zlib's at level 4). Gradients left unfiltered (the heatmap's
 * ramps, 19-90% of pixels equal to their left) keep level 4: level 2 makes them 7% larger
 * (docs/server.md, PNG encoding).
 */
export const LIBDEFLATE_GRAIN_LEVEL = 2;
export const GRAIN_EQUAL_LEFT = 0.15;

/**
 * The share of pixels equal to the one to their left in every 8th row (from row 4) of
 * unfiltered truecolour scanlines: pngImage's count (PngImage.equalLeft, from its filter choice's
 * pass over the pixels), else counted here over the scanlines (~0.02 ms a 256 px tile).
 */
export function equalLeftShare(img: PngImage): number {
  if (img.equalLeft !== undefined) return img.equalLeft;
  const bpp = img.colorType === 6 ? 4 : 3;
  const stride = 1 + img.width * bpp;
  const d = img.scanlines;
  let equal = 0;
  let n = 0;
  for (let y = Math.min(4, img.height - 1); y < img.height; y += 8) {
    const end = y * stride + stride;
    for (let i = y * stride + 1 + bpp; i < end; i += bpp) {
      n++;
      if (d[i] === d[i - bpp] && d[i + 1] === d[i + 1 - bpp] && d[i + 2] === d[i + 2 - bpp] && (bpp === 3 || d[i + 3] === d[i + 3 - bpp])) equal++;
    }
  }
  return n === 0 ? 1 : equal / n;
}

/** The level a tile's rows deflate at here. */
export function levelOf(img: PngImage, options: PngOptions = {}): number {
  if (options.compressionLevel !== undefined) return options.compressionLevel;
  const up = img.filter === 2;
  if (!usingLibdeflate()) return up ? PNG_UP_LEVEL : PNG_DEFAULT_LEVEL;
  if (up) return LIBDEFLATE_UP_LEVEL;
  if (img.colorType === 3) return LIBDEFLATE_INDEXED_LEVEL;
  return img.filter === 0 && equalLeftShare(img) < GRAIN_EQUAL_LEFT ? LIBDEFLATE_GRAIN_LEVEL : LIBDEFLATE_LEVEL;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

let crcTable: Int32Array | undefined;
/** CRC-32 of a chunk's type and data (zlib.crc32 from Node 20.15; a table otherwise). */
function crc32(bytes: Uint8Array): number {
  const native = (zlib as { crc32?: (d: Uint8Array) => number }).crc32;
  if (native) return native(bytes);
  if (!crcTable) {
    crcTable = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c;
    }
  }
  let c = -1;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]!) & 255]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** The PNG file of image data (src/render/encode.ts pngImage), in one buffer of its own (transferable). */
export function pngFile(img: PngImage, options: PngOptions = {}): Uint8Array {
  const idat = deflate(img.scanlines, levelOf(img, options));
  const chunks: [string, Uint8Array][] = [];
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, img.width);
  dv.setUint32(4, img.height);
  ihdr[8] = img.bitDepth;
  ihdr[9] = img.colorType;
  chunks.push(['IHDR', ihdr]);
  if (img.palette) chunks.push(['PLTE', img.palette]);
  if (img.alpha) chunks.push(['tRNS', img.alpha]);
  chunks.push(['IDAT', idat], ['IEND', new Uint8Array(0)]);
  let size = SIGNATURE.length;
  for (const [, d] of chunks) size += 12 + d.length;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(SIGNATURE);
  let o = SIGNATURE.length;
  for (const [type, d] of chunks) {
    view.setUint32(o, d.length);
    for (let k = 0; k < 4; k++) out[o + 4 + k] = type.charCodeAt(k);
    out.set(d, o + 8);
    view.setUint32(o + 8 + d.length, crc32(out.subarray(o + 4, o + 8 + d.length)));
    o += 12 + d.length;
  }
  return out;
}

/**
 * A raster (premultiplied float RGBA) as PNG, lossless: indexed when it has at most 256 colours,
 * RGB when opaque, rows unfiltered or Sub-filtered for gradients. On map tiles about 20% smaller
 * in total than sharp's default encode of the same pixels and about half its CPU
 * (tests/server/png.test.ts, bench/server.mjs).
 */
export function encodePngSync(r: Raster, options: PngOptions = {}): Uint8Array {
  const t0 = performance.now();
  const png = uniformPng(r, options) ?? pngFile(pngImage(r), options);
  pngEncodeTimings.count++;
  pngEncodeTimings.ms += performance.now() - t0;
  return png;
}

/**
 * The PNG files of one-colour rasters (open sea, bare land, an empty layer) already encoded, by
 * size, pixel bits and zlib level, least recently used out: ~100 bytes each.
 */
const uniformPngs = new Map<string, Uint8Array>();
const UNIFORM_PNGS_MAX = 64;

/**
 * A raster whose every pixel has the same bits is encoded once per size, colour and level: later
 * ones get a copy of those bytes, which are the bytes pngFile(pngImage(r)) gives (the same pixels
 * in, the same file out). A third of the world example's tiles are open sea; their encode was
 * ~0.4 ms, the test for one colour ~0.05 (it stops at the first pixel that differs). undefined
 * for any other raster.
 */
function uniformPng(r: Raster, options: PngOptions): Uint8Array | undefined {
  const n = r.width * r.height;
  if (n === 0) return undefined;
  const d = r.data;
  // A raster marked one value everywhere (src/backends/cpu/uniform.ts: open sea, an empty layer)
  // is one already; else every pixel's 16 bytes equal the pixel's before: the bytes from the
  // second pixel on equal those up to the last but one (one native compare).
  if (n > 1 && !uniformOf(d)) {
    const bytes = Buffer.from(d.buffer, d.byteOffset, n * 16);
    if (bytes.compare(bytes, 0, (n - 1) * 16, 16, n * 16) !== 0) return undefined;
  }
  const bits = new Int32Array(d.buffer, d.byteOffset, 4);
  const [c0, c1, c2, c3] = bits;
  const key = `${r.width} ${r.height} ${c0} ${c1} ${c2} ${c3} ${options.compressionLevel ?? PNG_DEFAULT_LEVEL} ${usingLibdeflate()}`;
  let png = uniformPngs.get(key);
  if (png)
    uniformPngs.delete(key); // re-inserted below: most recently used
  else png = pngFile(pngImage(r), options);
  uniformPngs.set(key, png);
  if (uniformPngs.size > UNIFORM_PNGS_MAX) uniformPngs.delete(uniformPngs.keys().next().value!);
  return png.slice(); // a buffer of its own: the caller may transfer it
}

/** PNG encodes done by this thread and their wall time (the GPU bench's per-tile breakdown). */
export const pngEncodeTimings = { count: 0, ms: 0 };

export async function encodePng(r: Raster, options: PngOptions = {}): Promise<Buffer> {
  const png = encodePngSync(r, options);
  return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
}

export async function decodePngRGBA(bytes: Uint8Array): Promise<{ data: Uint8Array; width: number; height: number }> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

export async function decodePng(bytes: Uint8Array): Promise<Raster> {
  const { data, width, height } = await decodePngRGBA(bytes);
  return fromRGBA8(data, width, height);
}
