import type { Features } from '../../types.js';
import { BLACK, clamp01, explicitMax, groupColor, groupNumber } from '../../expr/paint.js';
import type { OpContext } from '../types.js';

export interface CirclePaint {
  points: Float64Array;
  /** Fill radius and stroke width, clamped to their bounds. */
  r: number;
  sw: number;
  /** Premultiplied fill and stroke paint (opacity applied). */
  fill: [number, number, number, number];
  stroke: [number, number, number, number];
}

/** Per-group paint of a circles node, for both backends; groups that draw nothing are left out. */
export function circlePaints(ctx: OpContext): CirclePaint[] {
  const features = ctx.input<'features'>('features') as Features;
  const rmax = explicitMax(ctx, 'radius');
  const swmax = explicitMax(ctx, 'stroke-width');
  const radius = groupNumber(ctx, 'radius-expr', ctx.num('radius', 5));
  const strokeWidth = groupNumber(ctx, 'stroke-width-expr', ctx.num('stroke-width', 0));
  const fillColor = groupColor(ctx, 'color-expr', ctx.color('color', BLACK));
  const strokeColor = groupColor(ctx, 'stroke-color-expr', ctx.color('stroke-color', BLACK));
  const opacity = groupNumber(ctx, 'opacity-expr', ctx.num('opacity', 1));
  const out: CirclePaint[] = [];
  for (const g of features.groups) {
    if (!g.points.length) continue;
    const r = Math.max(0, Math.min(radius(g), rmax)) || 0;
    const sw = Math.max(0, Math.min(strokeWidth(g), swmax)) || 0;
    const op = clamp01(opacity(g));
    const fc = fillColor(g);
    const sc = strokeColor(g);
    const fa = clamp01(fc[3] * op);
    const sa = sw > 0 ? clamp01(sc[3] * op) : 0;
    if (fa <= 0 && sa <= 0) continue;
    out.push({
      points: g.points,
      r,
      sw,
      fill: [fc[0] * fa, fc[1] * fa, fc[2] * fa, fa],
      stroke: [sc[0] * sa, sc[1] * sa, sc[2] * sa, sa],
    });
  }
  return out;
}
