// What both backends of `stamp` share: one placement per point (centre, scale, rotation,
// opacity), and how far a placed sprite reaches.
import { clamp01, groupNumber } from '../../expr/paint.js';
import type { Features, Sprite } from '../../types.js';
import type { OpContext } from '../types.js';

/** Default bound of a drawn sprite's larger side, pixels (sets the padding). */
export const DEFAULT_SIZE_MAX = 64;

export interface Stamps {
  count: number;
  /** Per stamp: cx, cy (canvas pixels), scale (pixels per sprite texel), opacity, cos, sin of the rotation. */
  data: Float64Array;
}

/** Half-diagonal reach of a sprite drawn at `scale`, plus the bilinear fringe. */
export function stampReach(s: Sprite, scale: number): number {
  return (Math.hypot(s.width, s.height) / 2) * scale + 1;
}

export function sizeMaxOf(node: Record<string, unknown>): number {
  return typeof node['size-max'] === 'number' ? (node['size-max'] as number) : DEFAULT_SIZE_MAX;
}

/** Every stamp of the node that can reach its canvas, in paint order. */
export function stampPlan(ctx: OpContext, sprite: Sprite): Stamps {
  const features = ctx.input<'features'>('features') as Features;
  const { x0, y0, width: W, height: H } = ctx.canvas;
  // size-max is in pixels (unit px): at a pixel ratio ctx.num scales it with the stamps' scale.
  const scaleMax = ctx.num('size-max', DEFAULT_SIZE_MAX) / Math.max(sprite.width, sprite.height);
  const scale = groupNumber(ctx, 'scale-expr', ctx.num('scale', 1));
  const rotation = groupNumber(ctx, 'rotation-expr', ctx.num('rotation', 0));
  const opacity = groupNumber(ctx, 'opacity-expr', ctx.num('opacity', 1));
  const out: number[] = [];
  for (const g of features.groups) {
    const pts = g.points;
    if (!pts.length) continue;
    // An @2x icon (pixelRatio 2) has two texels per pixel.
    const s = Math.min(Math.max(0, scale(g)) / (sprite.pixelRatio ?? 1), scaleMax);
    const o = clamp01(opacity(g));
    if (!(s > 0) || !(o > 0)) continue;
    const rad = ((rotation(g) || 0) * Math.PI) / 180;
    const cos = Math.cos(rad);
    const sin = Math.sin(rad);
    const reach = stampReach(sprite, s);
    for (let i = 0; i + 1 < pts.length; i += 2) {
      const cx = pts[i]! - x0;
      const cy = pts[i + 1]! - y0;
      if (cx + reach < 0 || cy + reach < 0 || cx - reach > W || cy - reach > H) continue;
      out.push(cx, cy, s, o, cos, sin);
    }
  }
  return { count: out.length / 6, data: Float64Array.from(out) };
}
