import { DensityAccumulator } from './cpu.js';
import { expr, nodeRef, num, numRef } from '../../style/fields.js';
import type { ScalarField } from '../../types.js';
import { exprFeature } from '../features/index.js';
import type { OpContext, OpDef } from '../types.js';
import { gpu } from './gpu.js';

/** Kernel-density estimate of point features. */
export const density: OpDef = {
  name: 'density',
  description: 'kernel-density estimate of point features (raw accumulated density)',
  output: 'scalar-field',
  inputs: { features: ['features'] },
  fields: {
    features: nodeRef(),
    intensity: numRef({ min: 0, default: 1 }),
    'intensity-expr': expr('number', 'per-group intensity factor, multiplied with intensity (ignored when not a number)'),
    radius: numRef({ min: 0, default: 30, description: 'kernel support in pixels' }),
    'radius-max': num({ min: 0 }),
    'radius-expr': expr('number', 'per-group radius, clamped to the static bound'),
    'weight-expr': expr('number', 'per-group weight (1 when absent or not a number)'),
  },
  required: ['features'],
  paddingFields: ['radius'],
  pad: (bound) => Math.ceil(bound('radius') ?? 30),
  gpu,
  cpu(ctx): ScalarField {
    const { canvas } = ctx;
    const acc = new DensityAccumulator(canvas.width, canvas.height, canvas.x0, canvas.y0, ctx.bound('radius'));
    for (const g of densityGroups(ctx)) acc.splat(g.points, g.scale, g.radius);
    return { kind: 'scalar-field', width: canvas.width, height: canvas.height, data: acc.toFloat32() };
  },
};

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
    out.push({ points: g.points, scale: intensity * factor * weight, radius: typeof r === 'number' ? Math.min(Math.max(0, r), bound) : radius });
  }
  return out;
}
