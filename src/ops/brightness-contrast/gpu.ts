// brightness-contrast on the GPU: one pass (brightness-contrast.wgsl) with the CPU's formula and slope.
import { Uniforms } from '../../backends/gpu/uniforms.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';
import { settings } from './cpu.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const { width, height } = ctx.canvas;
    const src = g.input(ctx, 'input');
    const { brightness, slope } = settings(ctx);
    const out = g.output('raster', width, height);
    const u = new Uniforms()
      .vec2u(width, height)
      .view(src)
      .f32s(slope, 0.5 + brightness);
    g.dispatch2d('brightness-contrast', [g.uniform(u), g.view(src), g.view(out)], width, height);
    return out;
  },
};
