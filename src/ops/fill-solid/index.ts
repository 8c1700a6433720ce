import { boolRef, color, expr, nodeRef, numRef } from '../../style/fields.js';
import { Compositor, acquireRasterizer, releaseRasterizer } from '../../backends/cpu/rasterize.js';
import { newRaster } from '../../backends/cpu/raster.js';
import { ringArea } from '../../geometry/clip.js';
import type { FeatureGroup, Features, RGBA } from '../../types.js';
import { BLACK, clamp01, groupColor, groupNumber } from '../../expr/paint.js';
import type { OpContext, OpDef } from '../types.js';
import { gpu } from './gpu.js';

/** Polygons filled with one colour (or a per-feature colour), anti-aliased. */
export const fillSolid: OpDef = {
  name: 'fill-solid',
  description: 'fills polygons, anti-aliased',
  output: 'raster',
  inputs: { features: ['features'] },
  fields: {
    features: nodeRef(),
    fill: color('fill colour (default #000000)'),
    'fill-alpha': numRef({ min: 0, max: 1, default: 1 }),
    antialias: boolRef(true),
    'fill-expr': expr('color', 'per-feature fill colour; overrides fill'),
    'fill-alpha-expr': expr('number', 'per-feature alpha; overrides fill-alpha'),
  },
  required: ['features'],
  // A fill draws nothing outside its polygons; one pixel keeps edge pixels' neighbours sampled.
  pad: () => 1,
  paintsOnto: true,
  gpu,
  cpu(ctx) {
    const { width: W, height: H, x0, y0 } = ctx.canvas;
    const out = ctx.target ?? newRaster(W, H);
    const rast = acquireRasterizer(W, H, ctx.bool('antialias', true));
    const comp = new Compositor(out.data, W);
    fillGroups(ctx, (g, paint) => {
      comp.setColor(paint);
      addPolygonRings(g, (ring, winding) => rast.addRing(ring, -x0, -y0, winding));
      rast.sweep(comp.span);
    });
    releaseRasterizer(rast);
    return out;
  },
};

/** Every group with polygons that draws, with its straight colour and effective alpha: both backends. */
export function fillGroups(ctx: OpContext, visit: (g: FeatureGroup, paint: RGBA) => void): void {
  const features = ctx.input<'features'>('features') as Features;
  const fill = groupColor(ctx, 'fill-expr', ctx.color('fill', BLACK));
  const alpha = groupNumber(ctx, 'fill-alpha-expr', ctx.num('fill-alpha', 1));
  for (const g of features.groups) {
    if (!g.polygons.length) continue;
    const c = fill(g);
    const a = clamp01(c[3] * clamp01(alpha(g)));
    if (a > 0) visit(g, [c[0], c[1], c[2], a]);
  }
}

/** A group's rings with their winding: exteriors +1 and holes -1 whatever the ring order, so holes always cancel. */
export function addPolygonRings(g: FeatureGroup, add: (ring: Float64Array, winding: number) => void): void {
  for (const poly of g.polygons) {
    for (let k = 0; k < poly.length; k++) {
      const ring = poly[k]!;
      const a = ringArea(ring);
      if (a === 0 || !Number.isFinite(a)) continue;
      add(ring, (k === 0) === a > 0 ? 1 : -1);
    }
  }
}
