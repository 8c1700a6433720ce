import { exprFeature } from '../features/index.js';
import type { OpContext } from '../types.js';

/** One group's splat: its points (world pixels), scale (intensity x group factor x weight) and radius. */
export interface DensitySplat {
  points: Float64Array;
  scale: number;
  radius: number;
}

/**
 * The per-group splats of a density node, in input order: the field rules in one place for every
 * backend. Groups without points (lines, polygons) are left out: they contribute nothing.
 */
export function densityGroups(ctx: OpContext): DensitySplat[] {
  const input = ctx.input<'features'>('features');
  const bound = ctx.bound('radius');
  const radius = Math.max(0, ctx.num('radius'));
  const intensity = Math.max(0, ctx.num('intensity'));
  const radiusExpr = ctx.expr('radius-expr');
  const weightExpr = ctx.expr('weight-expr');
  const intensityExpr = ctx.expr('intensity-expr');
  const out: DensitySplat[] = [];
  for (const g of input.groups) {
    if (g.points.length < 2) continue;
    const f = radiusExpr || weightExpr || intensityExpr ? exprFeature(g) : undefined;
    const w = weightExpr?.evaluate(ctx.zoom, f);
    const k = intensityExpr?.evaluate(ctx.zoom, f);
    const r = radiusExpr?.evaluate(ctx.zoom, f);
    const weight = typeof w === 'number' ? w : 1;
    const factor = typeof k === 'number' ? Math.max(0, k) : 1;
    out.push({
      points: g.points,
      scale: intensity * factor * weight,
      radius: typeof r === 'number' ? Math.min(Math.max(0, r), bound) : radius,
    });
  }
  return out;
}
