// channel-shuffle on the GPU: one pass (channel-shuffle.wgsl) with the CPU's source indices.
import { filterPass } from '../../backends/gpu/filter-pass.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';
import { sourcesOf } from './cpu.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const [sr, sg, sb, sa] = sourcesOf(ctx.node);
    return filterPass(g, ctx, 'channel-shuffle', { sr, sg, sb, sa });
  },
};
