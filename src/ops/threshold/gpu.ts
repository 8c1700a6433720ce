// threshold on the GPU: one pass (threshold.wgsl) with the CPU's settings.
import { filterPass } from '../../backends/gpu/filter-pass.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';
import { settings } from './cpu.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const { level, softness, luma } = settings(ctx);
    return filterPass(g, ctx, 'threshold', { level, softness, luma: luma ? 1 : 0 });
  },
};
