// What both backends share for dither: the resolved palette (output colours and their coordinates
// in the matching space), the 4x4 Bayer matrix and the 8-bit reading of the input.
import { fromRgb } from '../../backends/cpu/color.js';
import { RenderError } from '../../errors.js';
import type { OpContext } from '../types.js';

export const METHODS = ['floyd-steinberg', 'ordered'] as const;
export type Method = (typeof METHODS)[number];
export const SPACES = ['lab', 'rgb'] as const;
export type Space = (typeof SPACES)[number];
/** Palettes are bounded (a nearest-entry search per pixel). */
export const MAX_PALETTE = 256;

/** The ordered method's amount (runtime values clamp to [0, 1]). */
export function amountOf(ctx: Pick<OpContext, 'num'>): number {
  return Math.min(1, Math.max(0, ctx.num('amount')));
}

/** The classic 4x4 Bayer index matrix, row-major; threshold = (index + 0.5) / 16. */
export const BAYER4 = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5] as const;

/**
 * The ordered method's offset at world pixel (x, y), added to each straight sRGB channel:
 * amount x ((index + 0.5) / 16 - 1/2). `& 3` wraps negative world pixels the same on both backends.
 */
export function bayerOffset(x: number, y: number, amount: number): number {
  return amount * ((BAYER4[((y & 3) << 2) | (x & 3)]! + 0.5) / 16 - 0.5);
}

/** The 8-bit value of a straight channel in [0, 1] (what a PNG of the input would hold), as a float. */
export function to8(v: number): number {
  return Math.floor((v > 0 ? (v < 1 ? v : 1) : 0) * 255 + 0.5) / 255;
}

export interface Palette {
  size: number;
  /** Straight sRGB of each entry (3 per entry): what a pixel becomes. */
  rgb: Float64Array;
  /** Each entry in the matching space (3 per entry): sRGB, or d3-color's CIELAB (D50). */
  coords: Float64Array;
  space: Space;
}

export function resolvePalette(ctx: Pick<OpContext, 'node' | 'resolve' | 'id'>): Palette {
  const entries = ctx.node.palette as unknown[];
  const space = ((ctx.node.space as Space | undefined) ?? 'lab') === 'rgb' ? 'rgb' : 'lab';
  const n = entries.length;
  const rgb = new Float64Array(n * 3);
  const coords = new Float64Array(n * 3);
  entries.forEach((e, i) => {
    const c = ctx.resolve(e);
    if (!Array.isArray(c)) throw new RenderError(`node '${ctx.id}' palette[${i}] is not a colour`);
    rgb.set(c.slice(0, 3), i * 3);
    fromRgb(space, c[0]!, c[1]!, c[2]!, coords, i * 3);
  });
  return { size: n, rgb, coords, space };
}

/** Index of the palette entry nearest to the straight sRGB colour (r, g, b); ties take the first. */
export function nearest(p: Palette, r: number, g: number, b: number, scratch: Float64Array): number {
  fromRgb(p.space, r, g, b, scratch, 0);
  const x = scratch[0]!, y = scratch[1]!, z = scratch[2]!;
  const c = p.coords;
  let best = 0;
  let bestD = Infinity;
  for (let i = 0; i < p.size; i++) {
    const dx = x - c[i * 3]!, dy = y - c[i * 3 + 1]!, dz = z - c[i * 3 + 2]!;
    const d = dx * dx + dy * dy + dz * dz;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}
