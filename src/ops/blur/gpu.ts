// blur on the GPU: the CPU kernel's stages (cpu.ts: blurExact for small sigma, blurFast's
// tent decimation / block-grid Gaussian / B-spline upsampling otherwise) as 1-D tap passes
// (blur.wgsl). The tap tables come from the plans the CPU kernel uses (plan.ts).
import { decimationFactor, gaussianKernel, gridKernel, gridStart, kernelRadius, splinePlan, tentPlan } from './plan.js';
import type { GpuImage } from '../../backends/gpu/image.js';
import type { GpuEncoder, GpuOp } from '../../backends/gpu/encoder.js';

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
  const u = g.uniforms('blur', { size: [width, height], axis, src });
  const spans = g.storage(taps.spans);
  const index = g.storage(Uint32Array.from(taps.index));
  const weight = g.storage(Float32Array.from(taps.weight));
  g.dispatch2d('blur', { u, src: g.view(src), dst: g.view(out), spans, index, weight }, width, height);
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

/** The tent decimation of one axis as taps: the CPU's own plan (plan.ts tentPlan). */
function tentTaps(k: number, start: number, srcLen: number): { taps: Taps; blocks: number; variance: number } {
  const plan = tentPlan(k, start, srcLen);
  const taps = new Taps(plan.blocks);
  for (let b = 0; b < plan.blocks; b++) {
    taps.begin(b);
    for (let i = 0; i < plan.count[b]!; i++) taps.add(plan.first[b]! + i, plan.weights[b * 2 * k + i]!);
    taps.end(b);
  }
  return { taps, blocks: plan.blocks, variance: plan.variance };
}

/** Quadratic B-spline upsampling as taps (plan.ts splinePlan), block indices clamped to the grid. */
function splineTaps(k: number, start: number, o: number, len: number, blocks: number): Taps {
  const plan = splinePlan(k, start, o, len);
  const taps = new Taps(len);
  const clamp = (i: number) => Math.min(Math.max(i, 0), blocks - 1);
  for (let x = 0; x < len; x++) {
    const i = plan.center[x]!;
    taps.begin(x);
    taps.add(clamp(i - 1), plan.weights[x * 3]!);
    taps.add(clamp(i), plan.weights[x * 3 + 1]!);
    taps.add(clamp(i + 1), plan.weights[x * 3 + 2]!);
    taps.end(x);
  }
  return taps;
}

export const gpu: GpuOp = {
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
    const startX = gridStart(wx, k);
    const startY = gridStart(wy, k);
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
