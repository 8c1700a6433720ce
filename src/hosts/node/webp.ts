// WebP tiles (issue 15): WebP from the PNG a render produced, in the Node host (sharp, libwebp).
// Lossy at quality 90, effort 2: on the golden tiles 5-10x smaller than PNG and ~10 ms to
// encode, where lossless WebP took 50-250 ms for 25-50% savings. PNG stays the exact format.
import sharp from 'sharp';

export type TileFormat = 'png' | 'webp';
export const TILE_FORMATS: readonly TileFormat[] = ['png', 'webp'];

export async function pngToWebp(png: Uint8Array): Promise<Buffer> {
  return sharp(png).webp({ quality: 90, effort: 2 }).toBuffer();
}

/** A rendered tile (PNG bytes) in the asked format. */
export async function encodeTile(png: Uint8Array, format: TileFormat): Promise<Uint8Array> {
  return format === 'webp' ? pngToWebp(png) : png;
}
