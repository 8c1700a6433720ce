// Gaussian blur of premultiplied RGBA rasters: an exact separable reference and the fast path the
// blur op uses (box-decimate, exact blur at sigma/k, bilinear upsample with variance compensation).
// Both read a source that extends `ox`/`oy` pixels beyond the output on each side (the op's pad).

import { acquire, release } from '../../backends/cpu/pool.js';
import { fillPixel, isZeroPixel, markUniform, uniformOf } from '../../backends/cpu/uniform.js';
import type { Raster } from '../../types.js';
import type { OpContext } from '../types.js';
import { decimationFactor, gaussianKernel, gridKernel, gridStart, kernelRadius, splinePlan, tentPlan, type SplinePlan, type TentPlan } from './plan.js';
import { blurExactPlaneSimd, blurExactSimd, blurPlaneSimd, blurStagesSimd, monoScanSimd, tintSimd } from './simd.js';

/** Channels per pixel the kernels handle: RGBA, or one plane (the alpha of a one-colour raster). */
export type Channels = 1 | 4;

/**
 * One separable pass along rows: out[y][x] = sum_i w[i] src[rowY0 + y][ox + x + i - r], reading 0
 * outside the source (or the nearest edge pixel when `clamp`). src is sw pixels wide; out is w x rows.
 * Each source row is copied into a bordered line first, so the tap loop has no bounds tests, and
 * the symmetric kernel is folded (w[r - i] = w[r + i]): one multiply per pair of taps.
 */
function rowPass(
  src: Float32Array,
  sw: number,
  rowY0: number,
  rows: number,
  ox: number,
  w: number,
  k: Float64Array,
  nc: Channels,
  clamp: boolean,
): Float32Array {
  const r = (k.length - 1) >> 1;
  const n = w * nc;
  const out = acquire(n * rows);
  // line[q] = source value of column (ox - r) + q / nc, 0 (or the edge) where that column does not exist.
  const lineLen = (w + 2 * r) * nc;
  const line = new Float32Array(lineLen);
  const c0 = ox - r;
  const x0 = Math.max(0, c0),
    x1 = Math.min(sw, c0 + w + 2 * r);
  const half = new Float64Array(r + 1);
  for (let i = 0; i <= r; i++) half[i] = k[r + i]!;
  const wc = half[0]!;
  for (let y = 0; y < rows; y++) {
    const srow = (rowY0 + y) * sw;
    if (x1 > x0) line.set(src.subarray((srow + x0) * nc, (srow + x1) * nc), (x0 - c0) * nc);
    if (clamp) {
      // Columns left of the source repeat its first pixel, right of it its last.
      for (let q = 0; q < (x0 - c0) * nc; q++) line[q] = src[srow * nc + (q % nc)]!;
      for (let q = (x1 - c0) * nc; q < lineLen; q++) line[q] = src[(srow + sw - 1) * nc + (q % nc)]!;
    }
    let o = y * n;
    if (nc === 1) {
      for (let x = 0; x < w; x++) {
        const c = x + r;
        let a = wc * line[c]!;
        for (let i = 1; i <= r; i++) a += half[i]! * (line[c - i]! + line[c + i]!);
        out[o++] = a;
      }
    } else {
      for (let x = 0; x < w; x++, o += 4) {
        const c = (x + r) * 4;
        let a0 = wc * line[c]!,
          a1 = wc * line[c + 1]!,
          a2 = wc * line[c + 2]!,
          a3 = wc * line[c + 3]!;
        for (let i = 1, d = 4; i <= r; i++, d += 4) {
          const wi = half[i]!;
          a0 += wi * (line[c - d]! + line[c + d]!);
          a1 += wi * (line[c - d + 1]! + line[c + d + 1]!);
          a2 += wi * (line[c - d + 2]! + line[c + d + 2]!);
          a3 += wi * (line[c - d + 3]! + line[c + d + 3]!);
        }
        out[o] = a0;
        out[o + 1] = a1;
        out[o + 2] = a2;
        out[o + 3] = a3;
      }
    }
  }
  return out;
}

/**
 * The column pass, row-major for cache friendliness: out row y = sum_i w[i] * src row (oy + y + i - r),
 * each source row added whole (n values a row, any channel count). Rows outside the source read 0
 * (or the nearest edge row when `clamp`). The symmetric kernel is folded: rows y - i and y + i are
 * summed before their one multiply.
 */
function colPass(src: Float32Array, n: number, sh: number, oy: number, h: number, k: Float64Array, clamp: boolean): Float32Array {
  const r = (k.length - 1) >> 1;
  const out = acquire(n * h);
  const acc = new Float64Array(n);
  const n4 = n & ~3;
  const rowOf = (sy: number) => (clamp ? (sy < 0 ? 0 : sy >= sh ? sh - 1 : sy) : sy < 0 || sy >= sh ? -1 : sy);
  const half = new Float64Array(r + 1);
  for (let i = 0; i <= r; i++) half[i] = k[r + i]!;
  for (let y = 0; y < h; y++) {
    if (oy + y - r >= 0 && oy + y + r < sh) {
      colInterior(src, n, (oy + y) * n, half, out, y * n);
      continue;
    }
    const cy = rowOf(oy + y);
    const wc = k[r]!;
    if (cy < 0) acc.fill(0);
    else {
      const s = cy * n;
      for (let j = 0; j < n; j++) acc[j] = wc * src[s + j]!;
    }
    for (let i = 1; i <= r; i++) {
      const ya = rowOf(oy + y - i),
        yb = rowOf(oy + y + i);
      const wi = k[r + i]!;
      if (ya < 0 && yb < 0) continue;
      if (ya < 0 || yb < 0) {
        const s = (ya < 0 ? yb : ya) * n;
        for (let j = 0; j < n; j++) acc[j]! += wi * src[s + j]!;
        continue;
      }
      const sa = ya * n,
        sb = yb * n;
      // Unrolled by 4 values: ~20% faster in V8.
      let j = 0;
      for (; j < n4; j += 4) {
        acc[j]! += wi * (src[sa + j]! + src[sb + j]!);
        acc[j + 1]! += wi * (src[sa + j + 1]! + src[sb + j + 1]!);
        acc[j + 2]! += wi * (src[sa + j + 2]! + src[sb + j + 2]!);
        acc[j + 3]! += wi * (src[sa + j + 3]! + src[sb + j + 3]!);
      }
      for (; j < n; j++) acc[j]! += wi * (src[sa + j]! + src[sb + j]!);
    }
    out.set(acc, y * n);
  }
  return out;
}

/**
 * One output row of the column pass whose taps all fall inside the source: each value summed in
 * registers over its column (rows c - i n and c + i n folded), no accumulator row in memory.
 */
function colInterior(src: Float32Array, n: number, c: number, half: Float64Array, out: Float32Array, o: number): void {
  const r = half.length - 1;
  const wc = half[0]!;
  const n4 = n & ~3;
  let j = 0;
  for (; j < n4; j += 4) {
    const p = c + j;
    let a0 = wc * src[p]!,
      a1 = wc * src[p + 1]!,
      a2 = wc * src[p + 2]!,
      a3 = wc * src[p + 3]!;
    for (let i = 1, d = n; i <= r; i++, d += n) {
      const wi = half[i]!;
      a0 += wi * (src[p - d]! + src[p + d]!);
      a1 += wi * (src[p - d + 1]! + src[p + d + 1]!);
      a2 += wi * (src[p - d + 2]! + src[p + d + 2]!);
      a3 += wi * (src[p - d + 3]! + src[p + d + 3]!);
    }
    out[o + j] = a0;
    out[o + j + 1] = a1;
    out[o + j + 2] = a2;
    out[o + j + 3] = a3;
  }
  for (; j < n; j++) {
    const p = c + j;
    let a = wc * src[p]!;
    for (let i = 1, d = n; i <= r; i++, d += n) a += half[i]! * (src[p - d]! + src[p + d]!);
    out[o + j] = a;
  }
}

/**
 * The exact truncated Gaussian (the reference): src is sw x sh pixels of `channels` values (RGBA by
 * default); the output is the w x h window at (ox, oy) inside it; pixels outside the source read as 0.
 */
export function blurExact(
  src: Float32Array,
  sw: number,
  sh: number,
  ox: number,
  oy: number,
  w: number,
  h: number,
  sigma: number,
  channels: Channels = 4,
): Float32Array {
  if (!(sigma > 0)) return crop(src, sw, ox, oy, w, h, channels);
  const k = gaussianKernel(sigma);
  const r = (k.length - 1) >> 1;
  // Horizontal pass only over the rows the vertical pass reads.
  const y0 = Math.max(0, oy - r);
  const y1 = Math.min(sh, oy + h + r);
  const tmp = rowPass(src, sw, y0, y1 - y0, ox, w, k, channels, false);
  const out = colPass(tmp, w * channels, y1 - y0, oy - y0, h, k, false);
  release(tmp);
  return out;
}

function crop(src: Float32Array, sw: number, ox: number, oy: number, w: number, h: number, nc: Channels): Float32Array {
  const out = acquire(w * h * nc);
  for (let y = 0; y < h; y++) out.set(src.subarray(((oy + y) * sw + ox) * nc, ((oy + y) * sw + ox + w) * nc), y * w * nc);
  return out;
}

/**
 * The blur op's kernel. k = 1: blurExact. Otherwise (1) tent-decimate by k (blocks aligned to world
 * pixel multiples of k, so neighbouring tiles agree); (2) blur the block grid with a Gaussian of the
 * variance the tent and the spline leave, truncated like the exact kernel; (3) upsample with a
 * quadratic B-spline, whose added variance k^2/4 is the same at every phase (bilinear's is not).
 * (wx, wy): world pixel of the source's origin. `nc`: 4 (RGBA) or 1 (one plane); every stage
 * is linear and per channel, so the planes of an RGBA blur equal the 1-channel blurs of each plane.
 * `useSimd: false`: plain TypeScript only (the reference the SIMD stages are tested against).
 */
export function blurFast(
  src: Float32Array,
  sw: number,
  sh: number,
  ox: number,
  oy: number,
  w: number,
  h: number,
  sigma: number,
  wx = 0,
  wy = 0,
  nc: Channels = 4,
  useSimd = true,
): Float32Array {
  const k = decimationFactor(sigma);
  if (k === 1) {
    if (useSimd && nc === 4 && sigma > 0) {
      // RGBA: the exact kernel's two passes in WebAssembly SIMD (simd.ts; within ~1e-6 of blurExact).
      const out = acquire(w * h * 4, false);
      if (blurExactSimd(src, sw, sh, ox, oy, w, h, gaussianKernel(sigma), out)) return out;
      release(out);
    }
    if (useSimd && nc === 1 && sigma > 0) {
      // One plane: the same, four columns a vector (simd.ts; within ~1e-6 of blurExact).
      const out = acquire(w * h, false);
      if (blurExactPlaneSimd(src, sw, sh, ox, oy, w, h, gaussianKernel(sigma), out)) return out;
      release(out);
    }
    return blurExact(src, sw, sh, ox, oy, w, h, sigma, nc);
  }
  // The padding is sized for the sigma bound; a smaller sigma reads only r + a few blocks around
  // the output. Work on that window alone (same world alignment, so the same result).
  const need = readMargin(sigma);
  const xa = Math.max(0, ox - need),
    xb = Math.min(sw, ox + w + need);
  const ya = Math.max(0, oy - need),
    yb = Math.min(sh, oy + h + need);
  if ((xb - xa) * (yb - ya) < 0.9 * sw * sh) {
    const cw = xb - xa;
    const sub = acquire(cw * (yb - ya) * nc);
    for (let y = ya; y < yb; y++) sub.set(src.subarray((y * sw + xa) * nc, (y * sw + xb) * nc), (y - ya) * cw * nc);
    const out = blurFast(sub, cw, yb - ya, ox - xa, oy - ya, w, h, sigma, wx + xa, wy + ya, nc, useSimd);
    release(sub);
    return out;
  }
  const { tx, ty, kd, sx, sy } = fastPlans(sigma, k, gridStart(wx, k), gridStart(wy, k), sw, sh, ox, oy, w, h);
  const bw = tx.blocks;
  const bh = ty.blocks;
  if (useSimd && nc === 4) {
    // RGBA: one f32x4 per pixel in WebAssembly SIMD (simd.ts), the same stages and plans.
    const out = acquire(w * h * 4, false);
    if (blurStagesSimd(src, sw, sh, tx, ty, k, kd, sx, sy, w, h, out)) return out;
    release(out);
  }
  if (useSimd && nc === 1) {
    // One plane: the same stages as `rows` gathers of four columns, the horizontal ones transposed.
    const out = acquire(w * h, false);
    if (blurPlaneSimd(src, sw, sh, tx, ty, k, kd, sx, sy, w, h, out)) return out;
    release(out);
  }

  // 1. Tent decimation, vertical then horizontal. Each stage is its own function: V8 optimises
  // small loop functions far better than one long body.
  const vdec = tentVertical(src, sw, sh, nc, ty, bh, k);
  const dec = tentHorizontal(vdec, sw, bh, nc, tx, k);
  release(vdec);

  // 2. Gaussian on the block grid; edge blocks repeat outward (the support reaches ~2k past r).
  const rowed = rowPass(dec, bw, 0, bh, 0, bw, kd, nc, true);
  release(dec);
  const grid = colPass(rowed, bw * nc, bh, 0, bh, kd, true);
  release(rowed);

  // 3. Quadratic B-spline upsample: horizontal on the bh grid rows, then vertical on whole output
  // rows (block indices clamp to the grid).
  const hup = splineHorizontal(grid, bw, bh, nc, sx, w);
  release(grid);
  const out = splineVertical(hup, bh, w * nc, sy, h);
  release(hup);
  return out;
}
/** The plans of blurFast's decimated stages. */
interface FastPlans {
  tx: TentPlan;
  ty: TentPlan;
  kd: Float64Array;
  sx: SplinePlan;
  sy: SplinePlan;
}

/** Plan sets kept, least recently used first out: a server's tiles of one style share a few. */
const PLANS_KEPT = 16;
const plansKept = new Map<string, FastPlans>();

/**
 * The plans of blurFast's stages for a source of sw x sh whose decimation grid starts at (startX,
 * startY) and the w x h output at (ox, oy): computed once per distinct set (every tile of a style
 * has the same canvas, sigma and grid phase) and kept, so are the SIMD kernels' tap tables built
 * from them (simd.ts keptTables). The same numbers as computing them anew.
 */
function fastPlans(sigma: number, k: number, startX: number, startY: number, sw: number, sh: number, ox: number, oy: number, w: number, h: number): FastPlans {
  const key = `${sigma} ${k} ${startX} ${startY} ${sw} ${sh} ${ox} ${oy} ${w} ${h}`;
  const kept = plansKept.get(key);
  if (kept) {
    plansKept.delete(key);
    plansKept.set(key, kept);
    return kept;
  }
  const tx = tentPlan(k, startX, sw);
  const ty = tentPlan(k, startY, sh);
  const varD = (sigma * sigma - tx.variance) / (k * k) - 0.25;
  const kd = gridKernel(Math.sqrt(Math.max(varD, 0)), kernelRadius(sigma), k);
  const plans = { tx, ty, kd, sx: splinePlan(k, startX, ox, w), sy: splinePlan(k, startY, oy, h) };
  plansKept.set(key, plans);
  if (plansKept.size > PLANS_KEPT) plansKept.delete(plansKept.keys().next().value!);
  return plans;
}

/** How far beyond its output the blur of `sigma` reads: r, or r + 4k + 2 on the decimated path. */
export function readMargin(sigma: number): number {
  const k = decimationFactor(sigma);
  return kernelRadius(sigma) + (k === 1 ? 0 : 4 * k + 2);
}

/** Stage 1a: vertical tent, reading each source row once (a row feeds at most two block rows). */
function tentVertical(src: Float32Array, sw: number, sh: number, nc: Channels, ty: TentPlan, bh: number, k: number): Float32Array {
  const k2 = 2 * k;
  const srcRow = sw * nc;
  const srcRow4 = srcRow & ~3;
  const vdec = acquire(bh * srcRow);
  const feed = new Int32Array(sh * 2).fill(-1);
  const feedW = new Float64Array(sh * 2);
  for (let b = 0; b < bh; b++) {
    for (let i = 0; i < ty.count[b]!; i++) {
      const y = ty.first[b]! + i;
      const slot = feed[y * 2]! < 0 ? y * 2 : y * 2 + 1;
      feed[slot] = b;
      feedW[slot] = ty.weights[b * k2 + i]!;
    }
  }
  for (let y = 0; y < sh; y++) {
    const s = y * srcRow;
    const b0 = feed[y * 2]!,
      b1 = feed[y * 2 + 1]!;
    if (b0 < 0) continue;
    const o0 = b0 * srcRow,
      w0 = feedW[y * 2]!;
    if (b1 < 0) {
      for (let j = 0; j < srcRow; j++) vdec[o0 + j]! += w0 * src[s + j]!;
      continue;
    }
    const o1 = b1 * srcRow,
      w1 = feedW[y * 2 + 1]!;
    // Unrolled by 4 values: ~20% faster in V8.
    let j = 0;
    for (; j < srcRow4; j += 4) {
      const v0 = src[s + j]!,
        v1 = src[s + j + 1]!,
        v2 = src[s + j + 2]!,
        v3 = src[s + j + 3]!;
      vdec[o0 + j]! += w0 * v0;
      vdec[o0 + j + 1]! += w0 * v1;
      vdec[o0 + j + 2]! += w0 * v2;
      vdec[o0 + j + 3]! += w0 * v3;
      vdec[o1 + j]! += w1 * v0;
      vdec[o1 + j + 1]! += w1 * v1;
      vdec[o1 + j + 2]! += w1 * v2;
      vdec[o1 + j + 3]! += w1 * v3;
    }
    for (; j < srcRow; j++) {
      const v = src[s + j]!;
      vdec[o0 + j]! += w0 * v;
      vdec[o1 + j]! += w1 * v;
    }
  }
  return vdec;
}

/** Stage 1b: horizontal tent on the bh block rows; out is bw x bh. */
function tentHorizontal(vdec: Float32Array, sw: number, bh: number, nc: Channels, tx: TentPlan, k: number): Float32Array {
  const k2 = 2 * k;
  const bw = tx.blocks;
  const rowLen = bw * nc;
  const dec = acquire(bh * rowLen);
  for (let y = 0; y < bh; y++) {
    const row = y * sw;
    let o = y * rowLen;
    if (nc === 1) {
      for (let b = 0; b < bw; b++, o++) {
        const wo = b * k2;
        const p = row + tx.first[b]!;
        let a = 0;
        for (let i = 0; i < tx.count[b]!; i++) a += tx.weights[wo + i]! * vdec[p + i]!;
        dec[o] = a;
      }
      continue;
    }
    for (let b = 0; b < bw; b++, o += 4) {
      const wo = b * k2;
      let p = (row + tx.first[b]!) * 4;
      let a0 = 0,
        a1 = 0,
        a2 = 0,
        a3 = 0;
      for (let i = 0; i < tx.count[b]!; i++, p += 4) {
        const wi = tx.weights[wo + i]!;
        a0 += wi * vdec[p]!;
        a1 += wi * vdec[p + 1]!;
        a2 += wi * vdec[p + 2]!;
        a3 += wi * vdec[p + 3]!;
      }
      dec[o] = a0;
      dec[o + 1] = a1;
      dec[o + 2] = a2;
      dec[o + 3] = a3;
    }
  }
  return dec;
}

/** Stage 3a: horizontal B-spline on the bh grid rows (bw blocks wide) to w output columns. */
function splineHorizontal(grid: Float32Array, bw: number, bh: number, nc: Channels, sx: SplinePlan, w: number): Float32Array {
  const rowLen = bw * nc;
  const outRow = w * nc;
  const hup = acquire(bh * outRow, false); // written whole below
  const cols = new Int32Array(w * 3);
  for (let x = 0; x < w; x++) {
    const c = sx.center[x]!;
    cols[x * 3] = Math.min(Math.max(c - 1, 0), bw - 1) * nc;
    cols[x * 3 + 1] = Math.min(Math.max(c, 0), bw - 1) * nc;
    cols[x * 3 + 2] = Math.min(Math.max(c + 1, 0), bw - 1) * nc;
  }
  const sxw = sx.weights;
  for (let y = 0; y < bh; y++) {
    const g = y * rowLen;
    let o = y * outRow;
    if (nc === 1) {
      for (let x = 0; x < w; x++, o++) {
        hup[o] = sxw[x * 3]! * grid[g + cols[x * 3]!]! + sxw[x * 3 + 1]! * grid[g + cols[x * 3 + 1]!]! + sxw[x * 3 + 2]! * grid[g + cols[x * 3 + 2]!]!;
      }
      continue;
    }
    for (let x = 0; x < w; x++, o += 4) {
      const p0 = g + cols[x * 3]!,
        p1 = g + cols[x * 3 + 1]!,
        p2 = g + cols[x * 3 + 2]!;
      const w0 = sxw[x * 3]!,
        w1 = sxw[x * 3 + 1]!,
        w2 = sxw[x * 3 + 2]!;
      hup[o] = w0 * grid[p0]! + w1 * grid[p1]! + w2 * grid[p2]!;
      hup[o + 1] = w0 * grid[p0 + 1]! + w1 * grid[p1 + 1]! + w2 * grid[p2 + 1]!;
      hup[o + 2] = w0 * grid[p0 + 2]! + w1 * grid[p1 + 2]! + w2 * grid[p2 + 2]!;
      hup[o + 3] = w0 * grid[p0 + 3]! + w1 * grid[p1 + 3]! + w2 * grid[p2 + 3]!;
    }
  }
  return hup;
}

/** Stage 3b: vertical B-spline on whole rows (outRow values each) to h output rows. */
function splineVertical(hup: Float32Array, bh: number, outRow: number, sy: SplinePlan, h: number): Float32Array {
  const outRow4 = outRow & ~3;
  const out = acquire(h * outRow, false); // written whole below
  for (let y = 0; y < h; y++) {
    const c = sy.center[y]!;
    const r0 = Math.min(Math.max(c - 1, 0), bh - 1) * outRow;
    const r1 = Math.min(Math.max(c, 0), bh - 1) * outRow;
    const r2 = Math.min(Math.max(c + 1, 0), bh - 1) * outRow;
    const w0 = sy.weights[y * 3]!,
      w1 = sy.weights[y * 3 + 1]!,
      w2 = sy.weights[y * 3 + 2]!;
    const o = y * outRow;
    let j = 0;
    for (; j < outRow4; j += 4) {
      out[o + j] = w0 * hup[r0 + j]! + w1 * hup[r1 + j]! + w2 * hup[r2 + j]!;
      out[o + j + 1] = w0 * hup[r0 + j + 1]! + w1 * hup[r1 + j + 1]! + w2 * hup[r2 + j + 1]!;
      out[o + j + 2] = w0 * hup[r0 + j + 2]! + w1 * hup[r1 + j + 2]! + w2 * hup[r2 + j + 2]!;
      out[o + j + 3] = w0 * hup[r0 + j + 3]! + w1 * hup[r1 + j + 3]! + w2 * hup[r2 + j + 3]!;
    }
    for (; j < outRow; j++) out[o + j] = w0 * hup[r0 + j]! + w1 * hup[r1 + j]! + w2 * hup[r2 + j]!;
  }
  return out;
}

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

/** A window of a raster, in pixels: columns x0..x1 - 1 of rows y0..y1 - 1. */
export interface PixelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * If every pixel of premultiplied RGBA `data` is c * A for one colour c (within MONO_TOLERANCE * A,
 * so a pixel with A = 0 must have rgb = 0), that colour and the alpha plane; else undefined. c is
 * taken from the first pixel with A > 0: a Float32 c A carries a relative error ~6e-8 at any
 * magnitude, so any such pixel gives c to ~1e-7. Then one pass tests every pixel (WebAssembly SIMD
 * where available). With `width` and `box`, only that window of the raster (`width` pixels a row)
 * is tested, and the plane is the window's (box width x box height). `useSimd: false`: the
 * TypeScript test only (the reference the SIMD kernel is tested against).
 */
export function monoPlane(data: Float32Array, width?: number, box?: PixelBox, useSimd = true): MonoRaster | undefined {
  // Without a window: the whole raster, taken as one row.
  const sw = width ?? data.length >> 2;
  const { x0, y0, x1, y1 } = box ?? { x0: 0, y0: 0, x1: sw, y1: sw > 0 ? 1 : 0 };
  const alpha = acquire((x1 - x0) * (y1 - y0), false); // every value is written below
  if (x1 <= x0 || y1 <= y0) return { r: 0, g: 0, b: 0, alpha, constant: 0 };
  const p0 = firstOpaque(data, sw, x0, y0, x1, y1);
  const a0 = p0 < 0 ? 1 : data[p0 + 3]!;
  const r = p0 < 0 ? 0 : data[p0]! / a0,
    g = p0 < 0 ? 0 : data[p0 + 1]! / a0,
    b = p0 < 0 ? 0 : data[p0 + 2]! / a0;
  const range = new Float64Array(2);
  const ok =
    (useSimd ? monoScanSimd(data, sw, x0, y0, x1, y1, r, g, b, MONO_TOLERANCE, alpha, range) : undefined) ??
    scanMono(data, sw, x0, y0, x1, y1, r, g, b, alpha, range);
  if (!ok) {
    release(alpha);
    return undefined;
  }
  // Every pixel transparent: constant 0.
  return { r, g, b, alpha, constant: range[0] === range[1] ? range[0]! : NaN };
}

/** Index in `data` of the first pixel of the window with A > 0, or -1. */
function firstOpaque(data: Float32Array, sw: number, x0: number, y0: number, x1: number, y1: number): number {
  for (let y = y0; y < y1; y++) {
    for (let p = (y * sw + x0) * 4 + 3, e = (y * sw + x1) * 4; p < e; p += 4) if (data[p]! > 0) return p - 3;
  }
  return -1;
}

/**
 * monoPlane's test in TypeScript: every pixel of the window on colour (r, g, b), its alpha copied
 * into `alpha`, range = [min, max] of alpha. Its own function: inline in monoPlane it ran 3x slower.
 */
function scanMono(
  data: Float32Array,
  sw: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  r: number,
  g: number,
  b: number,
  alpha: Float32Array,
  range: Float64Array,
): boolean {
  const rel = MONO_TOLERANCE; // a local: an exported binding read in the loop costs 2x
  let lo = Number.POSITIVE_INFINITY,
    hi = Number.NEGATIVE_INFINITY;
  let q = 0;
  for (let y = y0; y < y1; y++) {
    for (let p = (y * sw + x0) * 4, e = (y * sw + x1) * 4; p < e; p += 4, q++) {
      const a = data[p + 3]!;
      alpha[q] = a;
      lo = a < lo ? a : lo;
      hi = a > hi ? a : hi;
      // A negative alpha makes tol < 0 and fails the test: such a raster takes the RGBA path.
      const tol = rel * a;
      const d0 = data[p]! - r * a,
        d1 = data[p + 1]! - g * a,
        d2 = data[p + 2]! - b * a;
      if (d0 > tol || d0 < -tol || d1 > tol || d1 < -tol || d2 > tol || d2 < -tol) return false;
    }
  }
  range[0] = lo;
  range[1] = hi;
  return true;
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
  if (a === 0) {
    out.fill(0);
    return;
  }
  const pr = r * a,
    pg = g * a,
    pb = b * a;
  for (let p = 0; p < out.length; p += 4) {
    out[p] = pr;
    out[p + 1] = pg;
    out[p + 2] = pb;
    out[p + 3] = a;
  }
}

/**
 * The blur of a raster marked one value everywhere (src/backends/cpu/uniform.ts), as blurCpu's
 * one-colour path gives it: that path's test and fillColour run on one pixel of the value (every
 * pixel of the window it reads is that pixel), so the output is the same bits without the window's
 * test and plane; marked too. undefined when the raster is not marked or the path would not take it.
 */
function uniformBlur(src: Float32Array, length: number): Float32Array | undefined {
  const px = uniformOf(src);
  if (!px) return undefined;
  const mono = monoPlane(px);
  if (!mono) return undefined;
  release(mono.alpha);
  if (mono.constant !== mono.constant) return undefined;
  const one = new Float32Array(4);
  fillColour(one, mono.r, mono.g, mono.b, mono.constant);
  const zero = isZeroPixel(one);
  const data = acquire(length, zero); // zero: handed out zeroed (often without a fill); else every value is written below
  if (!zero) fillPixel(data, one);
  markUniform(data, one);
  return data;
}

/** The blur op's CPU kernel: Gaussian blur in premultiplied space, reading ceil(3 sigma_bound) px of pad. */
export function blurCpu(ctx: OpContext): Raster {
  // ctx.num clamps a $param / @node sigma to its static bound, so ceil(3 sigma) <= pad.
  const sigma = Math.max(0, ctx.num('sigma'));
  const pad = Math.ceil(3 * ctx.bound('sigma'));
  const src = ctx.input<'raster'>('input');
  const { width, height, x0, y0 } = ctx.canvas;
  // sigma 0 is an exact crop: keep it bit-identical to the input.
  // Only the pixels the blur reads matter (a pad sized for a larger sigma bound is not read).
  const m = readMargin(sigma);
  const box = { x0: Math.max(0, pad - m), y0: Math.max(0, pad - m), x1: Math.min(src.width, pad + width + m), y1: Math.min(src.height, pad + height + m) };
  const uniform = sigma > 0 && box.x1 > box.x0 && box.y1 > box.y0 ? uniformBlur(src.data, width * height * 4) : undefined;
  if (uniform) return { kind: 'raster', width, height, data: uniform } satisfies Raster;
  const mono = sigma > 0 ? monoPlane(src.data, src.width, box) : undefined;
  if (!mono) {
    const data = blurFast(src.data, src.width, src.height, pad, pad, width, height, sigma, x0 - pad, y0 - pad);
    return { kind: 'raster', width, height, data } satisfies Raster;
  }
  // One colour c: premultiplied RGB is c A, and the blur is linear, so blur(RGB) = c blur(A).
  // Blurring the alpha plane alone does a quarter of the work. A constant plane (all sea, all
  // land) blurs to itself: the kernel is normalised and reads only the pad (ceil(3 sigma) <= pad).
  const data = acquire(width * height * 4, false); // every value is written below
  if (mono.constant === mono.constant) {
    fillColour(data, mono.r, mono.g, mono.b, mono.constant);
    if (data.length) markUniform(data, data.subarray(0, 4)); // one value everywhere: the kernels that know skip their work
  } else {
    const bw = box.x1 - box.x0;
    const blurred = blurFast(mono.alpha, bw, box.y1 - box.y0, pad - box.x0, pad - box.y0, width, height, sigma, x0 - pad + box.x0, y0 - pad + box.y0, 1);
    if (!tintSimd(blurred, mono.r, mono.g, mono.b, data)) tint(blurred, mono.r, mono.g, mono.b, data);
    release(blurred);
  }
  release(mono.alpha);
  return { kind: 'raster', width, height, data } satisfies Raster;
}
