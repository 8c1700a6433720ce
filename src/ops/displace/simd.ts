// displace's plain rows (reads inside the world and the input view) in WebAssembly SIMD
// (displace.wat): the same f64 arithmetic as cpu.ts `displace` per channel, so the values are bit
// for bit displaceReference's. Where WebAssembly is missing, `displaceRowsSimd` returns null and
// the TypeScript loop runs.
import { wasmKernels } from '../../util/wasm-kernels.js';
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
  ): number;
}

const kernels = wasmKernels<Exports>('displace');

/**
 * Output rows j0..j1 - 1 of displace into `out` (RGBA w x h), every read of them inside `src`
 * (RGBA sw x sh, the canvas grown by p.pad) and the world. Returns the pixel numbers left unwritten
 * (a NaN offset: the caller reads them the reference's way), or null without WebAssembly.
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
  const srcBytes = sw * sh * 16;
  const rows = (j1 - j0) * w;
  const dispAt = srcBytes;
  const outAt = dispAt + rows * 16;
  const nanAt = outAt + rows * 16;
  k.reserve(nanAt + rows * 4);
  k.f32(0, sw * sh * 4).set(src.subarray(0, sw * sh * 4));
  // disp and out hold only rows j0..j1 - 1: the kernel's row j reads them at (j - j0) w.
  k.f32(dispAt, rows * 4).set(disp.subarray(j0 * w * 4, j1 * w * 4));
  const n = k.fn.rows(0, sw, dispAt - j0 * w * 16, w, outAt - j0 * w * 16, j0, j1, p.pad, p.ampX, p.ampY, 2 * p.ampX, 2 * p.ampY, nanAt);
  out.set(k.f32(outAt, rows * 4), j0 * w * 4);
  return n > 0 ? Int32Array.from(k.u32(nanAt, n)) : new Int32Array(0);
}
