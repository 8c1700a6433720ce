// color-to-alpha on the GPU: one pass (color-to-alpha.wgsl) with the CPU's settings.
import { filterPass } from '../../backends/gpu/filter-pass.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';
import { settings } from './cpu.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const { key, threshold, softness } = settings(ctx);
    return filterPass(g, ctx, 'color-to-alpha', { key: [key[0], key[1], key[2], 0], threshold, softness });
  },
};
