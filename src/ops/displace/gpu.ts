// displace on the GPU: one pass (displace.wgsl) with the CPU's plan (plan.ts).
import { BOUNDARY_CODE, displacePlan } from './plan.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const p = displacePlan(ctx);
    const src = g.input(ctx, 'input');
    const disp = g.input(ctx, 'displacement');
    const { width, height } = ctx.canvas;
    const out = g.output('raster', width, height);
    const u = g.uniforms('displace', {
      size: [width, height],
      amp2: [2 * p.ampX, 2 * p.ampY],
      pad: p.pad,
      boundary: BOUNDARY_CODE[p.boundary],
      world_top: p.worldTop,
      world_bottom: p.worldBottom,
      src,
      disp,
    });
    g.dispatch2d('displace', { u, src: g.view(src), disp: g.view(disp), dst: g.view(out) }, width, height);
    return out;
  },
};
