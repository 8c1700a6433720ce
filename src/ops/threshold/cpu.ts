// threshold: v is the alpha (channel 'a') or the Rec. 709 luma of the straight sRGB colour
// (channel 'luma'); t(v) = clamp((v - level) / softness + 0.5, 0, 1), or v > level ? 1 : 0 when
// softness is 0. Channel 'a': the alpha becomes t and the straight colour is kept (a blurred
// shape becomes a crisp one). Channel 'luma': the colour becomes grey t (black below, white
// above), the alpha is kept.
import type { OpContext } from '../types.js';

const clamp01 = (v: number) => (v > 0 ? (v < 1 ? v : 1) : 0);

export function settings(ctx: Pick<OpContext, 'num' | 'node'>): { level: number; softness: number; luma: boolean } {
  return { level: clamp01(ctx.num('level')), softness: clamp01(ctx.num('softness')), luma: ctx.node.channel === 'luma' };
}

/** The threshold curve t(v). */
export function step(v: number, level: number, softness: number): number {
  return softness > 0 ? clamp01((v - level) / softness + 0.5) : v > level ? 1 : 0;
}

export function threshold(src: Float32Array, dst: Float32Array, level: number, softness: number, luma: boolean): void {
  if (luma && softness === 0) {
    // The hard luma step needs no division: luma(c / a) > level  <=>  luma(c) > level x a.
    for (let i = 0; i < src.length; i += 4) {
      const a = src[i + 3]!;
      const t = a > 0 && 0.2126 * src[i]! + 0.7152 * src[i + 1]! + 0.0722 * src[i + 2]! > level * a ? a : 0;
      dst[i] = dst[i + 1] = dst[i + 2] = t;
      dst[i + 3] = a;
    }
    return;
  }
  for (let i = 0; i < src.length; i += 4) {
    const a = src[i + 3]!;
    const inv = a > 0 ? 1 / a : 0;
    if (luma) {
      const t = step((0.2126 * src[i]! + 0.7152 * src[i + 1]! + 0.0722 * src[i + 2]!) * inv, level, softness) * a;
      dst[i] = dst[i + 1] = dst[i + 2] = t;
      dst[i + 3] = a;
    } else {
      // The straight colour clamps to 1 so the result stays a valid premultiplied colour.
      const t = step(a, level, softness);
      dst[i] = Math.min(1, src[i]! * inv) * t;
      dst[i + 1] = Math.min(1, src[i + 1]! * inv) * t;
      dst[i + 2] = Math.min(1, src[i + 2]! * inv) * t;
      dst[i + 3] = t;
    }
  }
}
