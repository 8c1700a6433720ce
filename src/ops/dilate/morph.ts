// dilate / erode: per-channel max (min) over a (2r+1) x (2r+1) square, separable (rows, then
// columns), each pass van Herk / Gil-Werman: O(1) comparisons per pixel whatever the radius.
// Shared by the dilate and erode ops (src/ops/erode imports it).
import { nodeRef, int, numRef } from '../../style/fields.js';
import { acquire, release } from '../../backends/cpu/pool.js';
import type { Raster } from '../../types.js';
import type { OpContext, OpDef } from '../types.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';
import { monoPlane } from '../blur/cpu.js';
import { morphSimd } from './simd.js';

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
 * rows and w columns of nc channels (RGBA, or one plane). Blocks of k = 2r + 1 samples start at column x0: g is the running
 * op from each block's start, h from each block's end; the window [x, x + 2r] spans at most two
 * blocks, so its value is op(h[x], g[x + 2r]). Max and min are separate loops (V8 keeps each tight).
 */
function rowPass(src: Float32Array, sw: number, y0: number, rows: number, x0: number, w: number, r: number, isMax: boolean, nc: number): Float32Array {
  const k4 = (2 * r + 1) * nc;
  const n = (w + 2 * r) * nc;
  const line = new Float32Array(n);
  const g = new Float32Array(n);
  const h = new Float32Array(n);
  const out = acquire(rows * w * nc, false);
  const d = 2 * r * nc;
  for (let y = 0; y < rows; y++) {
    const base = ((y0 + y) * sw + x0) * nc;
    line.set(src.subarray(base, base + n));
    if (isMax) runsMax(line, g, h, n, k4, nc);
    else runsMin(line, g, h, n, k4, nc);
    const o = y * w * nc;
    if (isMax) combineMax(h, g, d, out, o, w * nc);
    else combineMin(h, g, d, out, o, w * nc);
  }
  return out;
}

/**
 * Running max per block of `k` values (blocks of k / stride samples, `stride` interleaved channels):
 * g from each block's start, h from each block's end.
 */
function runsMax(v: Float32Array, g: Float32Array, h: Float32Array, n: number, k: number, stride: number): void {
  for (let b = 0; b < n; b += k) {
    const e = b + k < n ? b + k : n;
    for (let q = b; q < b + stride && q < e; q++) g[q] = v[q]!;
    for (let q = b + stride; q < e; q++) {
      const a = v[q]!,
        p = g[q - stride]!;
      g[q] = a > p ? a : p;
    }
    for (let q = e - stride; q < e; q++) h[q] = v[q]!;
    for (let q = e - stride - 1; q >= b; q--) {
      const a = v[q]!,
        p = h[q + stride]!;
      h[q] = a > p ? a : p;
    }
  }
}

function runsMin(v: Float32Array, g: Float32Array, h: Float32Array, n: number, k: number, stride: number): void {
  for (let b = 0; b < n; b += k) {
    const e = b + k < n ? b + k : n;
    for (let q = b; q < b + stride && q < e; q++) g[q] = v[q]!;
    for (let q = b + stride; q < e; q++) {
      const a = v[q]!,
        p = g[q - stride]!;
      g[q] = a < p ? a : p;
    }
    for (let q = e - stride; q < e; q++) h[q] = v[q]!;
    for (let q = e - stride - 1; q >= b; q--) {
      const a = v[q]!,
        p = h[q + stride]!;
      h[q] = a < p ? a : p;
    }
  }
}

function combineMax(h: Float32Array, g: Float32Array, d: number, out: Float32Array, o: number, n: number): void {
  for (let q = 0; q < n; q++) {
    const a = h[q]!,
      b = g[q + d]!;
    out[o + q] = a > b ? a : b;
  }
}

function combineMin(h: Float32Array, g: Float32Array, d: number, out: Float32Array, o: number, n: number): void {
  for (let q = 0; q < n; q++) {
    const a = h[q]!,
      b = g[q + d]!;
    out[o + q] = a < b ? a : b;
  }
}

/**
 * The vHGW pass along columns on whole rows (n values each): out row y = op of src rows y .. y + 2r.
 * The same running ops with a stride of one row, so every inner loop walks memory in order.
 */
function colPass(src: Float32Array, n: number, rows: number, r: number, isMax: boolean): Float32Array {
  const total = rows * n;
  const g = acquire(total, false);
  const h = acquire(total, false);
  if (isMax) runsMax(src, g, h, total, (2 * r + 1) * n, n);
  else runsMin(src, g, h, total, (2 * r + 1) * n, n);
  const outRows = rows - 2 * r;
  const out = acquire(outRows * n, false);
  if (isMax) combineMax(h, g, 2 * r * n, out, 0, outRows * n);
  else combineMin(h, g, 2 * r * n, out, 0, outRows * n);
  release(g);
  release(h);
  return out;
}

/**
 * Max (min) over the (2r+1)^2 square of a source sw pixels wide (nc channels: RGBA by default)
 * whose output window w x h sits at (pad, pad) inside it (pad >= r). WebAssembly SIMD
 * (./simd.ts, van Herk's doubling) where available, else morphScalar: the same values.
 */
export function morph(src: Float32Array, sw: number, pad: number, w: number, h: number, r: number, mode: MorphMode, nc = 4): Float32Array {
  if (r > 0 && w > 0 && h > 0) {
    const out = acquire(w * h * nc, false);
    if (morphSimd(src, sw, pad, w, h, r, mode === 'max', nc, out)) return out;
    release(out);
  }
  return morphScalar(src, sw, pad, w, h, r, mode, nc);
}

/** The reference: morph in TypeScript, one vHGW pass along rows, one down columns. */
export function morphScalar(src: Float32Array, sw: number, pad: number, w: number, h: number, r: number, mode: MorphMode, nc = 4): Float32Array {
  const isMax = mode === 'max';
  if (r === 0) {
    const out = acquire(w * h * nc, false);
    for (let y = 0; y < h; y++) out.set(src.subarray(((pad + y) * sw + pad) * nc, ((pad + y) * sw + pad + w) * nc), y * w * nc);
    return out;
  }
  const rowsOut = rowPass(src, sw, pad - r, h + 2 * r, pad - r, w, r, isMax, nc);
  const out = colPass(rowsOut, w * nc, h + 2 * r, r, isMax);
  release(rowsOut);
  return out;
}

/**
 * The op's kernel. A one-colour input (every pixel c A, as a fill or stroke of one colour) is
 * processed on its alpha plane alone, a quarter of the work: c >= 0, so max (min) of c A is c times
 * max (min) of A.
 */
export function morphRaster(src: Float32Array, sw: number, pad: number, w: number, h: number, r: number, mode: MorphMode): Float32Array {
  const mono = r > 0 ? monoPlane(src) : undefined;
  if (!mono) return morph(src, sw, pad, w, h, r, mode);
  const plane = morph(mono.alpha, sw, pad, w, h, r, mode, 1);
  release(mono.alpha);
  const out = acquire(w * h * 4, false);
  for (let i = 0, p = 0; i < w * h; i++, p += 4) {
    const a = plane[i]!;
    out[p] = mono.r * a;
    out[p + 1] = mono.g * a;
    out[p + 2] = mono.b * a;
    out[p + 3] = a;
  }
  release(plane);
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
      'radius-px': numRef(
        { min: 0, max: MAX_RADIUS, unit: 'px', description: 'half the square side in pixels (the kernel is 2r + 1 wide); integer 0..256' },
        true,
      ),
      'radius-px-max': int({ min: 0, max: MAX_RADIUS, unit: 'px', description: 'bound of radius-px when it is an @node port' }),
    },
    required: ['input', 'radius-px'],
    paddingFields: ['radius-px'],
    pad: (bound) => Math.min(MAX_RADIUS, Math.round(bound('radius-px') ?? 0)),
    // The kernel's radius is round(value) (radiusOf), its reach exactly that; max and min are exact,
    // so where its blocks start does not matter.
    valueBound: (_field, radius) => Math.max(0, radius),
    gpu,
    cpu(ctx) {
      const pad = Math.min(MAX_RADIUS, Math.round(ctx.bound('radius-px')));
      const src = ctx.input<'raster'>('input');
      const { width, height } = ctx.canvas;
      const data = morphRaster(src.data, src.width, pad, width, height, radiusOf(ctx), mode);
      return { kind: 'raster', width, height, data } satisfies Raster;
    },
  };
}
