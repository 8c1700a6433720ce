// hillshade's default case (one light, no accent) in WebAssembly SIMD: four pixels of a row per
// f32x4, the same arithmetic as the TypeScript kernel (cpu.ts, the reference) in f32 (the scalar
// kernel in f64; they differ by ~1e-6 of full scale). No data is the same test: a pixel whose
// 3x3 window holds a NaN or an infinity is transparent. The kernel is hillshade.wat.
import { arenaAlloc, arenaFree, inArena } from '../../util/wasm-arena.js';
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
  const ramp = [...shadeRamp(col), t.sinAlt254, t.cosAzCosAltZ254, t.sinAzCosAltZ254, t.squareZ];
  if (inArena(field) && inArena(out) && shadeOnArena(k.onArena(), field, w, h, invRes, ramp, out)) return true;
  // In bands of rows (each pixel reads its 3x3 window and its row's resolution only: the same bits
  // as one call), so the module's memory, which never shrinks, holds a band, not a whole canvas.
  const band = Math.max(1, Math.floor(SHADE_BAND_PIXELS / sw));
  for (let j0 = 0; j0 < h; j0 += band) {
    const bh = Math.min(band, h - j0);
    const n = sw * (bh + 2);
    const outAt = (n * 4 + 15) & ~15;
    const ewAt = outAt + w * bh * 16;
    const cAt = (ewAt + bh * 4 + 15) & ~15;
    k.reserve(cAt + 48);
    k.f32(0, n).set(field.subarray(j0 * sw, j0 * sw + n));
    const ew = k.f32(ewAt, bh);
    for (let j = 0; j < bh; j++) ew[j] = invRes[j0 + j]!;
    k.f32(cAt, 12).set(ramp);
    k.fn.shade(0, sw, outAt, w, bh, ewAt, cAt, Math.ceil(w / 4));
    out.set(k.f32(outAt, w * bh * 4), j0 * w * 4);
  }
  return true;
}

/**
 * hillshadeSimd where the field and the output lie in the canvas arena (src/util/wasm-arena.ts):
 * one call over the whole canvas in place, the rows' resolutions and the constants in a block of the
 * arena for the call (the same reads and arithmetic as the bands). False where there is no room.
 */
function shadeOnArena(fn: Exports | null, field: Float32Array, w: number, h: number, invRes: Float64Array, ramp: number[], out: Float32Array): boolean {
  const cOff = (h + 3) & ~3; // floats: the constants 16-byte aligned after the rows' resolutions
  const block = fn ? arenaAlloc(cOff + 12, false) : undefined;
  if (!fn || !block) return false;
  try {
    for (let j = 0; j < h; j++) block[j] = invRes[j]!;
    block.set(ramp, cOff);
    fn.shade(field.byteOffset, w + 2, out.byteOffset, w, h, block.byteOffset, block.byteOffset + cOff * 4, Math.ceil(w / 4));
    return true;
  } finally {
    arenaFree(block);
  }
}

/** Pixels of one kernel call's band (its memory: ~20 bytes a pixel, 5 MiB). */
export const SHADE_BAND_PIXELS = 1 << 18;

/** Bytes the module's memory holds now (tests: it stays bounded). */
export const shadeMemoryBytes = (): number => kernels()?.bytes ?? 0;
