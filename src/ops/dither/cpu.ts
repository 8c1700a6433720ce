// dither kernels on straight sRGB read at 8 bits per channel; alpha is preserved (a pixel becomes
// its palette entry's colour at its own alpha) and transparent pixels stay transparent.
//  - ordered / blue-noise: each channel + amount x ((rank + 0.5) / levels - 1/2), the rank read
//    from a threshold matrix (4x4 Bayer, 64x64 blue noise) tiled over world pixels, clamped to
//    [0, 1], then the nearest palette entry (OrderedMatcher). Tiles continue each other.
//  - floyd-steinberg: raster order over the node's canvas (left to right, top to bottom); the
//    pixel plus the error it received, clamped to [0, 1], takes the nearest entry; its error
//    (clamped colour - entry, in sRGB) goes 7/16 right, 3/16 below-left, 5/16 below, 1/16
//    below-right. Transparent pixels neither take nor pass error. Not seamless across tiles.
import { byte, nearest, OrderedMatcher, rankAt, to8, type Palette, type ThresholdMatrix } from './plan.js';

const clamp01 = (v: number) => (v > 0 ? (v < 1 ? v : 1) : 0);

export function ordered(
  src: Float32Array,
  dst: Float32Array,
  width: number,
  height: number,
  x0: number,
  y0: number,
  p: Palette,
  amount: number,
  matrix: ThresholdMatrix,
): void {
  const m = new OrderedMatcher(p, amount, matrix.size * matrix.size);
  const rgb = p.rgb;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const a = src[i + 3]!;
      if (!(a > 0)) {
        dst[i] = dst[i + 1] = dst[i + 2] = dst[i + 3] = 0;
        continue;
      }
      const k = m.match(byte(src[i]! / a), byte(src[i + 1]! / a), byte(src[i + 2]! / a), rankAt(matrix, x0 + x, y0 + y)) * 3;
      dst[i] = rgb[k]! * a;
      dst[i + 1] = rgb[k + 1]! * a;
      dst[i + 2] = rgb[k + 2]! * a;
      dst[i + 3] = a;
    }
  }
}

export function floydSteinberg(src: Float32Array, dst: Float32Array, width: number, height: number, p: Palette): void {
  // Error rows: this one and the next (3 channels per pixel).
  let cur = new Float64Array(width * 3);
  let next = new Float64Array(width * 3);
  const s = new Float64Array(3);
  const v = new Float64Array(3);
  const rgb = p.rgb;
  for (let y = 0; y < height; y++) {
    next.fill(0);
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const a = src[i + 3]!;
      if (!(a > 0)) {
        dst[i] = dst[i + 1] = dst[i + 2] = dst[i + 3] = 0;
        continue;
      }
      for (let c = 0; c < 3; c++) v[c] = clamp01(to8(src[i + c]! / a) + cur[x * 3 + c]!);
      const k = nearest(p, v[0]!, v[1]!, v[2]!, s) * 3;
      for (let c = 0; c < 3; c++) {
        const e = v[c]! - rgb[k + c]!;
        dst[i + c] = rgb[k + c]! * a;
        if (x + 1 < width) cur[(x + 1) * 3 + c]! += (e * 7) / 16;
        if (x > 0) next[(x - 1) * 3 + c]! += (e * 3) / 16;
        next[x * 3 + c]! += (e * 5) / 16;
        if (x + 1 < width) next[(x + 1) * 3 + c]! += e / 16;
      }
      dst[i + 3] = a;
    }
    [cur, next] = [next, cur];
  }
}
