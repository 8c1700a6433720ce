import { colorParam, numRef, oneOfEnum } from '../../style/fields.js';
import { newRasterUninit } from '../../backends/cpu/raster.js';
import { filterOp } from '../declare.js';
import { floydSteinberg, ordered } from './cpu.js';
import { amountOf, MAX_PALETTE, matrixOf, METHODS, resolvePalette, SPACES } from './plan.js';
import { gpu } from './gpu.js';

/** Reduces a raster to a palette: ordered or blue-noise (world-anchored threshold matrices) or Floyd-Steinberg (docs/format.md). */
export const dither = filterOp({
  name: 'dither',
  description:
    "reduces to a palette: 'ordered' (4x4 Bayer) or 'blue-noise' (64x64 void-and-cluster), both anchored to world pixels and seamless, or 'floyd-steinberg' (error diffusion over the canvas, not seamless across tiles); alpha preserved",
  fields: {
    palette: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_PALETTE,
      items: colorParam(),
      description: 'the colours to reduce to (alpha ignored)',
      'x-expect': `an array of 1 to ${MAX_PALETTE} colours (#rrggbb, #rrggbbaa or $param)`,
    },
    method: oneOfEnum(METHODS, 'floyd-steinberg'),
    amount: numRef({ min: 0, max: 1, default: 0.5, description: 'ordered and blue-noise: strength of the threshold offset (1: up to +-1/2 per channel)' }),
    space: oneOfEnum(SPACES, 'lab'),
  },
  required: ['palette'],
  // Error diffusion runs over the whole canvas: a smaller canvas would diffuse differently.
  keepsCanvas: (node) => matrixOf(node) === undefined,
  gpu,
  cpu(ctx) {
    const src = ctx.input<'raster'>('input');
    const { width, height } = src;
    const out = newRasterUninit(width, height);
    const p = resolvePalette(ctx);
    const matrix = matrixOf(ctx.node);
    if (matrix) ordered(src.data, out.data, width, height, ctx.canvas.x0, ctx.canvas.y0, p, amountOf(ctx), matrix);
    else floydSteinberg(src.data, out.data, width, height, p);
    return out;
  },
});
