// The Node host's image decoder (PNG, WebP, ...) for DEM tiles: the common PNG (8-bit, not
// interlaced) decoded directly (png-decode.ts: node:zlib and a row unfilter), anything else
// through sharp.
import sharp from './sharp.js';
import { LIMITS } from '../../limits.js';
import type { DecodedElevation, DecodedImage } from '../../sources/types.js';
import { decodePngElevation, decodePngFast } from './png-decode.js';

/** Bytes to 8-bit sRGB RGBA (alpha added when the image has none). Rejects on corrupt or unknown data. */
export async function decodeImage(bytes: Uint8Array): Promise<DecodedImage> {
  const direct = decodePngFast(bytes);
  if (direct) return direct;
  return decodeImageSharp(bytes);
}

/**
 * A DEM tile's metres straight from an RGB PNG (png-decode.ts: no RGBA8 image); undefined for any
 * other image, which the `dem` source then decodes through decodeImage.
 */
export function decodeImageElevation(bytes: Uint8Array, encoding: 'mapbox' | 'terrarium'): DecodedElevation | undefined {
  return decodePngElevation(bytes, encoding);
}

/** The general path: sharp (libvips) for every format and PNG variant it reads. */
export async function decodeImageSharp(bytes: Uint8Array): Promise<DecodedImage> {
  const { data, info } = await sharp(bytes, { limitInputPixels: LIMITS.maxImagePixels })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) throw new Error(`decoded to ${info.channels} channels, expected 4`);
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}
