// solid: the CPU kernel (the reference).
import type { OpContext } from '../types.js';
import type { Raster } from '../../types.js';
import { newRasterUninit } from '../../backends/cpu/raster.js';
import { markUniform } from '../../backends/cpu/uniform.js';

/** The solid op's CPU kernel. */
export function solidCpu(ctx: OpContext): Raster {
  const [r, g, b, a] = ctx.color('color');
  const out = newRasterUninit(ctx.canvas.width, ctx.canvas.height);
  const d = out.data;
  // One row by hand, then whole rows by memory copy.
  const row = Math.min(d.length, ctx.canvas.width * 4);
  for (let i = 0; i < row; i += 4) {
    d[i] = r * a;
    d[i + 1] = g * a;
    d[i + 2] = b * a;
    d[i + 3] = a;
  }
  for (let filled = row; filled < d.length; filled *= 2) d.copyWithin(filled, 0, Math.min(filled, d.length - filled));
  if (d.length) markUniform(d, d.subarray(0, 4)); // one value everywhere: the kernels that know skip their work
  return out;
}
