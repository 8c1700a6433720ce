// fill-solid on the GPU: the same rings, windings and paint as the CPU kernel (src/ops/fill-solid.ts),
// rasterized by the scanline kernel.
import { ringArea } from '../../geometry/clip.js';
import { BLACK, clamp01, groupColor, groupNumber } from '../../expr/paint.js';
import type { Features } from '../../types.js';
import { ShapeList } from '../shapes.js';
import { drawShapes } from './scanline.js';
import type { GpuOp } from './types.js';

export const fillSolid: GpuOp = {
  name: 'fill-solid',
  encode(g, ctx) {
    const { width: W, height: H, x0, y0 } = ctx.canvas;
    const features = ctx.input<'features'>('features') as Features;
    const fill = groupColor(ctx, 'fill-expr', ctx.color('fill', BLACK));
    const alpha = groupNumber(ctx, 'fill-alpha-expr', ctx.num('fill-alpha', 1));
    const shapes = new ShapeList(H);
    for (const grp of features.groups) {
      if (!grp.polygons.length) continue;
      const c = fill(grp);
      const a = clamp01(c[3] * clamp01(alpha(grp)));
      if (!(a > 0)) continue;
      for (const poly of grp.polygons) {
        for (let k = 0; k < poly.length; k++) {
          const ring = poly[k]!;
          const area = ringArea(ring);
          if (area === 0 || !Number.isFinite(area)) continue;
          shapes.addRing(ring, -x0, -y0, (k === 0) === area > 0 ? 1 : -1);
        }
      }
      shapes.endShape(c[0] * a, c[1] * a, c[2] * a, a);
    }
    return drawShapes(g, shapes, W, H, ctx.bool('antialias', true));
  },
};
