// edge-detect: the Sobel gradient magnitude of each premultiplied channel (R, G, B and A) times
// `strength`, clamped to [0, 1]; alpha is then raised to the largest colour channel so the result
// stays a valid premultiplied colour. Drawn over black it is the classic per-channel Sobel image of
// the input drawn over black; an opaque input gives edges (light on transparent) that can be
// blended over anything, and the alpha edges of shapes become outlines.
import { acquire } from '../../backends/cpu/pool.js';
import { sobelSimd } from './simd.js';

/**
 * src: RGBA sw x (h + 2) rows with the output window w x h at (1, 1) (pad 1).
 * Sobel: gx = (a2 + 2 a5 + a8) - (a0 + 2 a3 + a6), gy = (a6 + 2 a7 + a8) - (a0 + 2 a1 + a2).
 */
export function sobel(src: Float32Array, sw: number, w: number, h: number, strength: number): Float32Array {
  const out = acquire(w * h * 4, false);
  if (sobelSimd(src, sw, w, h, strength, out)) return out; // the same sums in f32 (simd.ts)
  return sobelInto(src, sw, w, h, strength, out);
}

/** The TypeScript kernel (the reference of the SIMD one), in f64. */
export function sobelScalar(src: Float32Array, sw: number, w: number, h: number, strength: number): Float32Array {
  return sobelInto(src, sw, w, h, strength, acquire(w * h * 4, false));
}

function sobelInto(src: Float32Array, sw: number, w: number, h: number, strength: number, out: Float32Array): Float32Array {
  const row = sw * 4;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const c = ((y + 1) * sw + x + 1) * 4;
      const o = (y * w + x) * 4;
      let m = 0;
      for (let k = 3; k >= 0; k--) {
        const p = c + k;
        const a0 = src[p - row - 4]!,
          a1 = src[p - row]!,
          a2 = src[p - row + 4]!;
        const a3 = src[p - 4]!,
          a5 = src[p + 4]!;
        const a6 = src[p + row - 4]!,
          a7 = src[p + row]!,
          a8 = src[p + row + 4]!;
        const gx = a2 + 2 * a5 + a8 - (a0 + 2 * a3 + a6);
        const gy = a6 + 2 * a7 + a8 - (a0 + 2 * a1 + a2);
        let v = Math.sqrt(gx * gx + gy * gy) * strength;
        v = v > 1 ? 1 : v;
        if (k === 3) m = v;
        else {
          out[o + k] = v;
          if (v > m) m = v;
        }
      }
      out[o + 3] = m;
    }
  }
  return out;
}
