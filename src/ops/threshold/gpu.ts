// threshold on the GPU: one pass (threshold.wgsl) with the CPU's settings.
import { Uniforms } from '../../backends/gpu/uniforms.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';
import { settings } from './cpu.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const { width, height } = ctx.canvas;
    const src = g.input(ctx, 'input');
    const { level, softness, luma } = settings(ctx);
    const out = g.output('raster', width, height);
    const u = new Uniforms()
      .vec2u(width, height)
      .view(src)
      .f32s(level, softness)
      .u32s(luma ? 1 : 0);
    g.dispatch2d('threshold', [g.uniform(u), g.view(src), g.view(out)], width, height);
    return out;
  },
};
