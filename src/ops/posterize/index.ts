import { numRef } from '../../style/fields.js';
import { mapPixels } from '../../backends/cpu/raster.js';
import { filterOp } from '../declare.js';
import { posterize as kernel } from './cpu.js';
import { gpu } from './gpu.js';
import { MAX_LEVELS, MIN_LEVELS, posterizeSteps } from './plan.js';

/** Each straight sRGB channel to the nearest of `levels` evenly spaced values, alpha kept (docs/format.md). */
export const posterize = filterOp({
  name: 'posterize',
  description: 'each straight sRGB channel to the nearest of `levels` evenly spaced values (0 and 1 included), alpha kept',
  fields: {
    levels: numRef({ min: MIN_LEVELS, max: MAX_LEVELS, default: 4, description: 'values per channel; a $param or @node is rounded and clamped' }, true),
  },
  gpu,
  cpu(ctx) {
    const steps = posterizeSteps(ctx);
    return mapPixels(ctx.input<'raster'>('input'), (src, dst) => kernel(src, dst, steps));
  },
});
