// A browser image decoder (PNG, WebP) for DEM tiles: createImageBitmap + OffscreenCanvas. Core
// code with no Node imports; a browser host passes it as `decodeImage`.
import type { DecodedImage, ImageDecoder } from './types.js';

/** Whether this environment can decode images this way (browsers and their workers). */
export function canDecodeImagesInBrowser(): boolean {
  return typeof createImageBitmap === 'function' && typeof OffscreenCanvas === 'function';
}

export const browserDecodeImage: ImageDecoder = async (bytes: Uint8Array): Promise<DecodedImage> => {
  // Elevation is encoded in the colour values: no colour management, no premultiplication.
  const bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]), { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
  try {
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const g = canvas.getContext('2d', { willReadFrequently: true });
    if (!g) throw new Error('no 2d context on OffscreenCanvas');
    g.drawImage(bitmap, 0, 0);
    const img = g.getImageData(0, 0, bitmap.width, bitmap.height);
    return { data: new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength), width: img.width, height: img.height };
  } finally {
    bitmap.close();
  }
};
