// WebAssembly SIMD for dilate / erode: the same max (min) over the (2r+1)^2 square as the vHGW
// reference (morphScalar in morph.ts), computed with van Herk's doubling on 16-byte lanes (one
// f32x4 per RGBA pixel, four samples of a one-channel plane). A window of L = 2r + 1 samples is
// M_L[x] = op(M_K[x], M_K[x + L - K]) with K the largest power of two <= L and
// M_2k[x] = op(M_k[x], M_k[x + k]); the last doubling and the final step go as one four-operand
// pass, so r = 3 is two passes per axis. Rows: each source row is copied into the module's memory
// and reduced in place. Columns: the row results go into small rings (one per doubling level), so
// every pass reads rows still in cache, and each output row is final as soon as its last source
// row is in. At 512 px the kernel is bound by memory traffic (16-byte pixels in and out), not by
// the max / min. The op is f32x4.pmax / pmin (a < b ? b : a), the reference's comparison, so
// results equal the reference's bit for bit (NaN and signed zeros aside: which of two
// equal-comparing values wins depends on the order of evaluation, which differs; rasters hold
// neither). The passes are dilate.wat; where WebAssembly SIMD is missing, `morphSimd` returns
// false and the scalar path runs.

import { wasmKernels } from '../../util/wasm-kernels.js';

type Pair = (dst: number, a: number, b: number, n: number) => void;
type Quad = (dst: number, a: number, b: number, c: number, d: number, n: number) => void;
interface Kernels {
  max2: Pair;
  min2: Pair;
  max4: Quad;
  min4: Quad;
  mem: WebAssembly.Memory;
}

const compiled = wasmKernels<Kernels>('dilate');

/** The compiled kernels, or null where WebAssembly SIMD is unavailable. Built once, on first use. */
function instance(): Kernels | null {
  return compiled()?.fn ?? null;
}

export function morphSimdAvailable(): boolean {
  return instance() !== null;
}

/** Bytes rounded up to whole pairs of vectors. */
const up32 = (n: number) => (n + 31) & ~31;

/**
 * Max (min) over the (2r+1)^2 square, as morphScalar: source sw pixels wide (nc = 4 or 1
 * channels), output window w x h at (pad, pad), r >= 1, pad >= r. Writes `out` (w h nc values);
 * false without WebAssembly SIMD.
 */
export function morphSimd(src: Float32Array, sw: number, pad: number, w: number, h: number, r: number, isMax: boolean, nc: number, out: Float32Array): boolean {
  const k = instance();
  if (!k) return false;
  if (w <= 0 || h <= 0) return true;
  const pair = isMax ? k.max2 : k.min2;
  const quad = isMax ? k.max4 : k.min4;
  // M_L = op(M_K[x], M_K[x + s]) with M_K = op(M_H[x], M_H[x + H]), H = K / 2: the last doubling and
  // the final step are one four-operand pass over M_H.
  const L = 2 * r + 1;
  let K = 2;
  while (2 * K <= L) K *= 2;
  const H = K / 2;
  const s = L - K;
  const px = nc * 4;
  const n = w + 2 * r; // source pixels per row
  const rows = h + 2 * r;
  const rowBytes = up32(w * px);
  // Layout: the source row (reduced in place; slack for the reads past its end), the rings, the output row.
  const xBytes = up32((n + L) * px) + 64;
  // Ring of level q (1, 2, .. H): q + 1 rows for the next level; H + s + 1 for M_H (the final step).
  const ringSize: number[] = [];
  for (let q = 1; q <= H; q *= 2) ringSize.push(q < H ? q + 1 : H + s + 1);
  const ringAt: number[] = [];
  let top = xBytes;
  for (const size of ringSize) {
    ringAt.push(top);
    top += size * rowBytes;
  }
  const oAt = top;
  top += rowBytes;
  const need = top - k.mem.buffer.byteLength;
  if (need > 0) k.mem.grow(Math.ceil(need / 65536));
  const mem = new Float32Array(k.mem.buffer);
  const slot = (level: number, row: number) => ringAt[level]! + (row % ringSize[level]!) * rowBytes;
  const last = ringSize.length - 1;
  const wn = w * nc;
  const x0 = pad - r;
  const outRow = mem.subarray(oAt >> 2, (oAt >> 2) + wn);
  for (let j = 0; j < rows; j++) {
    const base = ((x0 + j) * sw + x0) * nc;
    mem.set(src.subarray(base, base + n * nc), 0);
    // Along the row, in place: M_2q from M_q for q < H, then M_L into ring 0 at row j.
    for (let q = 1; q < H; q *= 2) pair(0, 0, q * px, up32((n - 2 * q + 1) * px));
    quad(slot(0, j), 0, H * px, s * px, (s + H) * px, rowBytes);
    // Down the columns: each new row i of M_q completes row i - q of M_2q, up to M_H.
    let i = j;
    let lv = 0;
    for (let q = 1; q < H; q *= 2, lv++) {
      if (i < q) break;
      pair(slot(lv + 1, i - q), slot(lv, i - q), slot(lv, i), rowBytes);
      i -= q;
    }
    const y = i - s - H;
    if (lv === last && y >= 0) {
      quad(oAt, slot(lv, y), slot(lv, y + H), slot(lv, y + s), slot(lv, i), rowBytes);
      out.set(outRow, y * wn);
    }
  }
  return true;
}
