import { nodeRef, num, numRef } from '../../style/fields.js';
import { blurFast } from './cpu.js';
import { acquire, release } from '../../backends/cpu/pool.js';
import type { Raster } from '../../types.js';
import type { OpDef } from '../types.js';
import { gpu } from './gpu.js';

/** Relative tolerance of the one-colour test: |rgb - c A| <= MONO_TOLERANCE * A for every pixel. */
export const MONO_TOLERANCE = 1e-6;

/** A one-colour premultiplied raster: colour c (unpremultiplied) and its alpha plane. */
export interface MonoRaster {
  r: number;
  g: number;
  b: number;
  alpha: Float32Array;
  /** Every alpha is this value (the plane is constant), else NaN. */
  constant: number;
}

/**
 * If every pixel of premultiplied RGBA `data` is c * A for one colour c (within MONO_TOLERANCE * A,
 * so a pixel with A = 0 must have rgb = 0), that colour and the alpha plane; else undefined. One
 * pass, stopping at the first pixel that disagrees. c is taken from the first pixel with A > 0: a
 * Float32 c A carries a relative error ~6e-8 at any magnitude, so any such pixel gives c to ~1e-7.
 */
export function monoPlane(data: Float32Array): MonoRaster | undefined {
  const n = data.length >> 2;
  // Leading transparent pixels must be exactly (0, 0, 0, 0); the first other one gives c.
  let i = 0;
  for (; i < n; i++) {
    const p = i * 4;
    if (data[p + 3]! > 0) break;
    if (data[p] !== 0 || data[p + 1] !== 0 || data[p + 2] !== 0 || data[p + 3] !== 0) return undefined;
  }
  const alpha = acquire(n); // zero-filled: the leading pixels are done
  if (i === n) return { r: 0, g: 0, b: 0, alpha, constant: 0 };
  const a0 = data[i * 4 + 3]!;
  const r = data[i * 4]! / a0, g = data[i * 4 + 1]! / a0, b = data[i * 4 + 2]! / a0;
  const range = new Float64Array([a0, a0]);
  const first = i;
  if (scanMono(data, alpha, i, r, g, b, range) < n) {
    release(alpha);
    return undefined;
  }
  return { r, g, b, alpha, constant: first === 0 && range[0] === range[1] ? a0 : NaN };
}

/**
 * monoPlane's main loop from pixel i: copies alpha, widens range [min, max], and returns the index of
 * the first pixel off colour (r, g, b), or n. Its own function: inline in monoPlane it ran 3x slower.
 */
function scanMono(data: Float32Array, alpha: Float32Array, i: number, r: number, g: number, b: number, range: Float64Array): number {
  const n = alpha.length;
  const rel = MONO_TOLERANCE; // a local: an exported binding read in the loop costs 2x
  let lo = range[0]!, hi = range[1]!;
  for (let p = i * 4; i < n; i++, p += 4) {
    const a = data[p + 3]!;
    alpha[i] = a;
    lo = a < lo ? a : lo;
    hi = a > hi ? a : hi;
    // A negative alpha makes tol < 0 and fails the test: such a raster takes the RGBA path.
    const tol = rel * a;
    const d0 = data[p]! - r * a, d1 = data[p + 1]! - g * a, d2 = data[p + 2]! - b * a;
    if (d0 > tol || d0 < -tol || d1 > tol || d1 < -tol || d2 > tol || d2 < -tol) break;
  }
  range[0] = lo;
  range[1] = hi;
  return i;
}

/** out (RGBA) = (c A, A) for each A of the plane. Its own function: V8 optimises it as a unit. */
function tint(plane: Float32Array, r: number, g: number, b: number, out: Float32Array): void {
  for (let i = 0, p = 0; i < plane.length; i++, p += 4) {
    const a = plane[i]!;
    out[p] = r * a;
    out[p + 1] = g * a;
    out[p + 2] = b * a;
    out[p + 3] = a;
  }
}

function fillColour(out: Float32Array, r: number, g: number, b: number, a: number): void {
  if (a === 0) return; // acquire() zero-fills
  const pr = r * a, pg = g * a, pb = b * a;
  for (let p = 0; p < out.length; p += 4) {
    out[p] = pr;
    out[p + 1] = pg;
    out[p + 2] = pb;
    out[p + 3] = a;
  }
}

/** Gaussian blur in premultiplied space; padding 3 sigma. */
export const blur: OpDef = {
  name: 'blur',
  description: 'Gaussian blur',
  output: 'raster',
  inputs: { input: ['raster'] },
  fields: {
    input: nodeRef(),
    sigma: numRef({ min: 0, description: 'standard deviation in pixels' }),
    'sigma-max': num({ min: 0, description: 'bound of sigma when it is an @node port' }),
  },
  required: ['input', 'sigma'],
  paddingFields: ['sigma'],
  pad: (bound) => Math.ceil(3 * (bound('sigma') ?? 0)),
  gpu,
  cpu(ctx) {
    // ctx.num clamps a $param / @node sigma to its static bound, so ceil(3 sigma) <= pad.
    const sigma = Math.max(0, ctx.num('sigma'));
    const pad = Math.ceil(3 * ctx.bound('sigma'));
    const src = ctx.input<'raster'>('input');
    const { width, height, x0, y0 } = ctx.canvas;
    // sigma 0 is an exact crop: keep it bit-identical to the input.
    const mono = sigma > 0 ? monoPlane(src.data) : undefined;
    if (!mono) {
      const data = blurFast(src.data, src.width, src.height, pad, pad, width, height, sigma, x0 - pad, y0 - pad);
      return { kind: 'raster', width, height, data } satisfies Raster;
    }
    // One colour c: premultiplied RGB is c A, and the blur is linear, so blur(RGB) = c blur(A).
    // Blurring the alpha plane alone does a quarter of the work. A constant plane (all sea, all
    // land) blurs to itself: the kernel is normalised and reads only the pad (ceil(3 sigma) <= pad).
    const data = acquire(width * height * 4);
    if (mono.constant === mono.constant) fillColour(data, mono.r, mono.g, mono.b, mono.constant);
    else {
      const blurred = blurFast(mono.alpha, src.width, src.height, pad, pad, width, height, sigma, x0 - pad, y0 - pad, 1);
      tint(blurred, mono.r, mono.g, mono.b, data);
      release(blurred);
    }
    release(mono.alpha);
    return { kind: 'raster', width, height, data } satisfies Raster;
  },
};
