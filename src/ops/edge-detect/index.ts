import { numRef } from '../../style/fields.js';
import type { Raster } from '../../types.js';
import { filterOp } from '../declare.js';
import { sobel } from './cpu.js';
import { gpu } from './gpu.js';

/** Sobel gradient magnitude per channel times strength, clamped (src/ops/edge-detect/cpu.ts); pad 1. */
export const edgeDetect = filterOp({
  name: 'edge-detect',
  description: 'Sobel gradient magnitude per premultiplied channel times strength, clamped to [0, 1]; alpha raised to the largest colour channel',
  fields: {
    strength: numRef({ min: 0, default: 1, description: 'multiplies the gradient magnitude' }),
  },
  pad: () => 1,
  gpu,
  cpu(ctx) {
    const src = ctx.input<'raster'>('input');
    const { width, height } = ctx.canvas;
    const data = sobel(src.data, src.width, width, height, Math.max(0, ctx.num('strength')));
    return { kind: 'raster', width, height, data } satisfies Raster;
  },
});
