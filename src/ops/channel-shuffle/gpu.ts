// channel-shuffle on the GPU: one pass (channel-shuffle.wgsl) with the CPU's source indices.
import { Uniforms } from '../../backends/gpu/uniforms.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';
import { sourcesOf } from './cpu.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const { width, height } = ctx.canvas;
    const src = g.input(ctx, 'input');
    const out = g.output('raster', width, height);
    const u = new Uniforms()
      .vec2u(width, height)
      .view(src)
      .u32s(...sourcesOf(ctx.node));
    g.dispatch2d('channel-shuffle', [g.uniform(u), g.view(src), g.view(out)], width, height);
    return out;
  },
};
