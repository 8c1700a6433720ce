import { exprFeature } from '../features/index.js';
import type { NodeSpec, OpContext } from '../types.js';

/** Farthest a point reaches with a `cutoff`, in radii (MapLibre's reach is ~1.28 radii at weight 1). */
export const MAX_CUTOFF_REACH = 2;

/** 1 / sqrt(2 pi): the Gaussian's normalising constant, kept as in the spec's falloff. */
export const GAUSS_COEF = 1 / Math.sqrt(2 * Math.PI);

/** How far a point of scale s and radius r reaches: r, or with a cutoff where s K falls to it (0: nowhere). */
export function reach(scale: number, radius: number, cutoff: number): number {
  if (!(cutoff > 0)) return radius;
  const v = (scale * GAUSS_COEF) / cutoff;
  if (!(v > 1)) return 0;
  // s GC exp(-4.5 (d/r)^2) = cutoff  =>  d = r sqrt(2 ln(s GC / cutoff)) / 3
  return radius * Math.min(MAX_CUTOFF_REACH, Math.sqrt(2 * Math.log(v)) / 3);
}

/** The pad of a density node: its farthest reach, plus two coarse cells at a coarser resolution. */
export function densityPad(radiusBound: number, node: NodeSpec): number {
  const cutoff = typeof node.cutoff === 'number' ? node.cutoff : 0;
  const k = typeof node.resolution === 'number' ? node.resolution : 1;
  return Math.ceil(radiusBound * (cutoff > 0 ? MAX_CUTOFF_REACH : 1)) + (k > 1 ? 2 * k : 0);
}

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
