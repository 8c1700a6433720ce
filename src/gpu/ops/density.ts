// density on the GPU: per-group scale and radius resolved on the CPU exactly as src/ops/density.ts
// does, splats gathered per pixel from screen bins into an r32float field (src/shaders/density.wgsl).
import { GAUSS_COEF } from '../../cpu/density.js';
import { exprFeature } from '../../ops/features.js';
import { binBoxes } from '../shapes.js';
import { Uniforms } from '../uniforms.js';
import type { GpuOp } from './types.js';

export const density: GpuOp = {
  name: 'density',
  encode(g, ctx) {
    const { width: W, height: H, x0, y0 } = ctx.canvas;
    const input = ctx.input<'features'>('features');
    const bound = ctx.bound('radius');
    const radius = Math.max(0, ctx.num('radius'));
    const intensity = Math.max(0, ctx.num('intensity'));
    const radiusExpr = ctx.expr('radius-expr');
    const weightExpr = ctx.expr('weight-expr');
    const intensityExpr = ctx.expr('intensity-expr');
    let n = 0;
    for (const grp of input.groups) n += grp.points.length >> 1;
    const data = new Float32Array(n * 4);
    const boxes = new Float64Array(n * 4);
    let m = 0;
    for (const grp of input.groups) {
      if (grp.points.length < 2) continue;
      const f = radiusExpr || weightExpr || intensityExpr ? exprFeature(grp) : undefined;
      const w = weightExpr?.evaluate(ctx.zoom, f);
      const k = intensityExpr?.evaluate(ctx.zoom, f);
      const rv = radiusExpr?.evaluate(ctx.zoom, f);
      const weight = typeof w === 'number' ? w : 1;
      const scale = intensity * (typeof k === 'number' ? Math.max(0, k) : 1) * weight;
      const r = typeof rv === 'number' ? Math.min(Math.max(0, rv), bound) : radius;
      if (!(r > 0) || scale === 0 || !Number.isFinite(scale)) continue;
      const s = scale * GAUSS_COEF;
      const pts = grp.points;
      for (let i = 0; i + 1 < pts.length; i += 2) {
        const px = pts[i]! - x0;
        const py = pts[i + 1]! - y0;
        if (!Number.isFinite(px) || !Number.isFinite(py)) continue;
        // Pixels whose centre lies within r: i in [ceil(px - r - 0.5), floor(px + r - 0.5)].
        const bx0 = Math.ceil(px - r - 0.5);
        const bx1 = Math.floor(px + r - 0.5);
        const by0 = Math.ceil(py - r - 0.5);
        const by1 = Math.floor(py + r - 0.5);
        if (bx1 < 0 || by1 < 0 || bx0 >= W || by0 >= H || bx0 > bx1 || by0 > by1) continue;
        data.set([px, py, s, r], m * 4);
        boxes.set([bx0, by0, bx1, by1], m * 4);
        m++;
      }
    }
    const bins = binBoxes(W, H, boxes, m);
    const out = g.output('scalar-field', W, H);
    const u = new Uniforms().vec2u(W, H).u32s(bins.cols);
    g.dispatch2d('density', [g.uniform(u), g.view(out), g.storage(data.subarray(0, Math.max(4, m * 4))), g.storage(bins.starts), g.storage(bins.items)], W, H);
    return out;
  },
};
