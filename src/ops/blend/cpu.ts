// W3C Compositing and Blending Level 1 on premultiplied sRGB rasters, as browsers apply it:
// blending   Cs' = (1 - ab) Cs + ab B(Cb, Cs)            (straight colours, clamped to [0, 1])
// source-over co = as Cs' + (1 - as) cb,  ao = as + ab (1 - as)   (cb = ab Cb premultiplied)
// source-atop co = as ab Cs' + (1 - as) cb, ao = ab        (`clip`)
// dest-out    co = (1 - as) cb,  ao = (1 - as) ab           (`erase`; the mode is not used)
// where as is the source alpha times opacity times the mask's alpha.

import { acquire } from '../../backends/cpu/pool.js';
import { eraseSimd, multiplySimd, normalOverSimd } from './simd.js';

export const BLEND_MODES = [
  'normal',
  'multiply',
  'screen',
  'overlay',
  'darken',
  'lighten',
  'color-dodge',
  'color-burn',
  'hard-light',
  'soft-light',
  'difference',
  'exclusion',
  'hue',
  'saturation',
  'color',
  'luminosity',
] as const;
export type BlendMode = (typeof BLEND_MODES)[number];

export type Composite = 'over' | 'erase' | 'atop';

// Mode indices, in BLEND_MODES order.
const NORMAL = 0,
  MULTIPLY = 1,
  SCREEN = 2,
  OVERLAY = 3,
  DARKEN = 4,
  LIGHTEN = 5,
  DODGE = 6,
  BURN = 7;
const HARD = 8,
  SOFT = 9,
  DIFFERENCE = 10,
  EXCLUSION = 11,
  HUE = 12,
  SATURATION = 13,
  COLOR = 14;

/** B(Cb, Cs) of a separable mode, for one channel. */
function separable(mode: number, cb: number, cs: number): number {
  switch (mode) {
    case MULTIPLY:
      return cb * cs;
    case SCREEN:
      return cb + cs - cb * cs;
    case OVERLAY:
      return hardLight(cs, cb);
    case DARKEN:
      return Math.min(cb, cs);
    case LIGHTEN:
      return Math.max(cb, cs);
    case DODGE:
      return cb === 0 ? 0 : cs >= 1 ? 1 : Math.min(1, cb / (1 - cs));
    case BURN:
      return cb >= 1 ? 1 : cs === 0 ? 0 : 1 - Math.min(1, (1 - cb) / cs);
    case HARD:
      return hardLight(cb, cs);
    case SOFT: {
      if (cs <= 0.5) return cb - (1 - 2 * cs) * cb * (1 - cb);
      const d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : Math.sqrt(cb);
      return cb + (2 * cs - 1) * (d - cb);
    }
    case DIFFERENCE:
      return Math.abs(cb - cs);
    case EXCLUSION:
      return cb + cs - 2 * cb * cs;
    default:
      return cs;
  }
}

function hardLight(cb: number, cs: number): number {
  return cs <= 0.5 ? cb * 2 * cs : cb + (2 * cs - 1) - cb * (2 * cs - 1); // multiply / screen
}

function lum(r: number, g: number, b: number): number {
  return 0.3 * r + 0.59 * g + 0.11 * b;
}

/** SetLum(C, l) with ClipColor, into out[0..2]. */
function setLum(r: number, g: number, b: number, l: number, out: Float64Array): void {
  const d = l - lum(r, g, b);
  r += d;
  g += d;
  b += d;
  const L = lum(r, g, b);
  const n = Math.min(r, g, b);
  const x = Math.max(r, g, b);
  if (n < 0) {
    const s = L / (L - n);
    r = L + (r - L) * s;
    g = L + (g - L) * s;
    b = L + (b - L) * s;
  }
  if (x > 1) {
    const s = (1 - L) / (x - L);
    r = L + (r - L) * s;
    g = L + (g - L) * s;
    b = L + (b - L) * s;
  }
  out[0] = r;
  out[1] = g;
  out[2] = b;
}

/** SetSat(C, s) into out[0..2]: the max channel becomes s, the min 0, the mid scales between. */
function setSat(r: number, g: number, b: number, s: number, out: Float64Array): void {
  const mx = Math.max(r, g, b);
  const mn = Math.min(r, g, b);
  const range = mx - mn;
  const f = (c: number) => (range > 0 ? ((c - mn) * s) / range : 0);
  out[0] = f(r);
  out[1] = f(g);
  out[2] = f(b);
}

/** B(Cb, Cs) of a non-separable mode, into out[0..2]. */
function nonSeparable(mode: number, br: number, bg: number, bb: number, sr: number, sg: number, sb: number, out: Float64Array): void {
  switch (mode) {
    case HUE:
      setSat(sr, sg, sb, Math.max(br, bg, bb) - Math.min(br, bg, bb), out);
      setLum(out[0]!, out[1]!, out[2]!, lum(br, bg, bb), out);
      return;
    case SATURATION:
      setSat(br, bg, bb, Math.max(sr, sg, sb) - Math.min(sr, sg, sb), out);
      setLum(out[0]!, out[1]!, out[2]!, lum(br, bg, bb), out);
      return;
    case COLOR:
      setLum(sr, sg, sb, lum(br, bg, bb), out);
      return;
    default: // luminosity
      setLum(br, bg, bb, lum(sr, sg, sb), out);
  }
}

function clamp01(x: number): number {
  return x > 0 ? (x < 1 ? x : 1) : 0;
}

export interface BlendOptions {
  mode: BlendMode;
  composite: Composite;
  /** Multiplies the source alpha (0..1). */
  opacity: number;
  /** Raster (same size) whose alpha multiplies the source alpha. */
  mask?: Float32Array;
}

/**
 * Composite `over` onto `base` (same-size premultiplied RGBA); returns a new buffer. The same values
 * as blendReference, bit for bit (blend.test.ts compares), faster: the composite is decided once per
 * call; a pixel whose source coverage is 0 (a sparse layer: strokes, dots) keeps the base (the
 * general formula gives exactly cb and ab there); `multiply`, the common mode, runs its own loop.
 * Without a mask, `multiply` and `erase` run WebAssembly SIMD kernels (blend.wat; `simd: false`
 * runs the TypeScript loops, their reference).
 */
export function blendRasters(base: Float32Array, over: Float32Array, o: BlendOptions, opts: { simd?: boolean; into?: Float32Array } = {}): Float32Array {
  const simd = opts.simd !== false && !o.mask;
  const mode = BLEND_MODES.indexOf(o.mode);
  const mask = o.mask;
  const opacity = clamp01(o.opacity);
  // `into`: the base's own array (OpContext.takeInput), written in place: every loop below reads a
  // pixel's base, source and mask before it writes that pixel, and copies of the base are skipped.
  const into = opts.into === base ? base : undefined;
  if (mode === NORMAL && o.composite === 'over') {
    const out = into ?? acquire(base.length, false); // every pixel is written below
    // Without a mask, in WebAssembly SIMD (simd.ts) where available.
    if (!mask && normalOverSimd(base, over, opacity, out)) return out;
    if (mask) return normalOverMasked(base, over, opacity, mask, out);
    return normalOver(base, over, opacity, mask, out);
  }
  const out = into ?? acquire(base.length, false); // every pixel is written below
  const erase = o.composite === 'erase';
  const atop = o.composite === 'atop';
  if (erase) {
    // Without a mask, in WebAssembly SIMD (simd.ts) where available: the same values.
    if (simd && eraseSimd(base, over, opacity, out)) return out;
    for (let i = 0; i < base.length; i += 4) {
      const ab = clamp01(base[i + 3]!);
      const as = clamp01(over[i + 3]!) * opacity * (mask ? clamp01(mask[i + 3]!) : 1);
      const k = 1 - as;
      out[i] = base[i]! * k;
      out[i + 1] = base[i + 1]! * k;
      out[i + 2] = base[i + 2]! * k;
      out[i + 3] = ab * k;
    }
    return out;
  }
  if (mode === MULTIPLY) {
    // Without a mask, in WebAssembly SIMD (simd.ts) where available: the same values.
    if (simd && multiplySimd(base, over, opacity, atop, out)) return out;
    return multiply(base, over, opacity, mask, atop, out);
  }
  const nonSep = mode >= HUE;
  const B = new Float64Array(3);
  for (let i = 0; i < base.length; i += 4) {
    const ab = clamp01(base[i + 3]!);
    const cbR = base[i]!,
      cbG = base[i + 1]!,
      cbB = base[i + 2]!;
    const srcA = clamp01(over[i + 3]!);
    const as = srcA * opacity * (mask ? clamp01(mask[i + 3]!) : 1);
    if (as === 0) {
      out[i] = cbR;
      out[i + 1] = cbG;
      out[i + 2] = cbB;
      out[i + 3] = ab;
      continue;
    }
    const d = srcA > 0 ? srcA : 1;
    const sr = clamp01(over[i]! / d),
      sg = clamp01(over[i + 1]! / d),
      sb = clamp01(over[i + 2]! / d);
    let mr = sr,
      mg = sg,
      mb = sb;
    if (mode !== NORMAL && ab > 0) {
      const br = clamp01(cbR / ab),
        bg = clamp01(cbG / ab),
        bb = clamp01(cbB / ab);
      if (nonSep) nonSeparable(mode, br, bg, bb, sr, sg, sb, B);
      else {
        B[0] = separable(mode, br, sr);
        B[1] = separable(mode, bg, sg);
        B[2] = separable(mode, bb, sb);
      }
      mr = (1 - ab) * sr + ab * B[0]!;
      mg = (1 - ab) * sg + ab * B[1]!;
      mb = (1 - ab) * sb + ab * B[2]!;
    }
    const fa = atop ? as * ab : as;
    const k = 1 - as;
    out[i] = fa * mr + k * cbR;
    out[i + 1] = fa * mg + k * cbG;
    out[i + 2] = fa * mb + k * cbB;
    out[i + 3] = atop ? ab : as + ab * k;
  }
  return out;
}

/** blendRasters for `multiply` over or atop: the general formula with B = Cb Cs written out. */
function multiply(base: Float32Array, over: Float32Array, opacity: number, mask: Float32Array | undefined, atop: boolean, out: Float32Array): Float32Array {
  // Where the source coverage is 0 the result is the base with its alpha clamped to [0, 1]: the
  // base is copied whole first (one memcpy), and such a pixel only rewrites an alpha outside
  // (0, 1] (clamp01 gives +0 for -0, NaN and negatives, 1 above 1). Sparse layers (strokes) skip
  // most pixels after one load.
  if (out !== base) out.set(base);
  for (let i = 0; i < base.length; i += 4) {
    const oa = over[i + 3]!;
    if (!(oa > 0)) {
      const a = base[i + 3]!;
      if (!(a > 0 && a <= 1)) out[i + 3] = clamp01(a);
      continue;
    }
    const ab = clamp01(base[i + 3]!);
    const cbR = base[i]!,
      cbG = base[i + 1]!,
      cbB = base[i + 2]!;
    const srcA = oa < 1 ? oa : 1;
    const as = srcA * opacity * (mask ? clamp01(mask[i + 3]!) : 1);
    if (as === 0) {
      out[i + 3] = ab;
      continue;
    }
    // x / 1 is x, and with ab = 1 the mix (1 - ab) s + ab (b s) is b s exactly (0 s = +0 for the
    // clamped s >= 0): opaque sources and bases, the common case, skip those divisions.
    const d = srcA > 0 ? srcA : 1;
    let sr: number, sg: number, sb: number;
    if (d === 1) {
      sr = clamp01(over[i]!);
      sg = clamp01(over[i + 1]!);
      sb = clamp01(over[i + 2]!);
    } else {
      sr = clamp01(over[i]! / d);
      sg = clamp01(over[i + 1]! / d);
      sb = clamp01(over[i + 2]! / d);
    }
    let mr = sr,
      mg = sg,
      mb = sb;
    if (ab === 1) {
      mr = clamp01(cbR) * sr;
      mg = clamp01(cbG) * sg;
      mb = clamp01(cbB) * sb;
    } else if (ab > 0) {
      const br = clamp01(cbR / ab),
        bg = clamp01(cbG / ab),
        bb = clamp01(cbB / ab);
      mr = (1 - ab) * sr + ab * (br * sr);
      mg = (1 - ab) * sg + ab * (bg * sg);
      mb = (1 - ab) * sb + ab * (bb * sb);
    }
    const fa = atop ? as * ab : as;
    const k = 1 - as;
    out[i] = fa * mr + k * cbR;
    out[i + 1] = fa * mg + k * cbG;
    out[i + 2] = fa * mb + k * cbB;
    out[i + 3] = atop ? ab : as + ab * k;
  }
  return out;
}

// Kept on purpose beside blendRasters/multiply: the plain reading of the W3C formulas, the oracle the
// fast paths are tested against bit for bit (issue 25: the TypeScript kernel stays the reference).
/**
 * The reference kernel: every pixel through the general formula (blendRasters computes the same
 * values, bit for bit, with the composite decided once and transparent sources skipped).
 */
export function blendReference(base: Float32Array, over: Float32Array, o: BlendOptions): Float32Array {
  const out = acquire(base.length, false); // every pixel is written below
  const mode = BLEND_MODES.indexOf(o.mode);
  const mask = o.mask;
  const opacity = clamp01(o.opacity);
  const nonSep = mode >= HUE;
  if (mode === NORMAL && o.composite === 'over') {
    // Without a mask, in WebAssembly SIMD (simd.ts) where available.
    if (!mask && normalOverSimd(base, over, opacity, out)) return out;
    return normalOver(base, over, opacity, mask, out);
  }
  const B = new Float64Array(3);
  for (let i = 0; i < base.length; i += 4) {
    const ab = clamp01(base[i + 3]!);
    const cbR = base[i]!,
      cbG = base[i + 1]!,
      cbB = base[i + 2]!;
    const srcA = clamp01(over[i + 3]!);
    const as = srcA * opacity * (mask ? clamp01(mask[i + 3]!) : 1);
    if (o.composite === 'erase') {
      const k = 1 - as;
      out[i] = cbR * k;
      out[i + 1] = cbG * k;
      out[i + 2] = cbB * k;
      out[i + 3] = ab * k;
      continue;
    }
    // Straight source colour (taken before opacity and mask, which only scale coverage).
    // Division, not a reciprocal: c / a is exactly 1 when c == a (color-burn and -dodge branch there).
    const d = srcA > 0 ? srcA : 1;
    const sr = clamp01(over[i]! / d),
      sg = clamp01(over[i + 1]! / d),
      sb = clamp01(over[i + 2]! / d);
    let mr = sr,
      mg = sg,
      mb = sb;
    if (mode !== NORMAL && ab > 0) {
      const br = clamp01(cbR / ab),
        bg = clamp01(cbG / ab),
        bb = clamp01(cbB / ab);
      if (nonSep) nonSeparable(mode, br, bg, bb, sr, sg, sb, B);
      else {
        B[0] = separable(mode, br, sr);
        B[1] = separable(mode, bg, sg);
        B[2] = separable(mode, bb, sb);
      }
      mr = (1 - ab) * sr + ab * B[0]!;
      mg = (1 - ab) * sg + ab * B[1]!;
      mb = (1 - ab) * sb + ab * B[2]!;
    }
    const fa = o.composite === 'atop' ? as * ab : as;
    const k = 1 - as;
    out[i] = fa * mr + k * cbR;
    out[i + 1] = fa * mg + k * cbG;
    out[i + 2] = fa * mb + k * cbB;
    out[i + 3] = o.composite === 'atop' ? ab : as + ab * k;
  }
  return out;
}

/**
 * `normal` + `over`, the common case, without unpremultiplying: as * Cs = opacity * mask * cs, so
 * co = f cs + (1 - f as) cb with f = opacity * mask. Equal to the general path up to rounding.
 */
export function normalOver(base: Float32Array, over: Float32Array, opacity: number, mask: Float32Array | undefined, out: Float32Array): Float32Array {
  for (let i = 0; i < base.length; i += 4) {
    const srcA = over[i + 3]!;
    if (srcA <= 0) {
      out[i] = base[i]!;
      out[i + 1] = base[i + 1]!;
      out[i + 2] = base[i + 2]!;
      out[i + 3] = base[i + 3]!;
      continue;
    }
    const f = mask ? opacity * clamp01(mask[i + 3]!) : opacity;
    const as = (srcA < 1 ? srcA : 1) * f;
    const k = 1 - as;
    out[i] = f * over[i]! + k * base[i]!;
    out[i + 1] = f * over[i + 1]! + k * base[i + 1]!;
    out[i + 2] = f * over[i + 2]! + k * base[i + 2]!;
    out[i + 3] = as + k * base[i + 3]!;
  }
  return out;
}

/**
 * normalOver with a mask, the same values bit for bit (blend.test.ts compares): the base is copied
 * whole first (one memcpy; normalOver copies it pixel by pixel where srcA <= 0) and only pixels
 * whose source alpha is not <= 0 are computed, with normalOver's f64 formula. A masked layer is
 * mostly a sparse stroke (stipple's borders and state lines under the inland mask): most pixels
 * cost one load. The span from the first to the last such pixel bounds the loop.
 */
export function normalOverMasked(base: Float32Array, over: Float32Array, opacity: number, mask: Float32Array, out: Float32Array): Float32Array {
  if (out !== base) out.set(base);
  const n = base.length;
  let hi = n - 1;
  while (hi >= 3 && over[hi]! <= 0) hi -= 4;
  for (let i = 0; i < hi; i += 4) {
    const srcA = over[i + 3]!;
    if (srcA <= 0) continue;
    const f = opacity * clamp01(mask[i + 3]!);
    const as = (srcA < 1 ? srcA : 1) * f;
    const k = 1 - as;
    out[i] = f * over[i]! + k * base[i]!;
    out[i + 1] = f * over[i + 1]! + k * base[i + 1]!;
    out[i + 2] = f * over[i + 2]! + k * base[i + 2]!;
    out[i + 3] = as + k * base[i + 3]!;
  }
  return out;
}
