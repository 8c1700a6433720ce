// What both backends share for dither: the resolved palette (output colours and their coordinates
// in the matching space), the threshold matrices and the 8-bit reading of the input.
import { RenderError } from '../../errors.js';
import type { OpContext } from '../types.js';
import { blueNoise64 } from './blue-noise.js';

export const METHODS = ['floyd-steinberg', 'ordered', 'blue-noise'] as const;
export type Method = (typeof METHODS)[number];
export const SPACES = ['lab', 'rgb'] as const;
export type Space = (typeof SPACES)[number];
/** Palettes are bounded (a nearest-entry search per pixel). */
export const MAX_PALETTE = 256;

/** The ordered method's amount (runtime values clamp to [0, 1]). */
export function amountOf(ctx: Pick<OpContext, 'num'>): number {
  return Math.min(1, Math.max(0, ctx.num('amount')));
}

/**
 * A square threshold matrix tiled over world pixels: `ranks` (row-major, size x size, a
 * permutation of 0 .. size^2 - 1). At world pixel (x, y) the rank r = ranks[(y & (size - 1)) *
 * size + (x & (size - 1))] gives the offset amount x ((r + 0.5) / size^2 - 1/2) added to each
 * channel. `&` keeps the low bits of any integer, negative world pixels included, alike on both
 * backends.
 */
export interface ThresholdMatrix {
  size: number;
  ranks: Uint16Array;
}

/** The classic 4x4 Bayer matrix (method `ordered`). */
export const BAYER4: ThresholdMatrix = { size: 4, ranks: Uint16Array.of(0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5) };

/** The rank of matrix `m` at world pixel (x, y). */
export function rankAt(m: ThresholdMatrix, x: number, y: number): number {
  const mask = m.size - 1;
  return m.ranks[(y & mask) * m.size + (x & mask)]!;
}

/** The offset of rank r of a matrix of `levels` = size^2 entries. */
function offsetOf(rank: number, levels: number, amount: number): number {
  return amount * ((rank + 0.5) / levels - 0.5);
}

/** The 8-bit value of a straight channel in [0, 1] (what a PNG of the input would hold), as a float. */
export function to8(v: number): number {
  return byte(v) / 255;
}

/** round(255 v) of v clamped to [0, 1]: the 8-bit value. */
export function byte(v: number): number {
  return Math.floor((v > 0 ? (v < 1 ? v : 1) : 0) * 255 + 0.5);
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
    coordsOf(space, c[0]!, c[1]!, c[2]!, coords.subarray(i * 3, i * 3 + 3));
  });
  return { size: n, rgb, coords, space };
}

// d3-color's CIELAB (D50), as src/backends/cpu/color.ts fromRgb('lab'), with Math.cbrt (faster
// than pow(t, 1/3), equal to within an ulp).
const T0 = 4 / 29;
const T1 = 6 / 29;
const T2 = 3 * T1 * T1;
const T3 = T1 * T1 * T1;
const lin = (x: number) => (x <= 0.04045 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4));
const f = (t: number) => (t > T3 ? Math.cbrt(t) : t / T2 + T0);

/** Writes the coordinates of straight sRGB (r, g, b) in `space` to out[0..2]. */
function coordsOf(space: Space, r: number, g: number, b: number, out: Float64Array): void {
  if (space === 'rgb') {
    out[0] = r;
    out[1] = g;
    out[2] = b;
    return;
  }
  const lr = lin(r),
    lg = lin(g),
    lb = lin(b);
  const y = f(0.2225045 * lr + 0.7168786 * lg + 0.0606169 * lb);
  let x = y,
    z = y;
  if (!(lr === lg && lg === lb)) {
    x = f((0.4360747 * lr + 0.3850649 * lg + 0.1430804 * lb) / 0.96422);
    z = f((0.0139322 * lr + 0.0971045 * lg + 0.7141733 * lb) / 0.82521);
  }
  out[0] = 116 * y - 16;
  out[1] = 500 * (x - y);
  out[2] = 200 * (y - z);
}

/** Index of the palette entry nearest to the straight sRGB colour (r, g, b); ties take the first. */
export function nearest(p: Palette, r: number, g: number, b: number, scratch: Float64Array): number {
  coordsOf(p.space, r, g, b, scratch);
  const x = scratch[0]!,
    y = scratch[1]!,
    z = scratch[2]!;
  const c = p.coords;
  let best = 0;
  let bestD = Infinity;
  for (let i = 0; i < p.size; i++) {
    const dx = x - c[i * 3]!,
      dy = y - c[i * 3 + 1]!,
      dz = z - c[i * 3 + 2]!;
    const d = dx * dx + dy * dy + dz * dz;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

const CACHE_BITS = 14;

/**
 * The ordered methods' nearest entry for an 8-bit colour and a matrix rank, memoised in a small
 * direct-mapped cache (flat map colours repeat): the same answer as `nearest`, computed once.
 */
export class OrderedMatcher {
  private colors = new Int32Array(1 << CACHE_BITS).fill(-1);
  private ranks = new Int32Array(1 << CACHE_BITS);
  private values = new Uint16Array(1 << CACHE_BITS);
  private scratch = new Float64Array(3);
  constructor(
    private readonly p: Palette,
    private readonly amount: number,
    private readonly levels: number,
  ) {}

  /** r8, g8, b8 in 0..255; rank in 0 .. levels - 1. */
  match(r8: number, g8: number, b8: number, rank: number): number {
    const rgb = (r8 << 16) | (g8 << 8) | b8;
    const slot = Math.imul(rgb ^ Math.imul(rank, 0x85ebca6b), 0x9e3779b1) >>> (32 - CACHE_BITS);
    if (this.colors[slot] === rgb && this.ranks[slot] === rank) return this.values[slot]!;
    const o = offsetOf(rank, this.levels, this.amount);
    const c = (v: number) => {
      const x = v / 255 + o;
      return x > 0 ? (x < 1 ? x : 1) : 0;
    };
    const k = nearest(this.p, c(r8), c(g8), c(b8), this.scratch);
    this.colors[slot] = rgb;
    this.ranks[slot] = rank;
    this.values[slot] = k;
    return k;
  }
}

/** The threshold matrix of the node's method, or undefined for error diffusion. */
export function matrixOf(node: Record<string, unknown>): ThresholdMatrix | undefined {
  return node.method === 'ordered' ? BAYER4 : node.method === 'blue-noise' ? blueNoise64() : undefined;
}
