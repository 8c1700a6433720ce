// edge-detect on the GPU: one pass, the CPU's Sobel (cpu.ts) per texel (edge-detect.wgsl).
import { filterPass } from '../../backends/gpu/filter-pass.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    return filterPass(g, ctx, 'edge-detect', { strength: Math.max(0, ctx.num('strength')) });
  },
};
