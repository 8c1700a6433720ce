import { oneOfEnum } from '../../style/fields.js';
import { mapPixels } from '../../backends/cpu/raster.js';
import { filterOp } from '../declare.js';
import { CHANNELS, channelShuffle as kernel, sourcesOf } from './cpu.js';
import { gpu } from './gpu.js';

/** Each output channel fed by a named input channel or a constant, on straight sRGB (docs/format.md). */
export const channelShuffle = filterOp({
  name: 'channel-shuffle',
  description: 'feeds each output channel (straight sRGB) from a named input channel or the constant 0 or 1',
  fields: {
    r: oneOfEnum(CHANNELS, 'r'),
    g: oneOfEnum(CHANNELS, 'g'),
    b: oneOfEnum(CHANNELS, 'b'),
    a: oneOfEnum(CHANNELS, 'a'),
  },
  gpu,
  cpu(ctx) {
    const sources = sourcesOf(ctx.node);
    return mapPixels(ctx.input<'raster'>('input'), (src, dst) => kernel(src, dst, sources));
  },
});
