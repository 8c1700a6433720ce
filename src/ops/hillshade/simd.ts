// hillshade's default case (one light, no accent) in WebAssembly SIMD: four pixels of a row per
// f32x4, the same arithmetic as the TypeScript kernel (cpu.ts, the reference) in f32 (the scalar
// kernel in f64; they differ by ~1e-6 of full scale). No data is the same test: a pixel whose
// 3x3 window holds a NaN or an infinity is transparent. The kernel is hillshade.wat.
import { wasmKernels } from '../../util/wasm-kernels.js';
import { shadeRamp, type ShadeColours, type ShadeTerms } from './plan.js';

interface Exports {
  shade(inp: number, sw: number, out: number, w: number, h: number, ew: number, consts: number, groups: number): void;
}

const kernels = wasmKernels<Exports>('hillshade');

export function shadeSimdAvailable(): boolean {
  return kernels() !== null;
}

/**
 * The single-light hillshade of `field` ((w + 2) x (h + 2), pad 1) into `out` with the SIMD
 * kernel; false without WebAssembly SIMD or for a canvas narrower than 4 pixels.
 */
export function hillshadeSimd(field: Float32Array, w: number, h: number, invRes: Float64Array, t: ShadeTerms, col: ShadeColours, out: Float32Array): boolean {
  if (w < 4) return false;
  const k = kernels();
  if (!k) return false;
  const sw = w + 2;
  const n = sw * (h + 2);
  const outAt = (n * 4 + 15) & ~15;
  const ewAt = outAt + w * h * 16;
  const cAt = (ewAt + h * 4 + 15) & ~15;
  k.reserve(cAt + 48);
  k.f32(0, n).set(field.subarray(0, n));
  const ew = k.f32(ewAt, h);
  for (let j = 0; j < h; j++) ew[j] = invRes[j]!;
  k.f32(cAt, 12).set([...shadeRamp(col), t.sinAlt254, t.cosAzCosAltZ254, t.sinAzCosAltZ254, t.squareZ]);
  k.fn.shade(0, sw, outAt, w, h, ewAt, cAt, Math.ceil(w / 4));
  out.set(k.f32(outAt, w * h * 4));
  return true;
}
