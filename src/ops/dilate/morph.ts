// dilate / erode: per-channel max (min) over a (2r+1) x (2r+1) square, separable (rows, then
// columns), each pass van Herk / Gil-Werman: O(1) comparisons per pixel whatever the radius.
// Shared by the dilate and erode ops (src/ops/erode imports it).
import { nodeRef, int, numRef } from '../../style/fields.js';
import { acquire, release } from '../../backends/cpu/pool.js';
import type { Raster } from '../../types.js';
import type { OpContext, OpDef } from '../types.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';

export type MorphMode = 'max' | 'min';

/** The largest radius a style may ask for (spec §8). */
export const MAX_RADIUS = 256;

/** The radius to use: the field (clamped to its bound by ctx.num) rounded to an integer in [0, bound]. */
export function radiusOf(ctx: OpContext): number {
  const bound = Math.round(ctx.bound('radius-px'));
  const r = Math.round(ctx.num('radius-px'));
  return r > 0 ? Math.min(r, bound, MAX_RADIUS) : 0;
}

/**
 * One vHGW pass along rows: out[y][x] = op over i in [0, 2r] of src[y0 + y][x0 + x + i], for `rows`
 * rows and w columns (RGBA). Blocks of k = 2r + 1 samples start at column x0: g is the running
 * op from each block's start, h from each block's end; the window [x, x + 2r] spans at most two
 * blocks, so its value is op(h[x], g[x + 2r]).
 */
function rowPass(src: Float32Array, sw: number, y0: number, rows: number, x0: number, w: number, r: number, isMax: boolean): Float32Array {
  const k = 2 * r + 1;
  const len = w + 2 * r;
  const g = new Float32Array(len * 4);
  const h = new Float32Array(len * 4);
  const out = acquire(rows * w * 4, false);
  for (let y = 0; y < rows; y++) {
    const base = ((y0 + y) * sw + x0) * 4;
    for (let s = 0, p = 0; s < len; s++, p += 4) {
      const start = s % k === 0;
      for (let c = 0; c < 4; c++) {
        const v = src[base + p + c]!;
        const prev = g[p - 4 + c]!;
        g[p + c] = start ? v : isMax ? (v > prev ? v : prev) : v < prev ? v : prev;
      }
    }
    for (let s = len - 1, p = s * 4; s >= 0; s--, p -= 4) {
      const end = s === len - 1 || (s + 1) % k === 0;
      for (let c = 0; c < 4; c++) {
        const v = src[base + p + c]!;
        const next = h[p + 4 + c]!;
        h[p + c] = end ? v : isMax ? (v > next ? v : next) : v < next ? v : next;
      }
    }
    const o = y * w * 4;
    const d = 2 * r * 4;
    for (let q = 0; q < w * 4; q++) {
      const a = h[q]!, b = g[q + d]!;
      out[o + q] = isMax ? (a > b ? a : b) : a < b ? a : b;
    }
  }
  return out;
}

/** The vHGW pass along columns on whole rows (n values each): out row y = op of src rows y .. y + 2r. */
function colPass(src: Float32Array, n: number, rows: number, r: number, isMax: boolean): Float32Array {
  const k = 2 * r + 1;
  const outRows = rows - 2 * r;
  const g = acquire(rows * n, false);
  const h = acquire(rows * n, false);
  for (let s = 0; s < rows; s++) {
    const o = s * n;
    if (s % k === 0) g.set(src.subarray(o, o + n), o);
    else for (let j = 0; j < n; j++) {
      const v = src[o + j]!, prev = g[o - n + j]!;
      g[o + j] = isMax ? (v > prev ? v : prev) : v < prev ? v : prev;
    }
  }
  for (let s = rows - 1; s >= 0; s--) {
    const o = s * n;
    if (s === rows - 1 || (s + 1) % k === 0) h.set(src.subarray(o, o + n), o);
    else for (let j = 0; j < n; j++) {
      const v = src[o + j]!, next = h[o + n + j]!;
      h[o + j] = isMax ? (v > next ? v : next) : v < next ? v : next;
    }
  }
  const out = acquire(outRows * n, false);
  const d = 2 * r * n;
  for (let q = 0; q < outRows * n; q++) {
    const a = h[q]!, b = g[q + d]!;
    out[q] = isMax ? (a > b ? a : b) : a < b ? a : b;
  }
  release(g);
  release(h);
  return out;
}

/**
 * Max (min) over the (2r+1)^2 square of an RGBA source sw x sh whose output window w x h sits at
 * (pad, pad) inside it (pad >= r).
 */
export function morph(src: Float32Array, sw: number, pad: number, w: number, h: number, r: number, mode: MorphMode): Float32Array {
  const isMax = mode === 'max';
  if (r === 0) {
    const out = acquire(w * h * 4, false);
    for (let y = 0; y < h; y++) out.set(src.subarray(((pad + y) * sw + pad) * 4, ((pad + y) * sw + pad + w) * 4), y * w * 4);
    return out;
  }
  const rowsOut = rowPass(src, sw, pad - r, h + 2 * r, pad - r, w, r, isMax);
  const out = colPass(rowsOut, w * 4, h + 2 * r, r, isMax);
  release(rowsOut);
  return out;
}

/** The declaration shared by dilate and erode (they differ in the operator only). */
export function morphOp(name: string, mode: MorphMode, description: string, gpu: GpuOp): OpDef {
  return {
    name,
    description,
    output: 'raster',
    inputs: { input: ['raster'] },
    fields: {
      input: nodeRef(),
      'radius-px': numRef({ min: 0, max: MAX_RADIUS, description: 'half the square side in pixels (the kernel is 2r + 1 wide); integer 0..256' }, true),
      'radius-px-max': int({ min: 0, max: MAX_RADIUS, description: 'bound of radius-px when it is an @node port' }),
    },
    required: ['input', 'radius-px'],
    paddingFields: ['radius-px'],
    pad: (bound) => Math.min(MAX_RADIUS, Math.round(bound('radius-px') ?? 0)),
    gpu,
    cpu(ctx) {
      const pad = Math.min(MAX_RADIUS, Math.round(ctx.bound('radius-px')));
      const src = ctx.input<'raster'>('input');
      const { width, height } = ctx.canvas;
      const data = morph(src.data, src.width, pad, width, height, radiusOf(ctx), mode);
      return { kind: 'raster', width, height, data } satisfies Raster;
    },
  };
}
