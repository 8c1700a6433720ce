// Gaussian blur of premultiplied RGBA rasters: an exact separable reference and the fast path the
// blur op uses (box-decimate, exact blur at sigma/k, bilinear upsample with variance compensation).
// Both read a source that extends `ox`/`oy` pixels beyond the output on each side (the op's pad).

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
 * One separable pass along rows: out[y][x] = sum_i w[i] src[rowY0 + y][ox + x + i - r], reading 0
 * outside the source (or the nearest edge pixel when `clamp`). src is sw pixels wide; out is w x rows.
 */
function rowPass(src: Float32Array, sw: number, rowY0: number, rows: number, ox: number, w: number, k: Float64Array, clamp: boolean): Float32Array {
  const r = (k.length - 1) >> 1;
  const out = new Float32Array(w * rows * 4);
  for (let y = 0; y < rows; y++) {
    const srow = (rowY0 + y) * sw;
    let o = y * w * 4;
    for (let x = 0; x < w; x++, o += 4) {
      let a0 = 0, a1 = 0, a2 = 0, a3 = 0;
      const c = ox + x - r;
      const lo = clamp ? 0 : Math.max(0, -c);
      const hi = clamp ? k.length : Math.min(k.length, sw - c);
      for (let i = lo; i < hi; i++) {
        let sx = c + i;
        if (clamp) sx = sx < 0 ? 0 : sx >= sw ? sw - 1 : sx;
        const p = (srow + sx) * 4;
        const wi = k[i]!;
        a0 += wi * src[p]!;
        a1 += wi * src[p + 1]!;
        a2 += wi * src[p + 2]!;
        a3 += wi * src[p + 3]!;
      }
      out[o] = a0;
      out[o + 1] = a1;
      out[o + 2] = a2;
      out[o + 3] = a3;
    }
  }
  return out;
}

/**
 * The column pass, row-major for cache friendliness: out row y = sum_i w[i] * src row (oy + y + i - r),
 * each source row added whole. Rows outside the source read 0 (or the nearest edge row when `clamp`).
 */
function colPass(src: Float32Array, rowLen: number, sh: number, oy: number, h: number, k: Float64Array, clamp: boolean): Float32Array {
  const r = (k.length - 1) >> 1;
  const n = rowLen * 4;
  const out = new Float32Array(n * h);
  const acc = new Float64Array(n);
  for (let y = 0; y < h; y++) {
    acc.fill(0);
    for (let i = 0; i < k.length; i++) {
      let sy = oy + y + i - r;
      if (clamp) sy = sy < 0 ? 0 : sy >= sh ? sh - 1 : sy;
      else if (sy < 0 || sy >= sh) continue;
      const wi = k[i]!;
      const s = sy * n;
      for (let j = 0; j < n; j++) acc[j]! += wi * src[s + j]!;
    }
    out.set(acc, y * n);
  }
  return out;
}

/**
 * The exact truncated Gaussian (the reference): src is sw x sh RGBA; the output is the w x h window
 * at (ox, oy) inside it; pixels outside the source read as transparent.
 */
export function blurExact(src: Float32Array, sw: number, sh: number, ox: number, oy: number, w: number, h: number, sigma: number): Float32Array {
  if (!(sigma > 0)) return cropRGBA(src, sw, ox, oy, w, h);
  const k = gaussianKernel(sigma);
  const r = (k.length - 1) >> 1;
  // Horizontal pass only over the rows the vertical pass reads.
  const y0 = Math.max(0, oy - r);
  const y1 = Math.min(sh, oy + h + r);
  const tmp = rowPass(src, sw, y0, y1 - y0, ox, w, k, false);
  return colPass(tmp, w, y1 - y0, oy - y0, h, k, false);
}

function cropRGBA(src: Float32Array, sw: number, ox: number, oy: number, w: number, h: number): Float32Array {
  const out = new Float32Array(w * h * 4);
  for (let y = 0; y < h; y++) out.set(src.subarray(((oy + y) * sw + ox) * 4, ((oy + y) * sw + ox + w) * 4), y * w * 4);
  return out;
}

/**
 * Decimation factor of the fast path: blocks of k x k pixels, so that the blur left to do on the
 * decimated grid has sigma/k >= DECIMATE_RATIO (keeps the error under 1/255, see docs/raster-ops.md).
 */
export const DECIMATE_RATIO = 3;
export function decimationFactor(sigma: number): number {
  return Math.max(1, Math.floor(sigma / DECIMATE_RATIO));
}

/** Per-axis sampling plan of the fast path. */
interface Axis {
  /** Source index of the first block's first pixel (<= 0: blocks are aligned to world multiples of k). */
  start: number;
  blocks: number;
  /** For each output pixel: left block index and weight of the right block. */
  i0: Int32Array;
  t: Float32Array;
  /** Largest t(1-t) over the phases, for variance compensation. */
  phaseVar: number;
}

function axisPlan(k: number, worldStart: number, srcLen: number, o: number, len: number): Axis {
  const start = -(((worldStart % k) + k) % k);
  const blocks = Math.ceil((srcLen - start) / k);
  const i0 = new Int32Array(len);
  const t = new Float32Array(len);
  // Block b's centre is at source index start + b k + (k - 1) / 2.
  for (let x = 0; x < len; x++) {
    const u = (o + x - start - (k - 1) / 2) / k;
    const b = Math.floor(u);
    i0[x] = b;
    t[x] = u - b;
  }
  // Phases repeat with period k; the interpolation adds t(1-t) k^2 of variance, between its
  // smallest and largest value over the phases. Compensating with the midpoint halves the worst case.
  let lo = Infinity, hi = -Infinity;
  for (let j = 0; j < k; j++) {
    const u = (j - (k - 1) / 2) / k;
    const f = u - Math.floor(u);
    lo = Math.min(lo, f * (1 - f));
    hi = Math.max(hi, f * (1 - f));
  }
  return { start, blocks, i0, t, phaseVar: (lo + hi) / 2 };
}

/**
 * The blur op's kernel: exact for small sigma; for larger sigma, box-average k x k blocks (aligned to
 * world pixel multiples of k so tiles agree), blur the block grid with the exact Gaussian of the
 * remaining variance, and interpolate bilinearly back. (wx, wy): world pixel of the source's origin.
 */
export function blurFast(src: Float32Array, sw: number, sh: number, ox: number, oy: number, w: number, h: number, sigma: number, wx = 0, wy = 0): Float32Array {
  const k = decimationFactor(sigma);
  if (k === 1) return blurExact(src, sw, sh, ox, oy, w, h, sigma);
  const ax = axisPlan(k, wx, sw, ox, w);
  const ay = axisPlan(k, wy, sh, oy, h);
  const bw = ax.blocks;
  const bh = ay.blocks;

  // 1. Block averages (partial blocks at the source's edges average the pixels they have).
  const rowsum = new Float64Array(bw * 4);
  const dec = new Float32Array(bw * bh * 4);
  for (let by = 0; by < bh; by++) {
    rowsum.fill(0);
    const ys = Math.max(0, ay.start + by * k);
    const ye = Math.min(sh, ay.start + (by + 1) * k);
    for (let y = ys; y < ye; y++) {
      let p = y * sw * 4;
      for (let bx = 0; bx < bw; bx++) {
        const n = Math.min(sw, ax.start + (bx + 1) * k) - Math.max(0, ax.start + bx * k);
        let a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        for (let i = 0; i < n; i++, p += 4) {
          a0 += src[p]!;
          a1 += src[p + 1]!;
          a2 += src[p + 2]!;
          a3 += src[p + 3]!;
        }
        const q = bx * 4;
        rowsum[q]! += a0;
        rowsum[q + 1]! += a1;
        rowsum[q + 2]! += a2;
        rowsum[q + 3]! += a3;
      }
    }
    const o = by * bw * 4;
    for (let bx = 0; bx < bw; bx++) {
      const n = (Math.min(sw, ax.start + (bx + 1) * k) - Math.max(0, ax.start + bx * k)) * (ye - ys);
      const inv = 1 / n;
      for (let c = 0; c < 4; c++) dec[o + bx * 4 + c] = rowsum[bx * 4 + c]! * inv;
    }
  }

  // 2. Exact Gaussian on the block grid, for the variance the box and the interpolation leave.
  // Edge blocks repeat outward: the pipeline's support reaches ~1.5 k beyond 3 sigma.
  const boxVar = (k * k - 1) / 12;
  const varD = (sigma * sigma - boxVar) / (k * k) - ax.phaseVar;
  const kd = gaussianKernel(Math.sqrt(Math.max(varD, 0)));
  const tmp = rowPass(dec, bw, 0, bh, 0, bw, kd, true);
  const grid = colPass(tmp, bw, bh, 0, bh, kd, true);

  // 3. Bilinear upsample, vertical then horizontal (indices clamp at the grid's edge).
  const vert = new Float32Array(h * bw * 4);
  const n = bw * 4;
  for (let y = 0; y < h; y++) {
    const b = ay.i0[y]!;
    const t = ay.t[y]!;
    const r0 = Math.min(Math.max(b, 0), bh - 1) * n;
    const r1 = Math.min(Math.max(b + 1, 0), bh - 1) * n;
    const o = y * n;
    for (let j = 0; j < n; j++) {
      const v0 = grid[r0 + j]!;
      vert[o + j] = v0 + t * (grid[r1 + j]! - v0);
    }
  }
  const out = new Float32Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    const row = y * n;
    let o = y * w * 4;
    for (let x = 0; x < w; x++, o += 4) {
      const b = ax.i0[x]!;
      const t = ax.t[x]!;
      const p0 = row + Math.min(Math.max(b, 0), bw - 1) * 4;
      const p1 = row + Math.min(Math.max(b + 1, 0), bw - 1) * 4;
      for (let c = 0; c < 4; c++) {
        const v0 = vert[p0 + c]!;
        out[o + c] = v0 + t * (vert[p1 + c]! - v0);
      }
    }
  }
  return out;
}
