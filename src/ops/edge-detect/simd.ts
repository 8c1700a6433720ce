// edge-detect's Sobel in WebAssembly SIMD: one f32x4 per RGBA pixel, the same sums in the same
// order as the TypeScript kernel (cpu.ts `sobelScalar`, the reference) but in f32 (the scalar
// kernel in f64): the two differ by ~1e-7. The kernel is edge-detect.wat.
import { inArena } from '../../util/wasm-arena.js';
import { wasmKernels } from '../../util/wasm-kernels.js';

interface Exports {
  sobel(inp: number, sw: number, out: number, w: number, h: number, strength: number): void;
}

const kernels = wasmKernels<Exports>('edge-detect');

export function sobelSimdAvailable(): boolean {
  return kernels() !== null;
}

/** sobelScalar's result written into `out` with the SIMD kernel; false without WebAssembly SIMD. */
export function sobelSimd(src: Float32Array, sw: number, w: number, h: number, strength: number, out: Float32Array): boolean {
  const k = kernels();
  if (!k) return false;
  // Both canvases in the canvas arena: one call over every row, in place (the source's h + 2 rows
  // of sw pixels read, the w x h output written, where they lie).
  const onArena = inArena(src) && inArena(out) ? k.onArena() : null;
  if (onArena) {
    if (w > 0 && h > 0) onArena.sobel(src.byteOffset, sw, out.byteOffset, w, h, strength);
    return true;
  }
  // In bands of rows (each pixel reads its 3x3 window only: the same bits as one call), so the
  // module's memory, which never shrinks, holds a band and not a whole canvas (BAND_PIXELS).
  const band = Math.max(1, Math.floor(BAND_PIXELS / sw));
  for (let j0 = 0; j0 < h; j0 += band) {
    const bh = Math.min(band, h - j0);
    const n = sw * (bh + 2) * 4;
    const outAt = (n * 4 + 15) & ~15;
    k.reserve(outAt + w * bh * 16);
    k.f32(0, n).set(src.subarray(j0 * sw * 4, j0 * sw * 4 + n));
    k.fn.sobel(0, sw, outAt, w, bh, strength);
    out.set(k.f32(outAt, w * bh * 4), j0 * w * 4);
  }
  return true;
}

/** Pixels of one kernel call's band (its memory: ~32 bytes a pixel, 8 MiB). */
export const BAND_PIXELS = 1 << 18;

/** Bytes the module's memory holds now (tests: it stays bounded). */
export const sobelMemoryBytes = (): number => kernels()?.bytes ?? 0;
