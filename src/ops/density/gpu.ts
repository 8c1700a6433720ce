// density on the GPU: per-group scale and radius come from plan.ts (densityGroups);
// splats are gathered per pixel from screen bins into an r32float field (density.wgsl).
import { GAUSS_COEF } from './cpu.js';
import { densityGroups } from './plan.js';
import { binnedPass } from '../../backends/gpu/binned-pass.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    // MapLibre's heatmap variants (a kernel cut off by value, a coarser grid) run the CPU kernel.
    if ((typeof ctx.node.cutoff === 'number' && ctx.node.cutoff > 0) || (typeof ctx.node.resolution === 'number' && ctx.node.resolution > 1)) return undefined;
    const { width: W, height: H, x0, y0 } = ctx.canvas;
    // Per-group scale and radius: the CPU op's own rules (one source of truth for both backends).
    const splats = densityGroups(ctx);
    let n = 0;
    for (const sp of splats) n += sp.points.length >> 1;
    const data = new Float32Array(n * 4);
    const boxes = new Float64Array(n * 4);
    let m = 0;
    for (const { points: pts, scale, radius: r } of splats) {
      if (!(r > 0) || scale === 0 || !Number.isFinite(scale)) continue;
      const s = scale * GAUSS_COEF;
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
    const points = g.storage(data.subarray(0, Math.max(4, m * 4)));
    return binnedPass(g, 'density', g.output('scalar-field', W, H), { boxes, count: m }, {}, { points });
  },
};
