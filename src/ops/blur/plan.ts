// What blur's CPU kernel and GPU pass share: the truncated Gaussian, the decimation factor and the
// tap plans of the fast path (tent decimation, block-grid kernel, B-spline upsampling). The GPU
// pass turns these same plans into tap tables, so the two backends cannot drift.

/** Radius of the truncated kernel: ceil(3 sigma). */
export function kernelRadius(sigma: number): number {
  return sigma > 0 ? Math.ceil(3 * sigma) : 0;
}

/** Normalised 1-D Gaussian weights w[0..2r], w[r] the centre, truncated at r = ceil(3 sigma). */
export function gaussianKernel(sigma: number): Float64Array {
  const r = kernelRadius(sigma);
  const w = new Float64Array(2 * r + 1);
  let sum = 0;
  for (let i = -r; i <= r; i++) sum += w[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < w.length; i++) w[i]! /= sum;
  return w;
}

/**
 * Decimation factor of the fast path: blocks of k x k pixels, chosen so that sigma / k >= 2, which
 * keeps the fast path within 0.6/255 of blurExact (docs/raster-ops.md); k = 1 means exact.
 */
export const DECIMATE_RATIO = 2;
export function decimationFactor(sigma: number): number {
  return Math.max(1, Math.floor(sigma / DECIMATE_RATIO));
}

/** The start (<= 0) of the decimation grid along an axis whose pixel 0 is world pixel `w0`: blocks sit at world multiples of k. */
export function gridStart(w0: number, k: number): number {
  return -(((w0 % k) + k) % k);
}

/**
 * Tent weights of one axis's decimation: block b is centred on source index c_b = start + b k + (k-1)/2
 * (start <= 0 aligns blocks to world multiples of k) and averages source pixels x with weight
 * k - |x - c_b| (> 0), renormalised over the pixels that exist.
 */
export interface TentPlan {
  blocks: number;
  first: Int32Array;
  count: Int32Array;
  /** 2k weights per block, already divided by the block's weight sum. */
  weights: Float64Array;
  /** Variance of the (interior) tent in source pixels^2. */
  variance: number;
}

export function tentPlan(k: number, start: number, srcLen: number): TentPlan {
  const blocks = Math.ceil((srcLen - start) / k);
  const first = new Int32Array(blocks);
  const count = new Int32Array(blocks);
  const weights = new Float64Array(blocks * 2 * k);
  for (let b = 0; b < blocks; b++) {
    const c = start + b * k + (k - 1) / 2;
    const x0 = Math.max(0, Math.floor(c - k) + 1);
    const x1 = Math.min(srcLen - 1, Math.ceil(c + k) - 1);
    first[b] = x0;
    count[b] = Math.max(0, x1 - x0 + 1);
    let sum = 0;
    for (let x = x0; x <= x1; x++) sum += weights[b * 2 * k + x - x0] = k - Math.abs(x - c);
    for (let i = 0; i < count[b]!; i++) weights[b * 2 * k + i]! /= sum;
  }
  let v = 0;
  let s = 0;
  for (let d = -(k - 1) / 2 - k; d <= k; d++) {
    const w = Math.max(0, k - Math.abs(d));
    v += w * d * d;
    s += w;
  }
  return { blocks, first, count, weights, variance: v / s };
}

/** Quadratic B-spline weights of one axis's upsampling: output pixel x reads blocks i-1, i, i+1. */
export interface SplinePlan {
  center: Int32Array;
  /** 3 weights per output pixel. */
  weights: Float32Array;
}

export function splinePlan(k: number, start: number, o: number, len: number): SplinePlan {
  const center = new Int32Array(len);
  const weights = new Float32Array(len * 3);
  for (let x = 0; x < len; x++) {
    const u = (o + x - start - (k - 1) / 2) / k;
    const i = Math.round(u);
    const d = u - i;
    center[x] = i;
    weights[x * 3] = 0.5 * (0.5 - d) * (0.5 - d);
    weights[x * 3 + 1] = 0.75 - d * d;
    weights[x * 3 + 2] = 0.5 * (0.5 + d) * (0.5 + d);
  }
  return { center, weights };
}

/**
 * Kernel of the block grid: Gaussian of std `sd` blocks, truncated where the full-resolution
 * kernel is (|i| <= r): tap j covers [|j| - 1/2, |j| + 1/2] blocks and keeps the fraction of that
 * span inside (r + 1/2) / k; normalised.
 */
export function gridKernel(sd: number, r: number, k: number): Float64Array {
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
