import { color } from '../../style/fields.js';
import { newRasterUninit } from '../../backends/cpu/raster.js';
import type { OpDef } from '../types.js';
import { gpu } from './gpu.js';

/** A canvas filled with one colour. */
export const solid: OpDef = {
  name: 'solid',
  description: 'fills the canvas with one colour',
  output: 'raster',
  inputs: {},
  fields: { color: color('the fill colour') },
  required: ['color'],
  gpu,
  cpu(ctx) {
    const [r, g, b, a] = ctx.color('color');
    const out = newRasterUninit(ctx.canvas.width, ctx.canvas.height);
    const d = out.data;
    for (let i = 0; i < d.length; i += 4) {
      d[i] = r * a;
      d[i + 1] = g * a;
      d[i + 2] = b * a;
      d[i + 3] = a;
    }
    return out;
  },
};
