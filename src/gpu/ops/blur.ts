// blur on the GPU: the CPU kernel's stages (src/cpu/blur.ts: blurExact for small sigma, blurFast's
// tent decimation / block-grid Gaussian / B-spline upsampling otherwise) as 1-D tap passes
// (src/shaders/blur.wgsl). The tap tables are built here with the CPU's own formulas.
import { decimationFactor, gaussianKernel, kernelRadius } from '../../cpu/blur.js';
import type { GpuImage } from '../image.js';
import { Uniforms } from '../uniforms.js';
import type { GpuEncoder, GpuOp } from './types.js';

/** Taps of one 1-D stage: output j sums weight[t] * src[index[t]] for t in [start[j], start[j] + count[j]). */
class Taps {
  spans: Uint32Array;
  index: number[] = [];
  weight: number[] = [];
  constructor(outputs: number) {
    this.spans = new Uint32Array(outputs * 2);
  }
  begin(j: number): void {
    this.spans[j * 2] = this.index.length;
  }
  add(i: number, w: number): void {
    this.index.push(i);
    this.weight.push(w);
  }
  end(j: number): void {
    this.spans[j * 2 + 1] = this.index.length - this.spans[j * 2]!;
  }
}

/** One stage: `src` (a view) resampled along `axis` (0: x, 1: y) into a width x height texture. */
function pass(g: GpuEncoder, src: GpuImage, axis: 0 | 1, width: number, height: number, taps: Taps): GpuImage {
  const out = g.output('raster', width, height);
  const u = new Uniforms().vec2u(width, height).u32s(axis).view(src);
  g.dispatch2d('blur', [g.uniform(u), g.view(src), g.view(out), g.storage(taps.spans), g.storage(Uint32Array.from(taps.index)), g.storage(Float32Array.from(taps.weight))], width, height);
  return out;
}

/** Taps of a kernel `k` centred at `offset + j` for each output j, reading 0 outside [0, len) (or the edge when `clamp`). */
function kernelTaps(outputs: number, offset: number, len: number, k: ArrayLike<number>, clamp: boolean): Taps {
  const r = (k.length - 1) >> 1;
  const t = new Taps(outputs);
  for (let j = 0; j < outputs; j++) {
    t.begin(j);
    for (let i = 0; i < k.length; i++) {
      let s = offset + j + i - r;
      if (clamp) s = s < 0 ? 0 : s >= len ? len - 1 : s;
      else if (s < 0 || s >= len) continue;
      t.add(s, k[i]!);
    }
    t.end(j);
  }
  return t;
}

/** The tent decimation of one axis (src/cpu/blur.ts tentPlan): block b averages source pixels with weight k - |x - c_b|, renormalised. */
function tentTaps(k: number, start: number, srcLen: number): { taps: Taps; blocks: number; variance: number } {
  const blocks = Math.ceil((srcLen - start) / k);
  const taps = new Taps(blocks);
  const w = new Float64Array(2 * k + 1);
  for (let b = 0; b < blocks; b++) {
    const c = start + b * k + (k - 1) / 2;
    const x0 = Math.max(0, Math.floor(c - k) + 1);
    const x1 = Math.min(srcLen - 1, Math.ceil(c + k) - 1);
    let sum = 0;
    for (let x = x0; x <= x1; x++) sum += w[x - x0] = k - Math.abs(x - c);
    taps.begin(b);
    for (let x = x0; x <= x1; x++) taps.add(x, w[x - x0]! / sum);
    taps.end(b);
  }
  let v = 0;
  let s = 0;
  for (let d = -(k - 1) / 2 - k; d <= k; d++) {
    const wt = Math.max(0, k - Math.abs(d));
    v += wt * d * d;
    s += wt;
  }
  return { taps, blocks, variance: v / s };
}

/** The block grid's Gaussian (src/cpu/blur.ts gridKernel), truncated where the full kernel is. */
function gridKernel(sd: number, r: number, k: number): Float64Array {
  const rc = (r + 0.5) / k;
  const rho = Math.ceil(rc - 0.5);
  const w = new Float64Array(2 * rho + 1);
  let sum = 0;
  for (let j = -rho; j <= rho; j++) {
    const m = Math.min(1, Math.max(0, rc - (Math.abs(j) - 0.5)));
    sum += w[j + rho] = m * (sd > 0 ? Math.exp(-(j * j) / (2 * sd * sd)) : j === 0 ? 1 : 0);
  }
  for (let i = 0; i < w.length; i++) w[i]! /= sum;
  return w;
}

/** Quadratic B-spline upsampling taps (src/cpu/blur.ts splinePlan), block indices clamped to the grid. */
function splineTaps(k: number, start: number, o: number, len: number, blocks: number): Taps {
  const taps = new Taps(len);
  const clamp = (i: number) => Math.min(Math.max(i, 0), blocks - 1);
  for (let x = 0; x < len; x++) {
    const u = (o + x - start - (k - 1) / 2) / k;
    const i = Math.round(u);
    const d = u - i;
    taps.begin(x);
    taps.add(clamp(i - 1), Math.fround(0.5 * (0.5 - d) * (0.5 - d)));
    taps.add(clamp(i), Math.fround(0.75 - d * d));
    taps.add(clamp(i + 1), Math.fround(0.5 * (0.5 + d) * (0.5 + d)));
    taps.end(x);
  }
  return taps;
}

export const blur: GpuOp = {
  name: 'blur',
  encode(g, ctx) {
    const sigma = Math.max(0, ctx.num('sigma'));
    const pad = Math.ceil(3 * ctx.bound('sigma'));
    const src = g.input(ctx, 'input');
    const { width: w, height: h, x0, y0 } = ctx.canvas;
    const sw = src.width;
    const sh = src.height;
    // sigma 0: the input itself, seen without its padding (no pass).
    if (!(sigma > 0)) return src.crop(pad, pad, w, h);
    const k = decimationFactor(sigma);
    if (k === 1) {
      // blurExact: rows pass over the source rows the column pass reads, then the column pass.
      const kern = gaussianKernel(sigma);
      const r = kernelRadius(sigma);
      const ya = Math.max(0, pad - r);
      const yb = Math.min(sh, pad + h + r);
      const rows = pass(g, src.crop(0, ya, sw, yb - ya), 0, w, yb - ya, kernelTaps(w, pad, sw, kern, false));
      return pass(g, rows, 1, w, h, kernelTaps(h, pad - ya, yb - ya, kern, false));
    }
    const wx = x0 - pad;
    const wy = y0 - pad;
    const startX = -(((wx % k) + k) % k);
    const startY = -(((wy % k) + k) % k);
    const tx = tentTaps(k, startX, sw);
    const ty = tentTaps(k, startY, sh);
    const bw = tx.blocks;
    const bh = ty.blocks;
    const vdec = pass(g, src, 1, sw, bh, ty.taps);
    const dec = pass(g, vdec, 0, bw, bh, tx.taps);
    const varD = (sigma * sigma - tx.variance) / (k * k) - 0.25;
    const kd = gridKernel(Math.sqrt(Math.max(varD, 0)), kernelRadius(sigma), k);
    const gridRows = pass(g, dec, 0, bw, bh, kernelTaps(bw, 0, bw, kd, true));
    const grid = pass(g, gridRows, 1, bw, bh, kernelTaps(bh, 0, bh, kd, true));
    const hup = pass(g, grid, 0, w, bh, splineTaps(k, startX, pad, w, bw));
    return pass(g, hup, 1, w, h, splineTaps(k, startY, pad, h, bh));
  },
};
