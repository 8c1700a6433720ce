// edge-detect's Sobel in WebAssembly SIMD: one f32x4 per RGBA pixel, the same sums in the same
// order as the TypeScript kernel (cpu.ts `sobelScalar`, the reference) but in f32 (the scalar
// kernel in f64): the two differ by ~1e-7. The kernel is edge-detect.wat.
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
  const n = sw * (h + 2) * 4;
  const outAt = (n * 4 + 15) & ~15;
  k.reserve(outAt + w * h * 16);
  k.f32(0, n).set(src.subarray(0, n));
  k.fn.sobel(0, sw, outAt, w, h, strength);
  out.set(k.f32(outAt, w * h * 4));
  return true;
}
