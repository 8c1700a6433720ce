// Output conversion: premultiplied float sRGB -> 8-bit straight-alpha RGBA (what PNG stores), and
// the PNG image data of a raster (colour type, palette, unfiltered scanlines) that a host deflates.
import type { Raster } from '../types.js';
import { arenaAlloc, arenaFree, inArena } from '../util/wasm-arena.js';
import { wasmKernels, type WasmKernels } from '../util/wasm-kernels.js';
import { nativeKernels } from '../util/native-kernels.js';

/**
 * 8-bit straight-alpha RGBA of a premultiplied float raster. `out`: where to write (reused
 * scratch); it must hold width * height * 4 bytes. With WebAssembly SIMD the pass is png-rows.wat's
 * `convert` (the PNG encoder's, the same bytes as toRGBA8Reference, its TypeScript reference), on
 * a raster in the canvas arena where it lies.
 */
export function toRGBA8(r: Raster, out?: Uint8ClampedArray): Uint8ClampedArray {
  const n = r.width * r.height;
  const k = n > 0 && n <= PNG_SIMD_MAX_PIXELS ? rowKernels() : null;
  if (!k) return toRGBA8Reference(r, out);
  const fn = inArena(r.data) ? k.onArena() : null;
  const block = fn ? rgbaBlock(n) : undefined;
  let bytes: Uint8ClampedArray;
  if (fn && block) {
    fn.convert(r.data.byteOffset, block.byteOffset, n);
    bytes = new Uint8ClampedArray(block.buffer, block.byteOffset, n * 4);
  } else {
    k.reserve(n * 20);
    k.f32(0, n * 4).set(r.data.subarray(0, n * 4));
    k.fn.convert(0, n * 16, n);
    bytes = new Uint8ClampedArray(k.u8(n * 16, n * 4).buffer, n * 16, n * 4);
  }
  if (!out) return bytes.slice();
  out.set(bytes);
  return out;
}

let rgbaScratch: Float32Array | undefined;

/** An arena block for toRGBA8's packed pixels (kept while it holds n pixels and is at most 4x that), or undefined without room. */
function rgbaBlock(n: number): Float32Array | undefined {
  if (rgbaScratch && rgbaScratch.length >= n && rgbaScratch.length <= 4 * n) return rgbaScratch;
  if (rgbaScratch) arenaFree(rgbaScratch);
  rgbaScratch = arenaAlloc(n, false);
  return rgbaScratch;
}

/** toRGBA8 in TypeScript alone: the reference of its WebAssembly form. */
export function toRGBA8Reference(r: Raster, out?: Uint8ClampedArray): Uint8ClampedArray {
  const n = r.width * r.height;
  if (out) out.fill(0, 0, n * 4);
  else out = new Uint8ClampedArray(n * 4);
  const d = r.data;
  for (let i = 0; i < n * 4; i += 4) {
    const a = d[i + 3]!;
    if (a <= 0) continue;
    if (a >= 1) {
      // Opaque (most map pixels): no division. The clamped store rounds.
      out[i] = d[i]! * 255;
      out[i + 1] = d[i + 1]! * 255;
      out[i + 2] = d[i + 2]! * 255;
      out[i + 3] = 255;
      continue;
    }
    const inv = 255 / a;
    out[i] = d[i]! * inv;
    out[i + 1] = d[i + 1]! * inv;
    out[i + 2] = d[i + 2]! * inv;
    out[i + 3] = a * 255;
  }
  return out;
}

/** 8-bit straight RGBA -> premultiplied float raster (PNG inputs, DEM tiles, tests). */
export function fromRGBA8(data: Uint8Array | Uint8ClampedArray, width: number, height: number): Raster {
  const out = new Float32Array(width * height * 4);
  for (let i = 0; i < out.length; i += 4) {
    const a = data[i + 3]! / 255;
    out[i] = (data[i]! / 255) * a;
    out[i + 1] = (data[i + 1]! / 255) * a;
    out[i + 2] = (data[i + 2]! / 255) * a;
    out[i + 3] = a;
  }
  return { kind: 'raster', width, height, data: out };
}

/**
 * A PNG's image data before compression: the smallest lossless form of the pixels (indexed at 1, 2,
 * 4 or 8 bits when there are at most 256 RGBA colours, else RGB when every pixel is opaque, else
 * RGBA) and its scanlines. Flat map colours compress best unfiltered, and an index is a quarter of
 * an RGBA pixel to deflate.
 */
export interface PngImage {
  width: number;
  height: number;
  /** 2 RGB, 3 indexed, 6 RGBA. */
  colorType: 2 | 3 | 6;
  bitDepth: 1 | 2 | 4 | 8;
  /** Indexed: RGB triples (PLTE). */
  palette?: Uint8Array;
  /** Indexed with some alpha below 255: the alpha of each palette entry (tRNS). */
  alpha?: Uint8Array;
  /**
   * The filter of every row: 0 none, 1 sub (truecolour gradients), 2 up (truecolour noise that
   * varies smoothly down the rows: terrain's and watercolour's textures; chooseFilter).
   */
  filter: 0 | 1 | 2;
  /** height * (1 + bytes per row), each row its filter byte then the filtered row. A view of scratch memory reused by the next call: deflate it before then. */
  scanlines: Uint8Array;
  /**
   * Truecolour: the share of pixels (x >= 1) equal to the one to their left in every 8th row from
   * row min(4, height - 1) (1 when no pixel has one), counted by the filter choice's pass: the
   * deflate level's grain test (src/hosts/node/png.ts equalLeftShare).
   */
  equalLeft?: number;
}

// Scratch reused between calls (one encode at a time per thread; JS runs one at a time).
let pxScratch = new Int32Array(0);
let idxScratch = new Uint8Array(0);
let lineScratch = new Uint8Array(0);
const SLOTS = 1024; // open-addressing table of up to 256 colours
const slotKey = new Int32Array(SLOTS);
const slotIdx = new Int16Array(SLOTS);
/** Palette entries as packed straight RGBA (r | g << 8 | b << 16 | a << 24, as int32). */
const paletteRGBA = new Int32Array(256);

/** ToUint8Clamp, exactly as a Uint8ClampedArray store rounds (ties to even). */
function u8(x: number): number {
  if (!(x > 0)) return 0;
  if (x >= 255) return 255;
  const f = Math.floor(x);
  const d = x - f;
  return d > 0.5 ? f + 1 : d < 0.5 ? f : f + (f & 1);
}

/** png-rows.wat: the passes below in WebAssembly SIMD, bit for bit (null without SIMD). */
interface RowsExports {
  convert(input: number, out: number, n: number): number;
  palette(px: number, n: number, idx: number, tab: number): number;
  stats(px: number, width: number, height: number, res: number): void;
  rows(px: number, width: number, height: number, out: number, filter: number, channels: number): void;
}
const rowKernels = wasmKernels<RowsExports>('png-rows');

/**
 * The PNG image data of a raster (premultiplied float RGBA), its pixels converted exactly as
 * toRGBA8 converts them. One pass converts, counts colours (giving up past 256) and writes palette
 * indices; a second writes the scanlines. With WebAssembly SIMD the conversion, the filter choice
 * and the truecolour scanlines run in png-rows.wat, giving the same bytes as these TypeScript
 * loops (pngImageReference, kept as the tests' reference): ~3x less CPU on map tiles.
 */
export function pngImage(r: Raster): PngImage {
  const k = r.width * r.height <= PNG_SIMD_MAX_PIXELS ? rowKernels() : null;
  return k ? pngImageSimd(k, r) : pngImageReference(r);
}

/**
 * The largest raster png-rows.wat encodes (1024 x 1024: a 512 px tile at pixel ratio 2). Its
 * memory, ~24 bytes a pixel, never shrinks, so a larger render (up to LIMITS.maxCanvasPixels, 400
 * MB there) takes the TypeScript loops, whose scratch is ~9 bytes a pixel.
 */
export const PNG_SIMD_MAX_PIXELS = 1 << 20;

/** Whether pngImage runs png-rows.wat here (WebAssembly SIMD). */
export function pngImageSimdAvailable(): boolean {
  return rowKernels() !== null;
}

/** pngImage in TypeScript alone: the reference of its WebAssembly form. */
export function pngImageReference(r: Raster): PngImage {
  const { width, height } = r;
  const { count, indexed, opaque } = convert(r);
  return indexed ? indexedImage(width, height, count, opaque, idxScratch, paletteRGBA) : truecolourImage(width, height, opaque);
}

/** The bytes of png-rows.wat's palette table (1024 keys, 1024 indices, 256 palette entries; i32 each). */
const TAB_BYTES = 9216;

/**
 * pngImage with png-rows.wat. Its memory: the raster's floats at 0, the packed pixels after them,
 * then the scanlines (16 bytes of room past them), the three counts of the filter choice (16
 * bytes), the palette table (TAB_BYTES) and a palette index a pixel. A raster lying in the canvas
 * arena (a render worker's output, RenderOptions.arenaOutput) is read where it lies by the
 * module's instance on the arena, the rest in a block of the arena (arenaBlock): no copy of the
 * floats.
 */
function pngImageSimd(k: WasmKernels<RowsExports>, r: Raster): PngImage {
  const { width, height } = r;
  const n = width * height;
  const lineBytes = (height * (width * 4 + 1) + 16 + 3) & ~3;
  const fn = inArena(r.data) ? k.onArena() : null;
  const work = n * 4 + lineBytes + 16 + TAB_BYTES + n;
  const block = fn ? arenaBlock(work) : undefined;
  // A host's native conversion (the Node host's AVX-512 addon: eight pixels a step, the same bytes)
  // reads the raster where it lies.
  const native = nativeKernels()?.convert;
  let at: RowsAt;
  if (fn && block) at = { fn, buffer: block.buffer, inAt: r.data.byteOffset, pxAt: block.byteOffset };
  else {
    k.reserve(n * 16 + work);
    if (!native) k.f32(0, n * 4).set(r.data.subarray(0, n * 4));
    at = { fn: k.fn, buffer: k.u8(0, 0).buffer, inAt: 0, pxAt: n * 16 };
  }
  const linesAt = at.pxAt + n * 4;
  const resAt = linesAt + lineBytes;
  const tabAt = resAt + 16;
  const idxAt = tabAt + TAB_BYTES;
  const opaque = (native ? native(r.data, new Int32Array(at.buffer, at.pxAt, n), n, 0) : at.fn.convert(at.inAt, at.pxAt, n)) === 1;
  const count = at.fn.palette(at.pxAt, n, idxAt, tabAt);
  if (count <= 256) return indexedImage(width, height, count, opaque, new Uint8Array(at.buffer, idxAt, n), new Int32Array(at.buffer, tabAt + 8192, count));
  const px = new Int32Array(at.buffer, at.pxAt, n);
  at.fn.stats(at.pxAt, width, height, resAt);
  const [changesNone, changesSub, equal] = new Int32Array(at.buffer, resAt, 3);
  const channels = opaque ? 3 : 4;
  const filter = chooseFilter(px, width, height, channels, changesNone!, changesSub!);
  at.fn.rows(at.pxAt, width, height, linesAt, filter, channels);
  return {
    width,
    height,
    colorType: channels === 3 ? 2 : 6,
    bitDepth: 8,
    filter,
    scanlines: new Uint8Array(at.buffer, linesAt, height * (width * channels + 1)),
    equalLeft: equalLeftShareOf(equal!, width, height),
  };
}

/** The first row of the equal-left sample (PngImage.equalLeft): min(4, height - 1). */
function equalLeftStart(height: number): number {
  return Math.min(4, height - 1);
}

/** PngImage.equalLeft from the count of equal pixels in its sample. */
function equalLeftShareOf(equal: number, width: number, height: number): number {
  const rows = height > 0 ? Math.floor((height - 1 - equalLeftStart(height)) / 8) + 1 : 0;
  const n = rows * Math.max(0, width - 1);
  return n === 0 ? 1 : equal / n;
}

/** The count of PngImage.equalLeft's sample over packed pixels (png-rows.wat stats' third count). */
function equalLeftCount(px: Int32Array, width: number, height: number): number {
  let equal = 0;
  for (let y = equalLeftStart(height); y < height; y += 8) for (let p = y * width + 1, end = y * width + width; p < end; p++) if (px[p] === px[p - 1]) equal++;
  return equal;
}

/** Where pngImageSimd's passes run: an instance, its memory, the floats' and packed pixels' byte offsets. */
interface RowsAt {
  fn: RowsExports;
  buffer: ArrayBufferLike;
  inAt: number;
  pxAt: number;
}

let encodeBlock: Float32Array | undefined;

/**
 * The arena block of pngImageSimd's in-place path, kept from one encode to the next (its
 * scanlines are the PngImage's until the next call, as the scratch memory's are): reused while it
 * holds `bytes` and is at most four times that (a 1024 px encode does not keep 8 MiB of the arena
 * for the 256 px tiles after it); undefined when the arena has no room (the copying path runs).
 */
function arenaBlock(bytes: number): Float32Array | undefined {
  const length = (bytes + 3) >> 2;
  if (encodeBlock && encodeBlock.length >= length && encodeBlock.length <= 4 * length) return encodeBlock;
  if (encodeBlock) arenaFree(encodeBlock);
  encodeBlock = arenaAlloc(length, false);
  return encodeBlock;
}

/**
 * The pass over the pixels: each converted to packed straight RGBA8 in pxScratch, and, while the
 * colours number 256 at most, its palette index in idxScratch (the palette in paletteRGBA).
 */
function convert(r: Raster): { count: number; indexed: boolean; opaque: boolean } {
  const n = r.width * r.height;
  const d = r.data;
  if (pxScratch.length < n) {
    pxScratch = new Int32Array(n);
    idxScratch = new Uint8Array(n);
  }
  const px = pxScratch;
  const idx = idxScratch;
  slotIdx.fill(-1);
  let count = 0;
  let indexed = true;
  let opaque = true;
  // The previous pixel's packed colour; `haveLast` rather than a sentinel, because every int32 is
  // a colour (-1 is opaque white).
  let last = 0;
  let haveLast = false;
  let lastIdx = 0;
  // A pixel equal to the one before (runs of one colour, most of a map tile) takes its value and
  // index without converting or looking up, and so does the rest of its run, found by one scan.
  // Pixels compare as two float64s over their four float32s: float64 equality is bit equality
  // except NaN (never equal: no run, each pixel converts on its own) and -0 == +0, which can only
  // pair a channel of +0 with one of -0, and both convert to 0. The float64 view needs an 8-byte
  // aligned buffer (the buffer pool's rasters always are); another is copied first.
  const wide = (d.byteOffset & 7) === 0 ? new Float64Array(d.buffer, d.byteOffset, n * 2) : new Float64Array(new Float32Array(d.subarray(0, n * 4)).buffer);
  let v = 0;
  for (let p = 0, i = 0; p < n; p++, i += 4) {
    if (p > 0 && wide[p * 2] === wide[p * 2 - 2] && wide[p * 2 + 1] === wide[p * 2 - 1]) {
      const w0 = wide[p * 2]!;
      const w1 = wide[p * 2 + 1]!;
      let q = p + 1;
      while (q < n && wide[q * 2] === w0 && wide[q * 2 + 1] === w1) q++;
      if (q - p > 32) {
        px.fill(v, p, q);
        idx.fill(lastIdx, p, q);
      } else
        for (let k = p; k < q; k++) {
          px[k] = v;
          idx[k] = lastIdx;
        }
      p = q - 1;
      i = p * 4;
      continue;
    }
    const a = d[i + 3]!;
    if (a >= 1) {
      // Opaque (most map pixels): no division. x * 255 of a float32 is exact in a double, and for
      // x in [0, 1] only 127.5 is a tie, which both roundings take to 128.
      const rr = d[i]! * 255;
      const gg = d[i + 1]! * 255;
      const bb = d[i + 2]! * 255;
      // Alpha 255, packed as an int32 (no doubles in this loop).
      v =
        (rr > 0 ? (rr < 255 ? (rr + 0.5) | 0 : 255) : 0) |
        ((gg > 0 ? (gg < 255 ? (gg + 0.5) | 0 : 255) : 0) << 8) |
        ((bb > 0 ? (bb < 255 ? (bb + 0.5) | 0 : 255) : 0) << 16) |
        -0x1000000;
    } else if (a > 0) {
      const inv = 255 / a;
      v = u8(d[i]! * inv) | (u8(d[i + 1]! * inv) << 8) | (u8(d[i + 2]! * inv) << 16) | (u8(a * 255) << 24);
      if (v >>> 24 !== 255) opaque = false;
    } else {
      v = 0;
      opaque = false;
    }
    px[p] = v;
    if (!indexed) continue;
    if (!haveLast || v !== last) {
      last = v;
      haveLast = true;
      let h = (Math.imul(v, 0x9e3779b1) >>> 22) & (SLOTS - 1);
      for (;;) {
        const k = slotIdx[h]!;
        if (k < 0) {
          if (count === 256) {
            indexed = false; // a 257th colour
            break;
          }
          slotKey[h] = v;
          slotIdx[h] = count;
          paletteRGBA[count] = v;
          lastIdx = count++;
          break;
        }
        if (slotKey[h] === v) {
          lastIdx = k;
          break;
        }
        h = (h + 1) & (SLOTS - 1);
      }
    }
    idx[p] = lastIdx;
  }
  return { count, indexed, opaque };
}

/**
 * Palette colour (type 3) scanlines, filter none, at the fewest bits per pixel that hold count
 * colours: `idx` each pixel's index, `pal` the palette as packed straight RGBA.
 */
function indexedImage(width: number, height: number, count: number, opaque: boolean, idx: Uint8Array, pal: Int32Array): PngImage {
  const bitDepth = count <= 2 ? 1 : count <= 4 ? 2 : count <= 16 ? 4 : 8;
  const perByte = 8 / bitDepth;
  const rowBytes = Math.ceil(width / perByte);
  const out = lines(height * (rowBytes + 1));
  let o = 0;
  for (let y = 0, p = 0; y < height; y++, p += width) {
    out[o++] = 0; // filter: none
    if (bitDepth === 8) {
      out.set(idx.subarray(p, p + width), o);
      o += width;
      continue;
    }
    // Pixels packed from the high bits down, the last byte padded with zeros.
    const end = p + width;
    let q = p;
    if (bitDepth === 1)
      for (; q + 8 <= end; q += 8)
        out[o++] =
          (idx[q]! << 7) |
          (idx[q + 1]! << 6) |
          (idx[q + 2]! << 5) |
          (idx[q + 3]! << 4) |
          (idx[q + 4]! << 3) |
          (idx[q + 5]! << 2) |
          (idx[q + 6]! << 1) |
          idx[q + 7]!;
    else if (bitDepth === 2) for (; q + 4 <= end; q += 4) out[o++] = (idx[q]! << 6) | (idx[q + 1]! << 4) | (idx[q + 2]! << 2) | idx[q + 3]!;
    else for (; q + 2 <= end; q += 2) out[o++] = (idx[q]! << 4) | idx[q + 1]!;
    if (q < end) {
      let byte = 0;
      let k = 0;
      for (; q < end; q++, k++) byte = (byte << bitDepth) | idx[q]!;
      out[o++] = byte << (bitDepth * (perByte - k));
    }
  }
  const palette = new Uint8Array(count * 3);
  for (let k = 0; k < count; k++) {
    const v = pal[k]!;
    palette[k * 3] = v & 255;
    palette[k * 3 + 1] = (v >>> 8) & 255;
    palette[k * 3 + 2] = (v >>> 16) & 255;
  }
  let alpha: Uint8Array | undefined;
  if (!opaque) {
    alpha = new Uint8Array(count);
    for (let k = 0; k < count; k++) alpha[k] = pal[k]! >>> 24;
  }
  return { width, height, colorType: 3, bitDepth, palette, alpha, filter: 0, scanlines: out };
}

/**
 * The filter of a truecolour image's rows, from the counts of where the coded pixel changes along
 * the rows with None (changesNone) and with Sub (changesSub): Sub when its count is at most 2%
 * higher (gradients); else Up when the pixels change almost everywhere along the rows (noise: at
 * least 85% of them) and the bytes' order-0 entropy over every 8th row falls below 0.75 of the
 * unfiltered bytes' with Up (noise that varies smoothly down the rows: terrain's paper and wobble,
 * watercolour's washes); else None (flat colours, and noise that repeats, which deflate matches
 * unfiltered: hand-drawn's grain). On the bundled examples' truecolour tiles Up where chosen gives
 * ~19% fewer bytes at the same zlib level (terrain, watercolour), and picks within 1% of the
 * smaller of None and Up on every example (docs/server.md, PNG encoding).
 */
export function chooseFilter(px: Int32Array, width: number, height: number, channels: 3 | 4, changesNone: number, changesSub: number): 0 | 1 | 2 {
  if (changesSub < 1.02 * changesNone) return 1;
  if (height < 2 || changesNone < 0.85 * height * (width - 1)) return 0;
  const raw = histRaw;
  const up = histUp;
  raw.fill(0);
  up.fill(0);
  let n = 0;
  for (let y = 1; y < height; y += 8) {
    for (let p = y * width, end = p + width; p < end; p++) {
      const v = px[p]!;
      const u = px[p - width]!;
      for (let c = 0; c < channels * 8; c += 8) {
        const b = (v >>> c) & 255;
        raw[b]!++;
        up[(b - (u >>> c)) & 255]!++;
      }
    }
    n += width * channels;
  }
  return entropyBits(up, n) < 0.75 * entropyBits(raw, n) ? 2 : 0;
}

const histRaw = new Int32Array(256);
const histUp = new Int32Array(256);

/** n times the order-0 entropy (bits) of the byte counts `hist` over n bytes. */
function entropyBits(hist: Int32Array, n: number): number {
  let sum = 0;
  for (let i = 0; i < 256; i++) {
    const c = hist[i]!;
    if (c > 0) sum += c * Math.log2(c);
  }
  return n * Math.log2(n) - sum;
}

/** Truecolour scanlines (type 2, or 6 with alpha), filter none, sub or up (chooseFilter). */
function truecolourImage(width: number, height: number, opaque: boolean): PngImage {
  const px = pxScratch;
  // Truecolour. Filter None suits flat colours with a little anti-aliasing (each row repeats the
  // row above, which deflate matches); Sub suits gradients (blurs, heatmaps), where the difference
  // to the left neighbour repeats. Count for each where the coded pixel differs from the one before:
  // Sub when its count is at most 2% higher. On the 326 truecolour tiles of the bundled example
  // (z1-4) and a heatmap (z3-4) this lands within 0.3% of choosing the smaller output per tile
  // (1.05 instead of 1.02: 0.9% and several tiles 8% larger; 1.0: 4%). Up: chooseFilter.
  let changesNone = 0;
  let changesSub = 0;
  for (let y = 0, p = 0; y < height; y++, p++) {
    let prevDelta = 0; // a count for a heuristic: the row start needs no exact treatment
    for (let x = 1; x < width; x++) {
      const a = px[++p]!;
      const b = px[p - 1]!;
      if (a !== b) changesNone++;
      // Bytewise a - b (mod 256 in each byte) without borrows between bytes.
      const delta = ((a | 0x80808080) - (b & 0x7f7f7f7f)) ^ ((a ^ ~b) & 0x80808080);
      if (delta !== prevDelta) changesSub++;
      prevDelta = delta;
    }
  }
  const channels = opaque ? 3 : 4;
  const filter = chooseFilter(px, width, height, channels, changesNone, changesSub);
  const out = lines(height * (width * channels + 1));
  let o = 0;
  // One loop per filter and channel count (no branch per pixel). Sub: each byte minus the same
  // channel of the pixel to its left (0 left of the row), modulo 256 by the byte store. Up: each
  // byte minus the same byte of the row above (0 above the first row).
  for (let y = 0, p = 0; y < height; y++) {
    out[o++] = filter;
    const end = p + width;
    if (filter === 2) {
      const above = y > 0 ? width : -1;
      for (; p < end; p++) {
        const v = px[p]!;
        const u = above > 0 ? px[p - above]! : 0;
        out[o] = v - u;
        out[o + 1] = (v >>> 8) - (u >>> 8);
        out[o + 2] = (v >>> 16) - (u >>> 16);
        if (channels === 4) out[o + 3] = (v >>> 24) - (u >>> 24);
        o += channels;
      }
    } else if (filter === 0 && channels === 3)
      for (; p < end; p++) {
        const v = px[p]!;
        out[o] = v;
        out[o + 1] = v >>> 8;
        out[o + 2] = v >>> 16;
        o += 3;
      }
    else if (filter === 0)
      for (; p < end; p++) {
        const v = px[p]!;
        out[o] = v;
        out[o + 1] = v >>> 8;
        out[o + 2] = v >>> 16;
        out[o + 3] = v >>> 24;
        o += 4;
      }
    else {
      let prev = 0;
      for (; p < end; p++) {
        const v = px[p]!;
        out[o] = v - prev;
        out[o + 1] = (v >>> 8) - (prev >>> 8);
        out[o + 2] = (v >>> 16) - (prev >>> 16);
        if (channels === 4) out[o + 3] = (v >>> 24) - (prev >>> 24);
        o += channels;
        prev = v;
      }
    }
  }
  return {
    width,
    height,
    colorType: channels === 3 ? 2 : 6,
    bitDepth: 8,
    filter,
    scanlines: out,
    equalLeft: equalLeftShareOf(equalLeftCount(px, width, height), width, height),
  };
}

function lines(bytes: number): Uint8Array {
  if (lineScratch.length < bytes) lineScratch = new Uint8Array(bytes);
  return lineScratch.subarray(0, bytes);
}
