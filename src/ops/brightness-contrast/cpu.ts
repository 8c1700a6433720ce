// brightness-contrast on straight (non-premultiplied) sRGB, alpha unchanged:
// out = clamp((c - 0.5) * slope + 0.5 + brightness, 0, 1), slope = tan((contrast + 1) * pi/4).

import type { OpContext } from '../types.js';

/** Past this the slope changes nothing visible (contrast 1 is a threshold at mid-grey); f32 holds it. */
export const MAX_SLOPE = 1e6;

/** tan((contrast + 1) pi/4): 0 at -1 (flat grey), 1 at 0 (identity), MAX_SLOPE at 1. */
export function contrastSlope(contrast: number): number {
  const k = Math.tan(((contrast + 1) * Math.PI) / 4);
  return k > MAX_SLOPE || k < 0 ? MAX_SLOPE : k;
}

/** Premultiplied RGBA `src` to `dst` (every pixel written; transparent pixels stay transparent). */
export function brightnessContrast(src: Float32Array, dst: Float32Array, brightness: number, slope: number): void {
  const add = 0.5 + brightness;
  for (let i = 0; i < src.length; i += 4) {
    const a = src[i + 3]!;
    if (!(a > 0)) {
      dst[i] = dst[i + 1] = dst[i + 2] = dst[i + 3] = 0;
      continue;
    }
    for (let c = 0; c < 3; c++) {
      const v = (src[i + c]! / a - 0.5) * slope + add;
      dst[i + c] = (v > 0 ? (v < 1 ? v : 1) : 0) * a;
    }
    dst[i + 3] = a;
  }
}

/** The brightness and slope both backends use (runtime values clamp to [-1, 1]). */
export function settings(ctx: Pick<OpContext, 'num'>): { brightness: number; slope: number } {
  const clamp = (v: number) => Math.min(1, Math.max(-1, v));
  return { brightness: clamp(ctx.num('brightness')), slope: contrastSlope(clamp(ctx.num('contrast'))) };
}
