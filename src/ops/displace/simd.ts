// displace's plain rows (reads inside the world and the input view) in WebAssembly SIMD
// (displace.wat): the same f64 arithmetic as cpu.ts `displace` per channel, so the values are bit
// for bit displaceReference's. Where WebAssembly is missing, `displaceRowsSimd` returns null and
// the TypeScript loop runs.
import { arenaAlloc, arenaFree, inArena } from '../../util/wasm-arena.js';
import { wasmKernels, type WasmKernels } from '../../util/wasm-kernels.js';
import type { DisplacePlan } from './plan.js';

interface Exports {
  rows(
    src: number,
    sw: number,
    disp: number,
    w: number,
    out: number,
    j0: number,
    j1: number,
    pad: number,
    ampX: number,
    ampY: number,
    kx: number,
    ky: number,
    nan: number,
    occ: number,
    nb: number,
    sh: number,
    ax: number,
    ay: number,
    acc: number,
    c: number,
  ): number;
  occupancy(src: number, sw: number, sh: number, occ: number, nb: number, c: number): number;
  finite(disp: number, n: number): number;
}

const kernels = wasmKernels<Exports>('displace');

/**
 * Output rows j0..j1 - 1 of displace into `out` (RGBA w x h), every read of them inside `src`
 * (RGBA sw x sh, the canvas grown by p.pad) and the world. Returns the pixel numbers left unwritten
 * (a NaN offset: the caller reads them the reference's way), or null without WebAssembly.
 * In bands of DISPLACE_BAND_PIXELS output pixels, each given only the input rows its offsets can
 * reach (row j reads rows floor(j + pad - ampY) to floor(j + pad + ampY) + 1, as the offsets clamp
 * to the amplitudes): the same reads as one call, so the same bits, and the module's memory, which
 * never shrinks, holds a band, not a whole canvas.
 */
export function displaceRowsSimd(
  src: Float32Array,
  sw: number,
  sh: number,
  disp: Float32Array,
  w: number,
  p: DisplacePlan,
  j0: number,
  j1: number,
  out: Float32Array,
): Int32Array | null {
  const k = kernels();
  if (!k) return null;
  const band = Math.max(1, Math.floor(DISPLACE_BAND_PIXELS / Math.max(1, w)));
  const lists: Int32Array[] = [];
  const occ = occupancy(k, src, sw, sh, disp, out, p);
  try {
    for (let b0 = j0; b0 < j1; b0 += band) lists.push(bandRows(k, src, sw, sh, disp, w, p, b0, Math.min(j1, b0 + band), out, occ));
  } finally {
    if (occ) arenaFree(occ.block);
  }
  if (lists.length === 1) return lists[0]!;
  const all = new Int32Array(lists.reduce((n, l) => n + l.length, 0));
  let at = 0;
  for (const l of lists) {
    all.set(l, at);
    at += l.length;
  }
  return all;
}

/** One band of displaceRowsSimd: output rows j0..j1 - 1 from the input rows they can read. */
function bandRows(
  k: WasmKernels<Exports>,
  src: Float32Array,
  sw: number,
  sh: number,
  disp: Float32Array,
  w: number,
  p: DisplacePlan,
  j0: number,
  j1: number,
  out: Float32Array,
  occ: Occupancy | undefined,
): Int32Array {
  // The input rows the band reads (clamped to the input: rows past it are never read by plain rows).
  const onArena = inArena(src) && inArena(disp) && inArena(out) ? arenaRows(k, src, sw, sh, disp, w, p, j0, j1, out, occ) : undefined;
  if (onArena) return onArena;
  const r0 = Math.max(0, Math.floor(j0 + p.pad - p.ampY));
  const r1 = Math.min(sh, Math.floor(j1 - 1 + p.pad + p.ampY) + 2);
  const srcBytes = (r1 - r0) * sw * 16;
  const rows = (j1 - j0) * w;
  const dispAt = srcBytes;
  const outAt = dispAt + rows * 16;
  const nanAt = outAt + rows * 16;
  k.reserve(nanAt + rows * 4);
  k.f32(0, (r1 - r0) * sw * 4).set(src.subarray(r0 * sw * 4, r1 * sw * 4));
  // src, disp and out hold only their band's rows: the kernel's row r of src is read at (r - r0)
  // sw, its row j of disp and out at (j - j0) w (i32 addresses wrap back into the band).
  k.f32(dispAt, rows * 4).set(disp.subarray(j0 * w * 4, j1 * w * 4));
  const n = k.fn.rows(
    -r0 * sw * 16,
    sw,
    dispAt - j0 * w * 16,
    w,
    outAt - j0 * w * 16,
    j0,
    j1,
    p.pad,
    p.ampX,
    p.ampY,
    2 * p.ampX,
    2 * p.ampY,
    nanAt,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
  );
  out.set(k.f32(outAt, rows * 4), j0 * w * 4);
  return n > 0 ? Int32Array.from(k.u32(nanAt, n)) : new Int32Array(0);
}

/**
 * bandRows where src, disp and out lie in the canvas arena (src/util/wasm-arena.ts): the kernel
 * reads and writes them in place, the same reads and arithmetic as through the scratch memory.
 * Undefined where the arena has no room for the list of NaN pixels (then the rows are copied).
 */
function arenaRows(
  k: WasmKernels<Exports>,
  src: Float32Array,
  sw: number,
  sh: number,
  disp: Float32Array,
  w: number,
  p: DisplacePlan,
  j0: number,
  j1: number,
  out: Float32Array,
  occ: Occupancy | undefined,
): Int32Array | undefined {
  const fn = k.onArena();
  const nan = fn ? arenaAlloc((j1 - j0) * w, false) : undefined;
  if (!fn || !nan) return undefined;
  try {
    const o = occ ? occ.block.byteOffset : 0;
    const nb = occ?.nb ?? 0;
    const n = fn.rows(
      src.byteOffset,
      sw,
      disp.byteOffset,
      w,
      out.byteOffset,
      j0,
      j1,
      p.pad,
      p.ampX,
      p.ampY,
      2 * p.ampX,
      2 * p.ampY,
      nan.byteOffset,
      o,
      nb,
      sh,
      occ?.ax ?? 0,
      occ?.ay ?? 0,
      o + sh * nb,
      o + (sh + 1) * nb,
    );
    return n > 0 ? new Int32Array(nan.buffer, nan.byteOffset, n).slice() : new Int32Array(0);
  } finally {
    arenaFree(nan);
  }
}

/** occupancy()'s bytes of an input in the arena (a block of it), and the reach of a pixel's reads. */
interface Occupancy {
  block: Float32Array;
  nb: number;
  ax: number;
  ay: number;
}

/**
 * The occupancy of `src` by blocks of 16 pixels (displace.wat `occupancy`: blocks holding a set bit,
 * blocks all of one colour C, a fill's inside) where the kernel can skip by it: src, disp and out
 * in the arena, finite amplitudes and every R, G and A of `disp` finite (so no offset is NaN: a
 * pixel whose reachable blocks are all +0 is +0, as the kernel's shortcut for four +0 neighbours
 * gives it, and one whose reachable blocks are all C is C). Undefined otherwise, or where the arena
 * has no room: the kernel then visits every pixel.
 */
function occupancy(
  k: WasmKernels<Exports>,
  src: Float32Array,
  sw: number,
  sh: number,
  disp: Float32Array,
  out: Float32Array,
  p: DisplacePlan,
): Occupancy | undefined {
  if (!Number.isFinite(p.ampX) || !Number.isFinite(p.ampY) || !(inArena(src) && inArena(disp) && inArena(out))) return undefined;
  const fn = k.onArena();
  if (!fn || !fn.finite(disp.byteOffset, disp.length >> 2)) return undefined;
  // Bytes per input row: one per block, rounded up to 16; then one more row of them (acc) and C.
  const nb = (Math.ceil(sw / 16) + 15) & ~15;
  const block = arenaAlloc(((sh + 1) * nb + 16) >> 2, false);
  if (!block) return undefined;
  fn.occupancy(src.byteOffset, sw, sh, block.byteOffset, nb, block.byteOffset + (sh + 1) * nb);
  occupancyCalls++;
  return { block, nb, ax: Math.ceil(p.ampX) + 1, ay: Math.ceil(p.ampY) + 1 };
}

/** Output pixels of one kernel call's band (its memory: ~36 bytes a pixel plus the input rows). */
export const DISPLACE_BAND_PIXELS = 1 << 18;

/**
 * Whether every R, G and A of `disp` (RGBA) is finite, by displace.wat `finite`, where it lies in
 * the canvas arena; undefined elsewhere or without WebAssembly (the caller's loop decides).
 */
export function displaceFiniteSimd(disp: Float32Array): boolean | undefined {
  const fn = inArena(disp) ? kernels()?.onArena() : undefined;
  return fn ? fn.finite(disp.byteOffset, disp.length >> 2) === 1 : undefined;
}

let occupancyCalls = 0;
/** Calls that skipped by the input's occupancy so far (tests: the path they compare did run). */
export const displaceOccupancyCalls = (): number => occupancyCalls;

/** Bytes the module's memory holds now (tests: it stays bounded). */
export const displaceMemoryBytes = (): number => kernels()?.bytes ?? 0;
