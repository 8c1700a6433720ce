// solid: the CPU kernel (the reference).
import type { OpContext } from '../types.js';
import type { Raster } from '../../types.js';
import { acquireUniform } from '../../backends/cpu/pool.js';

/** The solid op's CPU kernel. */
export function solidCpu(ctx: OpContext): Raster {
  const [r, g, b, a] = ctx.color('color');
  const { width, height } = ctx.canvas;
  // One value everywhere, marked (the kernels that know skip their work); a pooled canvas released
  // holding this very value (the last tile's sea) comes without a fill.
  const data = acquireUniform(width * height * 4, [r * a, g * a, b * a, a]);
  return { kind: 'raster', width, height, data };
}
