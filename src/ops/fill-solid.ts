import { boolRef, color, expr, nodeRef, numRef } from '../style/fields.js';
import { Compositor, acquireRasterizer, releaseRasterizer } from '../cpu/rasterize.js';
import { newRaster } from '../cpu/raster.js';
import { ringArea } from '../geometry/clip.js';
import type { Features } from '../types.js';
import { BLACK, clamp01, groupColor, groupNumber } from '../expr/paint.js';
import type { OpDef } from './types.js';

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
  shader: 'fill-solid.wgsl',
  cpu(ctx) {
    const { width: W, height: H, x0, y0 } = ctx.canvas;
    const out = ctx.target ?? newRaster(W, H);
    const features = ctx.input<'features'>('features') as Features;
    const fill = groupColor(ctx, 'fill-expr', ctx.color('fill', BLACK));
    const alpha = groupNumber(ctx, 'fill-alpha-expr', ctx.num('fill-alpha', 1));
    const rast = acquireRasterizer(W, H, ctx.bool('antialias', true));
    const comp = new Compositor(out.data, W);
    for (const g of features.groups) {
      if (!g.polygons.length) continue;
      comp.setColor(fill(g), clamp01(alpha(g)));
      if (!(comp.alpha > 0)) continue;
      for (const poly of g.polygons) {
        for (let k = 0; k < poly.length; k++) {
          const ring = poly[k]!;
          // Exteriors wind +1 and holes -1 whatever the ring order, so holes always cancel.
          const a = ringArea(ring);
          if (a === 0 || !Number.isFinite(a)) continue;
          rast.addRing(ring, -x0, -y0, (k === 0) === a > 0 ? 1 : -1);
        }
      }
      rast.sweep(comp.span);
    }
    releaseRasterizer(rast);
    return out;
  },
};
