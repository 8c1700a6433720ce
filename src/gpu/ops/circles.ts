// circles on the GPU: per-circle paint resolved on the CPU exactly as src/ops/circles.ts does,
// analytic coverage per pixel over the circles of its screen bin (src/shaders/circles.wgsl).
import { BLACK, clamp01, explicitMax, groupColor, groupNumber } from '../../ops/paint.js';
import type { Features } from '../../types.js';
import { binBoxes } from '../shapes.js';
import { Uniforms } from '../uniforms.js';
import type { GpuOp } from './types.js';

export const circles: GpuOp = {
  name: 'circles',
  encode(g, ctx) {
    const { width: W, height: H, x0, y0 } = ctx.canvas;
    const features = ctx.input<'features'>('features') as Features;
    const rmax = explicitMax(ctx.node, 'radius');
    const swmax = explicitMax(ctx.node, 'stroke-width');
    const radius = groupNumber(ctx, 'radius-expr', ctx.num('radius', 5));
    const strokeWidth = groupNumber(ctx, 'stroke-width-expr', ctx.num('stroke-width', 0));
    const fillColor = groupColor(ctx, 'color-expr', ctx.color('color', BLACK));
    const strokeColor = groupColor(ctx, 'stroke-color-expr', ctx.color('stroke-color', BLACK));
    const opacity = groupNumber(ctx, 'opacity-expr', ctx.num('opacity', 1));
    let n = 0;
    for (const grp of features.groups) n += grp.points.length >> 1;
    const data = new Float32Array(n * 12);
    const boxes = new Float64Array(n * 4);
    let m = 0;
    for (const grp of features.groups) {
      const pts = grp.points;
      if (!pts.length) continue;
      const r = Math.max(0, Math.min(radius(grp), rmax)) || 0;
      const sw = Math.max(0, Math.min(strokeWidth(grp), swmax)) || 0;
      const op = clamp01(opacity(grp));
      const fc = fillColor(grp);
      const sc = strokeColor(grp);
      const fa = clamp01(fc[3] * op);
      const sa = sw > 0 ? clamp01(sc[3] * op) : 0;
      if (fa <= 0 && sa <= 0) continue;
      const reach = r + sw + 0.5;
      for (let i = 0; i + 1 < pts.length; i += 2) {
        const cx = pts[i]! - x0;
        const cy = pts[i + 1]! - y0;
        if (!(cx + reach > 0 && cy + reach > 0 && cx - reach < W && cy - reach < H)) continue;
        data.set([cx, cy, r, sw, fc[0] * fa, fc[1] * fa, fc[2] * fa, fa, sc[0] * sa, sc[1] * sa, sc[2] * sa, sa], m * 12);
        boxes.set([Math.floor(cx - reach), Math.floor(cy - reach), Math.ceil(cx + reach), Math.ceil(cy + reach)], m * 4);
        m++;
      }
    }
    const bins = binBoxes(W, H, boxes, m);
    const out = g.output('raster', W, H);
    const u = new Uniforms().vec2u(W, H).u32s(bins.cols);
    g.dispatch2d('circles', [g.uniform(u), g.view(out), g.storage(data.subarray(0, Math.max(12, m * 12))), g.storage(bins.starts), g.storage(bins.items)], W, H);
    return out;
  },
};
