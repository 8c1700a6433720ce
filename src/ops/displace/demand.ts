// Which pixels of displace's displacement can change its output (OpDef.demand, src/graph/demand.ts):
// output pixel p reads the input bilinearly at p + d, d clamped to the amplitudes, so every read of
// p lies in the input's columns [x - ceil(amp-x), x + floor(amp-x) + 1] and rows likewise (world
// pixels; the kernel's f64 sums round monotonically, so a read never leaves that box: where amp is
// within 1e-6 below a whole number, k + amp may round up to it, and the box reaches ceil(amp) + 1).
// Where every channel of the input holds one value v over that box, each kernel
// (cpu.ts, displace.wat) computes v + (v - v) f = v for a finite v (and +0 for zeros of either sign,
// NaN for an infinity) whatever d is: the displacement there changes nothing. So the demand is the
// output pixels whose box holds two different input pixels, found as the pixels that differ (in
// bits, any channel) from their left or upper neighbour, dilated by the box. Rows whose reads
// may pass the world's north or south edge (the boundary rule remaps them) are demanded whole.
import type { Canvas, Value } from '../../types.js';
import { arenaAlloc, arenaFree, inArena } from '../../util/wasm-arena.js';
import { wasmKernels } from '../../util/wasm-kernels.js';
import type { OpContext } from '../types.js';
import { displacePlan } from './plan.js';

interface Exports {
  demand(
    src: number,
    sw: number,
    rw: number,
    rh: number,
    w: number,
    h: number,
    span: number,
    tall: number,
    edges: number,
    across: number,
    mask: number,
    mw: number,
  ): void;
}

const kernels = wasmKernels<Exports>('displace-demand');

/** OpDef.demand of displace: marks in `mask` (over `maskCanvas`) the displacement pixels that can move a pixel of the output. */
export function displaceDemand(
  field: string,
  ctx: OpContext,
  read: (field: string) => { value: Value; canvas: Canvas },
  mask: Uint8Array,
  maskCanvas: Canvas,
): boolean {
  if (field !== 'displacement') return false;
  const p = displacePlan(ctx);
  const { value, canvas: from } = read('input');
  if (value.kind !== 'raster' || !(p.ampX >= 0 && p.ampY >= 0 && Number.isFinite(p.ampX) && Number.isFinite(p.ampY))) return false;
  const c = ctx.canvas;
  // The box: columns [x - left, x + right], rows [y - up, y + down].
  const left = Math.ceil(p.ampX),
    up = Math.ceil(p.ampY);
  const right = beyond(p.ampX),
    down = beyond(p.ampY);
  // (The left and upper neighbours of the box compared too: inside the kernel's view.)
  if (p.pad < left + 1 || p.pad < up + 1 || p.pad < right || p.pad < down) return false;
  const lo = Math.max(p.worldTop, 0);
  const hi = Math.min(p.worldBottom, c.height + 2 * p.pad);
  const marks = { lo, hi, left, right, up, down, pad: p.pad };
  if (!demandWasm(value.data, from, c, marks, mask, maskCanvas)) demandTs(value.data, from, c, marks, mask, maskCanvas);
  return true;
}

/**
 * The farthest whole pixel a read at offset up to `amp` reaches past its own (floor(k + amp) + 1
 * for a pixel k): floor(amp) + 1, or ceil(amp) + 1 where amp is so close below a whole number that
 * the f64 sum may round up to it (k < 2^29: an ulp under 1e-7).
 */
const beyond = (amp: number) => (Math.ceil(amp) - amp > 1e-6 ? Math.floor(amp) + 1 : Math.ceil(amp) + 1);

interface Box {
  /** The rows inside the world and the input view (cpu.ts plainRow). */
  lo: number;
  hi: number;
  /** Output pixel (x, y) reads input columns [x - left, x + right], rows [y - up, y + down]. */
  left: number;
  right: number;
  up: number;
  down: number;
  pad: number;
}

/**
 * The marks of displaceDemand in WebAssembly (displace-demand.wat) where the input and the mask
 * lie in the canvas arena, the region and its left and upper neighbours inside the input's
 * canvas and the output's canvas inside the mask's; false elsewhere (then demandTs marks them).
 */
function demandWasm(data: Float32Array, from: Canvas, c: Canvas, b: Box, mask: Uint8Array, maskCanvas: Canvas): boolean {
  const x0 = c.x0 - b.left,
    y0 = c.y0 - b.up;
  const rw = c.width + b.left + b.right,
    rh = c.height + b.up + b.down;
  const span = b.left + b.right + 1,
    tall = b.up + b.down + 1;
  const inside = (o: Canvas, x: number, y: number, w: number, h: number) => x >= o.x0 && y >= o.y0 && x + w <= o.x0 + o.width && y + h <= o.y0 + o.height;
  if (!inArena(data) || !inArena(mask) || !inside(from, x0 - 1, y0 - 1, rw + 1, rh + 1) || !inside(maskCanvas, c.x0, c.y0, c.width, c.height)) return false;
  const fn = kernels()?.onArena();
  const w = c.width;
  // edges and across, each with 16 + span bytes to spare (the kernel's 16-byte reads past a row)
  const spare = 16 + span;
  const scratch = fn ? arenaAlloc(Math.ceil((rw * rh + w * rh + 2 * spare) / 4), false) : undefined;
  if (!fn || !scratch) return false;
  try {
    const edges = scratch.byteOffset;
    const across = edges + rw * rh + spare;
    const src = data.byteOffset + ((y0 - from.y0) * from.width + (x0 - from.x0)) * 16;
    const m = mask.byteOffset + (c.y0 - maskCanvas.y0) * maskCanvas.width + (c.x0 - maskCanvas.x0);
    fn.demand(src, from.width, rw, rh, w, c.height, span, tall, edges, across, m, maskCanvas.width);
  } finally {
    arenaFree(scratch);
  }
  wholeRows(c, b, mask, maskCanvas);
  return true;
}

/** The rows whose reads may pass the world's edges (the boundary rule remaps them): marked whole. */
function wholeRows(c: Canvas, b: Box, mask: Uint8Array, maskCanvas: Canvas): void {
  const mw = maskCanvas.width;
  const di = c.x0 - maskCanvas.x0;
  const ia = Math.max(0, -di),
    ib = Math.min(c.width, mw - di);
  for (let j = 0; j < c.height; j++) {
    const mj = j + c.y0 - maskCanvas.y0;
    if (mj < 0 || mj >= maskCanvas.height || ia >= ib || (j + b.pad - b.up >= b.lo && j + b.pad + b.down < b.hi)) continue;
    mask.fill(1, mj * mw + di + ia, mj * mw + di + ib);
  }
}

// Kept on purpose beside demandWasm: the plain loops, the oracle its marks are tested against
// (displace.test.ts) and the path where the arena is missing.
/** displaceDemand's marks in TypeScript, for any input and mask. */
export function demandTs(data: Float32Array, from: Canvas, c: Canvas, b: Box, mask: Uint8Array, maskCanvas: Canvas): void {
  const x0 = c.x0 - b.left,
    y0 = c.y0 - b.up;
  const rw = c.width + b.left + b.right,
    rh = c.height + b.up + b.down;
  const span = b.left + b.right + 1,
    tall = b.up + b.down + 1;
  const edges = differing(data, from, x0, y0, rw, rh);
  // Horizontal dilation: across[y][i] = some edge in columns [i, i + span) of row y (output column i).
  const w = c.width;
  const across = new Uint8Array(w * rh);
  for (let y = 0; y < rh; y++) {
    const e = y * rw;
    let n = 0;
    for (let x = 0; x < span - 1; x++) n += edges[e + x]!;
    for (let i = 0; i < w; i++) {
      n += edges[e + i + span - 1]!;
      across[y * w + i] = n > 0 ? 1 : 0;
      n -= edges[e + i]!;
    }
  }
  // Vertical dilation into the mask: output row j reads box rows [j, j + tall).
  const count = new Int32Array(w);
  for (let y = 0; y < tall - 1; y++) for (let i = 0; i < w; i++) count[i]! += across[y * w + i]!;
  const mw = maskCanvas.width;
  const di = c.x0 - maskCanvas.x0;
  const ia = Math.max(0, -di),
    ib = Math.min(w, mw - di);
  for (let j = 0; j < c.height; j++) {
    const bottom = (j + tall - 1) * w;
    for (let i = 0; i < w; i++) count[i]! += across[bottom + i]!;
    const mj = j + c.y0 - maskCanvas.y0;
    if (mj >= 0 && mj < maskCanvas.height && ia < ib) {
      const m = mj * mw + di;
      for (let i = ia; i < ib; i++) if (count[i]! > 0) mask[m + i] = 1;
    }
    const top = j * w;
    for (let i = 0; i < w; i++) count[i]! -= across[top + i]!;
  }
  wholeRows(c, b, mask, maskCanvas);
}

/**
 * One byte a pixel of the region [x0, x0 + rw) x [y0, y0 + rh) (world pixels) of a raster over
 * canvas `from` (outside it +0, as a crop reads): 1 where the pixel differs in the bits of some
 * channel from its left or upper neighbour.
 */
function differing(data: Float32Array, from: Canvas, x0: number, y0: number, rw: number, rh: number): Uint8Array {
  const bits = new Int32Array(data.buffer, data.byteOffset, data.length);
  const out = new Uint8Array(rw * rh);
  // Two rows of the region from column x0 - 1 (the left neighbours), +0 outside `from`.
  let up = new Int32Array((rw + 1) * 4);
  let cur = new Int32Array((rw + 1) * 4);
  const rowInto = (y: number, dst: Int32Array) => {
    dst.fill(0);
    const sy = y - from.y0;
    if (sy < 0 || sy >= from.height) return;
    const a = Math.max(x0 - 1, from.x0),
      b = Math.min(x0 + rw, from.x0 + from.width);
    if (b <= a) return;
    const s = (sy * from.width + (a - from.x0)) * 4;
    dst.set(bits.subarray(s, s + (b - a) * 4), (a - x0 + 1) * 4);
  };
  rowInto(y0 - 1, up);
  for (let y = 0; y < rh; y++) {
    rowInto(y0 + y, cur);
    const o = y * rw;
    for (let x = 0, q = 4; x < rw; x++, q += 4) {
      const r = cur[q]!,
        g = cur[q + 1]!,
        b = cur[q + 2]!,
        a = cur[q + 3]!;
      out[o + x] =
        r !== cur[q - 4] || g !== cur[q - 3] || b !== cur[q - 2] || a !== cur[q - 1] || r !== up[q] || g !== up[q + 1] || b !== up[q + 2] || a !== up[q + 3]
          ? 1
          : 0;
    }
    const t = up;
    up = cur;
    cur = t;
  }
  return out;
}
