// posterize on the GPU: one pass (posterize.wgsl) with the plan's steps.
import { Uniforms } from '../../backends/gpu/uniforms.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';
import { posterizeSteps } from './plan.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const { width, height } = ctx.canvas;
    const src = g.input(ctx, 'input');
    const out = g.output('raster', width, height);
    const u = new Uniforms().vec2u(width, height).view(src).f32s(posterizeSteps(ctx));
    g.dispatch2d('posterize', [g.uniform(u), g.view(src), g.view(out)], width, height);
    return out;
  },
};
