// edge-detect on the GPU: one pass, the CPU's Sobel (cpu.ts) per texel (edge-detect.wgsl).
import { Uniforms } from '../../backends/gpu/uniforms.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const src = g.input(ctx, 'input');
    const { width, height } = ctx.canvas;
    const out = g.output('raster', width, height);
    const u = new Uniforms()
      .vec2u(width, height)
      .f32s(Math.max(0, ctx.num('strength')))
      .view(src);
    g.dispatch2d('edge-detect', [g.uniform(u), g.view(src), g.view(out)], width, height);
    return out;
  },
};
