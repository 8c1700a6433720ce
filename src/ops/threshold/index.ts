import { numRef, oneOfEnum } from '../../style/fields.js';
import { mapPixels } from '../../backends/cpu/raster.js';
import { filterOp } from '../declare.js';
import { settings, threshold as kernel } from './cpu.js';
import { gpu } from './gpu.js';

/** A hard or soft threshold on alpha (the colour is kept) or on luma (black / white) (docs/format.md). */
export const threshold = filterOp({
  name: 'threshold',
  description: "a hard or soft threshold: on alpha ('a', colour kept) or on Rec. 709 luma (black below, white above, alpha kept)",
  fields: {
    level: numRef({ min: 0, max: 1, default: 0.5, description: 'values above it pass' }),
    softness: numRef({ min: 0, max: 1, default: 0, description: 'width of the linear ramp centred on level; 0 is a hard step' }),
    channel: oneOfEnum(['a', 'luma'], 'a'),
  },
  gpu,
  cpu(ctx) {
    const s = settings(ctx);
    return mapPixels(ctx.input<'raster'>('input'), (src, dst) => kernel(src, dst, s.level, s.softness, s.luma));
  },
});
