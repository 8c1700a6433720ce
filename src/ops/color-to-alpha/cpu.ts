// color-to-alpha: d = max(|r - kr|, |g - kg|, |b - kb|) on straight sRGB (Chebyshev distance to
// the key colour); the alpha is multiplied by f(d) = clamp((d - threshold) / softness, 0, 1)
// (softness 0: d > threshold ? 1 : 0), so d <= threshold gives alpha 0 and d >= threshold +
// softness leaves alpha unchanged. The straight colour is kept.
import type { OpContext } from '../types.js';

const clamp01 = (v: number) => (v > 0 ? (v < 1 ? v : 1) : 0);

export function settings(ctx: Pick<OpContext, 'num' | 'color'>): { key: [number, number, number]; threshold: number; softness: number } {
  const [r, g, b] = ctx.color('color');
  return { key: [r, g, b], threshold: clamp01(ctx.num('threshold')), softness: clamp01(ctx.num('softness')) };
}

export function colorToAlpha(src: Float32Array, dst: Float32Array, key: readonly number[], threshold: number, softness: number): void {
  const [kr, kg, kb] = key as [number, number, number];
  const inv = softness > 0 ? 1 / softness : 0;
  for (let i = 0; i < src.length; i += 4) {
    const a = src[i + 3]!;
    let f = 0;
    if (a > 0) {
      const d = Math.max(Math.abs(src[i]! / a - kr), Math.abs(src[i + 1]! / a - kg), Math.abs(src[i + 2]! / a - kb));
      f = softness > 0 ? clamp01((d - threshold) * inv) : d > threshold ? 1 : 0;
    }
    dst[i] = src[i]! * f;
    dst[i + 1] = src[i + 1]! * f;
    dst[i + 2] = src[i + 2]! * f;
    dst[i + 3] = a * f;
  }
}
