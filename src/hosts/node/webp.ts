// Tile and image formats of the Node host (sharp, libvips): PNG is what a render encodes (our
// encoder, exact); WebP (lossy, libwebp) and JPEG (libjpeg-turbo, no alpha) are encoded from it.
// WebP at quality 90, effort 2: on the golden tiles 5-10x smaller than PNG and ~10 ms to encode,
// where lossless WebP took 50-250 ms for 25-50% savings.
import sharp from './sharp.js';

export type TileFormat = 'png' | 'webp' | 'jpeg';
export const TILE_FORMATS: readonly TileFormat[] = ['png', 'webp', 'jpeg'];

/** Default quality of the lossy formats (1..100). */
export const DEFAULT_QUALITY = 90;

/** JPEG has no alpha: transparent pixels are flattened onto this (paper white). */
export const JPEG_BACKGROUND = '#ffffff';

export async function pngToWebp(png: Uint8Array, quality = DEFAULT_QUALITY): Promise<Buffer> {
  return sharp(png).webp({ quality, effort: 2 }).toBuffer();
}

export async function pngToJpeg(png: Uint8Array, quality = DEFAULT_QUALITY): Promise<Buffer> {
  return sharp(png).flatten({ background: JPEG_BACKGROUND }).jpeg({ quality, mozjpeg: false }).toBuffer();
}

/** A rendered tile (PNG bytes) in the asked format. */
export async function encodeTile(png: Uint8Array, format: TileFormat, quality = DEFAULT_QUALITY): Promise<Uint8Array> {
  if (format === 'webp') return pngToWebp(png, quality);
  if (format === 'jpeg') return pngToJpeg(png, quality);
  return png;
}

/** File extension of a tile in a directory export. */
export const tileExtension = (f: TileFormat): string => (f === 'jpeg' ? 'jpg' : f);

/** The image format an output file's extension names (`.png`, `.jpg`/`.jpeg`, `.webp`); undefined for any other. */
export function imageFormatOf(file: string): TileFormat | undefined {
  const ext = /\.([^./\\]+)$/.exec(file)?.[1]?.toLowerCase();
  return ext === 'png' ? 'png' : ext === 'jpg' || ext === 'jpeg' ? 'jpeg' : ext === 'webp' ? 'webp' : undefined;
}
