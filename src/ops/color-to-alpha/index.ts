import { color, numRef } from '../../style/fields.js';
import { mapPixels } from '../../backends/cpu/raster.js';
import { filterOp } from '../declare.js';
import { colorToAlpha as kernel, settings } from './cpu.js';
import { gpu } from './gpu.js';

/** Makes one colour transparent by Chebyshev distance in straight sRGB (docs/format.md). */
export const colorToAlpha = filterOp({
  name: 'color-to-alpha',
  description: 'alpha 0 within threshold of a colour (Chebyshev distance, straight sRGB), unchanged beyond threshold + softness, linear between',
  fields: {
    color: color('the colour to remove (its alpha is ignored)'),
    threshold: numRef({ min: 0, max: 1, default: 0, description: 'distances up to this become transparent' }),
    softness: numRef({ min: 0, max: 1, default: 0.1, description: 'width of the linear ramp back to the original alpha' }),
  },
  required: ['color'],
  gpu,
  cpu(ctx) {
    const s = settings(ctx);
    return mapPixels(ctx.input<'raster'>('input'), (src, dst) => kernel(src, dst, s.key, s.threshold, s.softness));
  },
});
