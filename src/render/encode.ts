// Output conversion: premultiplied float sRGB -> 8-bit straight-alpha RGBA (what PNG stores).
import type { Raster } from '../types.js';

export function toRGBA8(r: Raster): Uint8ClampedArray {
  const n = r.width * r.height;
  const out = new Uint8ClampedArray(n * 4);
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
