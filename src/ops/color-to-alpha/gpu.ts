// color-to-alpha on the GPU: one pass (color-to-alpha.wgsl) with the CPU's settings.
import { Uniforms } from '../../backends/gpu/uniforms.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';
import { settings } from './cpu.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const { width, height } = ctx.canvas;
    const src = g.input(ctx, 'input');
    const { key, threshold, softness } = settings(ctx);
    const out = g.output('raster', width, height);
    const u = new Uniforms().vec2u(width, height).view(src).vec4f(key[0], key[1], key[2], 0).f32s(threshold, softness);
    g.dispatch2d('color-to-alpha', [g.uniform(u), g.view(src), g.view(out)], width, height);
    return out;
  },
};
