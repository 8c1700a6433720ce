// displace on the GPU: one pass (displace.wgsl) with the CPU's plan (plan.ts).
import { BOUNDARY_CODE, displacePlan } from './plan.js';
import { Uniforms } from '../../backends/gpu/uniforms.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const p = displacePlan(ctx);
    const src = g.input(ctx, 'input');
    const disp = g.input(ctx, 'displacement');
    const { width, height } = ctx.canvas;
    const out = g.output('raster', width, height);
    const u = new Uniforms()
      .vec2u(width, height)
      .vec2f(2 * p.ampX, 2 * p.ampY)
      .i32s(p.pad, BOUNDARY_CODE[p.boundary], p.worldTop, p.worldBottom)
      .view(src)
      .view(disp);
    g.dispatch2d('displace', [g.uniform(u), g.view(src), g.view(disp), g.view(out)], width, height);
    return out;
  },
};
