// brightness-contrast on the GPU: one pass (brightness-contrast.wgsl) with the CPU's formula and slope.
import { filterPass } from '../../backends/gpu/filter-pass.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';
import { settings } from './cpu.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const { brightness, slope } = settings(ctx);
    return filterPass(g, ctx, 'brightness-contrast', { slope, add: 0.5 + brightness });
  },
};
