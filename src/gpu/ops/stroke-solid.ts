// stroke-solid on the GPU: outline rings from the CPU Stroker (as src/ops/stroke-solid.ts builds
// them), filled by the scanline kernel.
import { Stroker, type Cap, type Join } from '../../geometry/stroke.js';
import { BLACK, clamp01, explicitMax, groupColor, groupNumber } from '../../expr/paint.js';
import type { Features } from '../../types.js';
import { ShapeList } from '../shapes.js';
import { drawShapes } from './scanline.js';
import type { GpuOp } from './types.js';

export const strokeSolid: GpuOp = {
  name: 'stroke-solid',
  encode(g, ctx) {
    const { width: W, height: H, x0, y0 } = ctx.canvas;
    const features = ctx.input<'features'>('features') as Features;
    const node = ctx.node;
    const join = (node.join as Join | undefined) ?? 'miter';
    const cap = (node.cap as Cap | undefined) ?? 'butt';
    const miterLimit = typeof node['miter-limit'] === 'number' ? node['miter-limit'] : 2;
    const wmax = explicitMax(node, 'width');
    const width = groupNumber(ctx, 'width-expr', ctx.num('width', 1));
    const paint = groupColor(ctx, 'color-expr', ctx.color('color', BLACK));
    const opacity = groupNumber(ctx, 'opacity-expr', ctx.num('opacity', 1));
    const offset = ctx.num('offset', 0);
    const stroker = new Stroker();
    const rings = stroker.out;
    const shapes = new ShapeList(H);
    for (const grp of features.groups) {
      if (!grp.lines.length && !grp.polygons.length) continue;
      const w = Math.min(width(grp), wmax);
      if (!(w > 0)) continue;
      const c = paint(grp);
      const a = clamp01(c[3] * clamp01(opacity(grp)));
      if (!(a > 0)) continue;
      rings.clear();
      stroker.setStyle({ width: w, join, cap, miterLimit, offset });
      for (let i = 0; i < grp.lines.length; i++) {
        const cut = grp.cutEnds?.[i] ?? 0;
        stroker.line(grp.lines[i]!, (cut & 1) === 0, (cut & 2) === 0);
      }
      // Ring edges made by clipping (polygonCuts) are not stroked.
      for (let i = 0; i < grp.polygons.length; i++) {
        const poly = grp.polygons[i]!;
        const cuts = grp.polygonCuts?.[i];
        for (let k = 0; k < poly.length; k++) stroker.ring(poly[k]!, cuts?.[k]);
      }
      shapes.addRings(rings, -x0, -y0);
      shapes.endShape(c[0] * a, c[1] * a, c[2] * a, a);
    }
    return drawShapes(g, shapes, W, H, true, 'stroke-solid');
  },
};
