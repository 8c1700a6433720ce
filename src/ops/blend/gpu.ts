// blend on the GPU: one pass (blend.wgsl) with the CPU kernel's formulas (cpu.ts).
import { BLEND_MODES, type BlendMode } from './cpu.js';
import { Uniforms } from '../../backends/gpu/uniforms.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';
import { compositeOf } from './plan.js';

const COMPOSITE_INDEX = { over: 0, erase: 1, atop: 2 } as const;

export const gpu: GpuOp = {
  encode(g, ctx) {
    const { width, height } = ctx.canvas;
    const base = g.input(ctx, 'base');
    const over = g.input(ctx, 'over');
    const mask = ctx.has('mask') ? g.input(ctx, 'mask') : undefined;
    const composite = COMPOSITE_INDEX[compositeOf(ctx)];
    const mode = BLEND_MODES.indexOf(((ctx.node.mode as BlendMode | undefined) ?? 'normal') as BlendMode);
    const out = g.output('raster', width, height);
    const u = new Uniforms()
      .vec2u(width, height)
      .u32s(Math.max(0, mode), composite)
      .view(base)
      .view(over)
      .view(mask ?? base)
      .f32s(ctx.num('opacity'))
      .u32s(mask ? 1 : 0);
    g.dispatch2d('blend', [g.uniform(u), g.view(base), g.view(over), g.view(mask ?? base), g.view(out)], width, height);
    return out;
  },
};
