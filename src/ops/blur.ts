import { nodeRef, num, numRef } from '../style/fields.js';
import { blurFast } from '../cpu/blur.js';
import { acquire, release } from '../cpu/pool.js';
import type { Raster } from '../types.js';
import type { OpDef } from './types.js';

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
  const alpha = acquire(n);
  let r = 0, g = 0, b = 0;
  let seen = false;
  let a0 = data[3]!;
  let constant = true;
  for (let i = 0, p = 0; i < n; i++, p += 4) {
    const a = data[p + 3]!;
    alpha[i] = a;
    if (a !== a0) constant = false;
    if (!seen && a > 0) {
      seen = true;
      r = data[p]! / a;
      g = data[p + 1]! / a;
      b = data[p + 2]! / a;
    }
    const tol = MONO_TOLERANCE * Math.abs(a);
    if (Math.abs(data[p]! - r * a) > tol || Math.abs(data[p + 1]! - g * a) > tol || Math.abs(data[p + 2]! - b * a) > tol) {
      release(alpha);
      return undefined;
    }
  }
  return { r, g, b, alpha, constant: constant ? a0 : NaN };
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
  shader: 'blur.wgsl',
  cpu(ctx) {
    // ctx.num clamps a $param / @node sigma to its static bound, so ceil(3 sigma) <= pad.
    const sigma = Math.max(0, ctx.num('sigma'));
    const pad = Math.ceil(3 * ctx.bound('sigma'));
    const src = ctx.input<'raster'>('input');
    const { width, height, x0, y0 } = ctx.canvas;
    const mono = monoPlane(src.data);
    if (!mono) {
      const data = blurFast(src.data, src.width, src.height, pad, pad, width, height, sigma, x0 - pad, y0 - pad);
      return { kind: 'raster', width, height, data } satisfies Raster;
    }
    // One colour c: premultiplied RGB is c A, and the blur is linear, so blur(RGB) = c blur(A).
    // Blurring the alpha plane alone does a quarter of the work. A constant plane (all sea, all
    // land) blurs to itself: the kernel is normalised and reads only the pad (ceil(3 sigma) <= pad).
    const data = acquire(width * height * 4);
    const { r, g, b } = mono;
    if (mono.constant === mono.constant) {
      const a = mono.constant;
      if (a !== 0) for (let p = 0; p < data.length; p += 4) data.set([r * a, g * a, b * a, a], p);
    } else {
      const blurred = blurFast(mono.alpha, src.width, src.height, pad, pad, width, height, sigma, x0 - pad, y0 - pad, 1);
      for (let i = 0, p = 0; i < blurred.length; i++, p += 4) {
        const a = blurred[i]!;
        data[p] = r * a;
        data[p + 1] = g * a;
        data[p + 2] = b * a;
        data[p + 3] = a;
      }
      release(blurred);
    }
    release(mono.alpha);
    return { kind: 'raster', width, height, data } satisfies Raster;
  },
};
