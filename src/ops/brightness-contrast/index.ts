import { numRef } from '../../style/fields.js';
import { mapPixels } from '../../backends/cpu/raster.js';
import { filterOp } from '../declare.js';
import { brightnessContrast as kernel, settings } from './cpu.js';
import { gpu } from './gpu.js';

/** Linear brightness shift and contrast slope around mid-grey, on straight sRGB (docs/format.md). */
export const brightnessContrast = filterOp({
  name: 'brightness-contrast',
  description: 'brightness shift and contrast slope around mid-grey: (c - 0.5) tan((contrast + 1) pi/4) + 0.5 + brightness',
  fields: {
    brightness: numRef({ min: -1, max: 1, default: 0, description: 'added to every straight sRGB channel' }),
    contrast: numRef({ min: -1, max: 1, default: 0, description: 'slope tan((contrast + 1) pi/4) around mid-grey; -1 flat grey, 1 a threshold' }),
  },
  gpu,
  cpu(ctx) {
    const { brightness, slope } = settings(ctx);
    return mapPixels(ctx.input<'raster'>('input'), (src, dst) => kernel(src, dst, brightness, slope));
  },
});
