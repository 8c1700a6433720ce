// solid: the CPU kernel (the reference).
import type { OpContext } from '../types.js';
import type { Raster } from '../../types.js';
import { newRasterUninit } from '../../backends/cpu/raster.js';

/** The solid op's CPU kernel. */
export function solidCpu(ctx: OpContext): Raster {
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
}
