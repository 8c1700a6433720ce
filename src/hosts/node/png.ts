// PNG encoding and decoding through sharp (Node host only).
import sharp from 'sharp';
import { fromRGBA8, toRGBA8 } from '../../render/encode.js';
import type { Raster } from '../../types.js';

export async function encodePng(r: Raster, options: { compressionLevel?: number } = {}): Promise<Buffer> {
  const rgba = toRGBA8(r);
  return sharp(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), { raw: { width: r.width, height: r.height, channels: 4 } })
    .png({ compressionLevel: options.compressionLevel ?? 6 })
    .toBuffer();
}

export async function decodePngRGBA(bytes: Uint8Array): Promise<{ data: Uint8Array; width: number; height: number }> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

export async function decodePng(bytes: Uint8Array): Promise<Raster> {
  const { data, width, height } = await decodePngRGBA(bytes);
  return fromRGBA8(data, width, height);
}
