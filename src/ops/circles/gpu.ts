// circles on the GPU: per-circle paint from plan.ts (circlePaints),
// analytic coverage per pixel over the circles of its screen bin (circles.wgsl).
import { circlePaints } from './plan.js';
import { binnedPass } from '../../backends/gpu/binned-pass.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const { width: W, height: H, x0, y0 } = ctx.canvas;
    const paints = circlePaints(ctx);
    let n = 0;
    for (const c of paints) n += c.points.length >> 1;
    const data = new Float32Array(n * 16);
    const boxes = new Float64Array(n * 4);
    let m = 0;
    for (const { points: pts, r, sw, fill: fc, stroke: sc, aa } of paints) {
      const reach = aa > 0 ? r + sw : r + sw + 0.5;
      for (let i = 0; i + 1 < pts.length; i += 2) {
        const cx = pts[i]! - x0;
        const cy = pts[i + 1]! - y0;
        if (!(cx + reach > 0 && cy + reach > 0 && cx - reach < W && cy - reach < H)) continue;
        data.set([cx, cy, r, sw, fc[0], fc[1], fc[2], fc[3], sc[0], sc[1], sc[2], sc[3], aa, 0, 0, 0], m * 16);
        boxes.set([Math.floor(cx - reach), Math.floor(cy - reach), Math.ceil(cx + reach), Math.ceil(cy + reach)], m * 4);
        m++;
      }
    }
    const circles = g.storage(data.subarray(0, Math.max(16, m * 16)));
    return binnedPass(g, 'circles', g.output('raster', W, H), { boxes, count: m }, {}, { circles });
  },
};
