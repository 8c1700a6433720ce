// Decoders we did not write, for image tests: libvips (sharp) and pngjs. Every image a user
// receives (PNG, WebP) is judged by what these decode it to, never by our encoder's bytes.
import { PNG } from 'pngjs';
import sharp from 'sharp';
import { toRGBA8 } from '../../src/render/encode.js';
import type { Raster } from '../../src/types.js';

export interface Decoded {
  width: number;
  height: number;
  /** Straight-alpha 8-bit RGBA. */
  data: Uint8Array;
}

/** libvips (sharp): PNG, WebP... to straight RGBA. Throws on a file libvips rejects. */
export async function decodeWithSharp(bytes: Uint8Array): Promise<Decoded> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) throw new Error(`sharp decoded ${info.channels} channels`);
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

/** pngjs (pure JavaScript, another PNG reader than libpng): PNG to straight RGBA. */
export function decodeWithPngjs(bytes: Uint8Array): Decoded {
  const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.byteLength) };
}

/** The pixels a raster should reach a user as (premultiplied float -> straight 8-bit, rounded). */
export function rgbaOf(r: Raster): Uint8Array {
  const out = toRGBA8(r);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/**
 * Where two straight RGBA images differ: the count of differing pixels and the first one, or
 * undefined when they are equal byte for byte. `{width, height}` must match too.
 */
export function pixelDifference(got: Decoded, want: { width: number; height: number; data: Uint8Array | Uint8ClampedArray }): string | undefined {
  if (got.width !== want.width || got.height !== want.height) return `size ${got.width}x${got.height}, want ${want.width}x${want.height}`;
  if (got.data.length !== want.data.length) return `${got.data.length} bytes, want ${want.data.length}`;
  let count = 0;
  let first = '';
  for (let i = 0; i < got.data.length; i += 4) {
    if (got.data[i] === want.data[i] && got.data[i + 1] === want.data[i + 1] && got.data[i + 2] === want.data[i + 2] && got.data[i + 3] === want.data[i + 3])
      continue;
    if (count++ === 0) {
      const p = i / 4;
      first = `(${p % got.width}, ${Math.floor(p / got.width)}) is ${[...got.data.subarray(i, i + 4)]}, want ${[...want.data.subarray(i, i + 4)]}`;
    }
  }
  return count === 0 ? undefined : `${count} pixels differ; first ${first}`;
}

/**
 * Largest and mean difference per pixel on premultiplied 8-bit values (colour under zero alpha
 * does not count), pixel by pixel: `perPixel[p]` is the largest channel difference of pixel p.
 */
export function premultipliedError(a: Uint8Array, b: Uint8Array | Uint8ClampedArray): { max: number; mean: number; perPixel: Float32Array } {
  const perPixel = new Float32Array(a.length / 4);
  let max = 0;
  let sum = 0;
  for (let i = 0, p = 0; i < a.length; i += 4, p++) {
    const aa = a[i + 3]! / 255;
    const ba = b[i + 3]! / 255;
    let m = Math.abs(a[i + 3]! - b[i + 3]!);
    for (let c = 0; c < 3; c++) m = Math.max(m, Math.abs(a[i + c]! * aa - b[i + c]! * ba));
    perPixel[p] = m;
    sum += m;
    if (m > max) max = m;
  }
  return { max, mean: sum / perPixel.length, perPixel };
}

/**
 * How the image file `bytes` (PNG or WebP), decoded by libvips, differs from the pixels of `r`
 * (toRGBA8); undefined when it holds exactly them. For lossless files: what a user receives.
 */
export async function differenceFromRaster(bytes: Uint8Array, r: Raster): Promise<string | undefined> {
  let got: Decoded;
  try {
    got = await decodeWithSharp(bytes);
  } catch (e) {
    return `libvips cannot read it: ${(e as Error).message}`;
  }
  return pixelDifference(got, { width: r.width, height: r.height, data: rgbaOf(r) });
}

/** How two image files differ once decoded by libvips (undefined when their pixels are equal). */
export async function decodedDifference(a: Uint8Array, b: Uint8Array): Promise<string | undefined> {
  return pixelDifference(await decodeWithSharp(a), await decodeWithSharp(b));
}

/** libvips' own WebP of a raster's pixels (toRGBA8), with the settings we ship (src/hosts/node/webp.ts: quality 90, effort 2). */
export async function libvipsWebp(r: Raster): Promise<Buffer> {
  const px = rgbaOf(r);
  return sharp(Buffer.from(px.buffer, px.byteOffset, px.byteLength), { raw: { width: r.width, height: r.height, channels: 4 } })
    .webp({ quality: 90, effort: 2 })
    .toBuffer();
}

export interface LossyComparison {
  /** Pixels further from toRGBA8 than in libvips' encode by more than 1/255 (premultiplied). */
  worse: number;
  /** Our error: largest and mean per pixel (premultiplied 1/255 units). */
  max: number;
  mean: number;
  /** libvips' own encode's mean error. */
  libvipsMean: number;
}

/**
 * A lossy file (WebP) of raster `r` judged against libvips' own WebP of the same pixels, both
 * decoded by libvips: the witness for a lossy tile is how close an encoder we did not write gets.
 */
export async function lossyAgainstLibvips(bytes: Uint8Array, r: Raster): Promise<LossyComparison> {
  const want = rgbaOf(r);
  const ours = await decodeWithSharp(bytes);
  if (ours.width !== r.width || ours.height !== r.height) throw new Error(`decoded ${ours.width}x${ours.height}, want ${r.width}x${r.height}`);
  const theirs = await decodeWithSharp(await libvipsWebp(r));
  const a = premultipliedError(ours.data, want);
  const b = premultipliedError(theirs.data, want);
  let worse = 0;
  for (let p = 0; p < a.perPixel.length; p++) if (a.perPixel[p]! > b.perPixel[p]! + 1) worse++;
  return { worse, max: a.max, mean: a.mean, libvipsMean: b.mean };
}
