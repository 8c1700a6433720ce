// blend on the GPU: one pass (blend.wgsl) with the CPU kernel's formulas (cpu.ts).
import { BLEND_MODES, type BlendMode } from './cpu.js';
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
    const u = g.uniforms('blend', {
      size: [width, height],
      mode: Math.max(0, mode),
      composite,
      base,
      over,
      mask: mask ?? base,
      opacity: ctx.num('opacity'),
      has_mask: mask ? 1 : 0,
    });
    g.dispatch2d('blend', { u, base_tex: g.view(base), over_tex: g.view(over), mask_tex: g.view(mask ?? base), dst: g.view(out) }, width, height);
    return out;
  },
};
