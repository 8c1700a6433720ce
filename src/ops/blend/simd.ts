// blend's `normal` + `over` without a mask (cpu.ts `normalOver`, the reference) in WebAssembly SIMD:
// one f32x4 per RGBA pixel, the same formula in f32 (the TypeScript loop in f64): the two differ by
// ~1e-7. The kernel is blend.wat; where WebAssembly SIMD is missing, `normalOverSimd` returns false
// and the loop runs.
import { wasmKernels } from '../../util/wasm-kernels.js';

interface Exports {
  over(base: number, over: number, out: number, bytes: number, opacity: number): void;
}

const kernels = wasmKernels<Exports>('blend');

export function normalOverSimdAvailable(): boolean {
  return kernels() !== null;
}

/**
 * out = `over` source-over `base` at `opacity` (same-size premultiplied RGBA), the reference's
 * formula: co = f cs + (1 - as) cb, ao = as + (1 - as) ab with as = min(srcA, 1) f, and the base
 * unchanged where srcA <= 0. False without WebAssembly SIMD.
 */
export function normalOverSimd(base: Float32Array, over: Float32Array, opacity: number, out: Float32Array): boolean {
  const k = kernels();
  if (!k) return false;
  const n = base.length;
  const bytes = n * 4;
  k.reserve(3 * bytes);
  k.f32(0, n).set(base);
  k.f32(bytes, n).set(over.subarray(0, n));
  k.fn.over(0, bytes, 2 * bytes, bytes, opacity);
  out.set(k.f32(2 * bytes, n));
  return true;
}
