// posterize on the GPU: one pass (posterize.wgsl) with the plan's steps.
import { filterPass } from '../../backends/gpu/filter-pass.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';
import { posterizeSteps } from './plan.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    return filterPass(g, ctx, 'posterize', { steps: posterizeSteps(ctx) });
  },
};
