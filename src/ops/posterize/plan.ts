// posterize: what both backends share. Each straight sRGB channel c goes to the nearest of
// `levels` evenly spaced values 0, 1/(levels - 1), ..., 1: round(c (levels - 1)) / (levels - 1),
// a half rounding up. Alpha is kept.
import type { OpContext } from '../types.js';

/** The fewest and most levels: 2 (each channel 0 or 1) and 256 (every 8-bit value, the identity after encoding). */
export const MIN_LEVELS = 2;
export const MAX_LEVELS = 256;

/** The number of steps between levels, levels - 1, from the field (a runtime value is clamped and rounded). */
export function posterizeSteps(ctx: Pick<OpContext, 'num'>): number {
  const levels = Math.round(ctx.num('levels'));
  return (levels > MIN_LEVELS ? (levels < MAX_LEVELS ? levels : MAX_LEVELS) : MIN_LEVELS) - 1;
}
