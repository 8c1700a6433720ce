import { color, expr, nodeRef, num, numRef } from '../../style/fields.js';
import { newRaster } from '../../backends/cpu/raster.js';
import type { Features } from '../../types.js';
import { BLACK, clamp01, explicitMax, groupColor, groupNumber, sizeBound } from '../../expr/paint.js';
import type { OpContext, OpDef } from '../types.js';
import { gpu } from './gpu.js';

/**
 * Filled disks at every feature point with per-feature paint. Coverage is analytic:
 * clamp(r - d + 0.5, 0, 1) with d from the pixel centre. The stroke ring lies outside the fill
 * (MapLibre's convention): fill from 0 to r, ring from r to r + stroke-width.
 */
export const circles: OpDef = {
  name: 'circles',
  description: 'filled disks (and optional stroke rings) at every point',
  output: 'raster',
  inputs: { features: ['features'] },
  fields: {
    features: nodeRef(),
    color: color('fill colour (default #000000)'),
    radius: numRef({ min: 0, default: 5 }),
    'radius-max': num({ min: 0, description: 'bound of radius (an @node port) or radius-expr; larger values clamp to it' }),
    opacity: numRef({ min: 0, max: 1, default: 1 }),
    'stroke-color': color('stroke colour (default #000000)'),
    'stroke-width': numRef({ min: 0, default: 0 }),
    'stroke-width-max': num({ min: 0, description: 'bound of stroke-width (an @node port) or stroke-width-expr' }),
    'color-expr': expr('color'),
    'radius-expr': expr('number'),
    'opacity-expr': expr('number'),
    'stroke-color-expr': expr('color'),
    'stroke-width-expr': expr('number'),
  },
  required: ['features'],
  // Points this far outside the canvas still reach into it (+0.5: the anti-aliased rim).
  pad: (bound, _field, node) => Math.ceil(sizeBound(bound, node, 'radius') + sizeBound(bound, node, 'stroke-width') + 0.5),
  paintsOnto: true,
  gpu,
  cpu(ctx) {
    const { width: W, height: H, x0, y0 } = ctx.canvas;
    const out = ctx.target ?? newRaster(W, H);
    const d = out.data;
    for (const { points: pts, r, sw, fill, stroke } of circlePaints(ctx)) {
      const [fr, fg, fb, fa] = fill;
      const [sr, sg, sb, sa] = stroke;
      const R = r + sw; // outer radius
      const reach = R + 0.5;
      for (let i = 0; i + 1 < pts.length; i += 2) {
        const cx = pts[i]! - x0;
        const cy = pts[i + 1]! - y0;
        const xa = Math.max(0, Math.floor(cx - reach));
        const xb = Math.min(W, Math.ceil(cx + reach));
        const ya = Math.max(0, Math.floor(cy - reach));
        const yb = Math.min(H, Math.ceil(cy + reach));
        for (let y = ya; y < yb; y++) {
          const dy = y + 0.5 - cy;
          let p = (y * W + xa) * 4;
          for (let x = xa; x < xb; x++, p += 4) {
            const dx = x + 0.5 - cx;
            const dist = Math.sqrt(dx * dx + dy * dy);
            const co = R - dist + 0.5;
            if (co <= 0) continue;
            const outer = co < 1 ? co : 1;
            const ci0 = r - dist + 0.5;
            const inner = ci0 <= 0 ? 0 : ci0 < 1 ? ci0 : 1;
            // The fill covers `inner`, the ring the rest of `outer`: a partition, not stacked layers.
            const ring = outer - inner;
            const a = fa * inner + sa * ring;
            const k = 1 - a;
            d[p] = fr * inner + sr * ring + d[p]! * k;
            d[p + 1] = fg * inner + sg * ring + d[p + 1]! * k;
            d[p + 2] = fb * inner + sb * ring + d[p + 2]! * k;
            d[p + 3] = a + d[p + 3]! * k;
          }
        }
      }
    }
    return out;
  },
};

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
  const rmax = explicitMax(ctx.node, 'radius');
  const swmax = explicitMax(ctx.node, 'stroke-width');
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
    out.push({ points: g.points, r, sw, fill: [fc[0] * fa, fc[1] * fa, fc[2] * fa, fa], stroke: [sc[0] * sa, sc[1] * sa, sc[2] * sa, sa] });
  }
  return out;
}
