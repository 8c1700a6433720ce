// blend's `normal` + `over` without a mask (cpu.ts `normalOver`, the reference) in WebAssembly SIMD:
// one f32x4 per RGBA pixel, the same formula in f32 (the TypeScript loop in f64): the two differ by
// ~1e-7. The kernel is blend.wat; where WebAssembly SIMD is missing, `normalOverSimd` returns false
// and the loop runs. `multiply` and `erase` without a mask: the same f64 arithmetic as cpu.ts, bit
// for bit.
import { uniformOf } from '../../backends/cpu/uniform.js';
import { nativeKernels } from '../../util/native-kernels.js';
import { inArena } from '../../util/wasm-arena.js';
import { type WasmKernels, wasmKernels } from '../../util/wasm-kernels.js';

interface Exports {
  over(base: number, over: number, out: number, bytes: number, opacity: number): void;
  multiply(base: number, over: number, out: number, bytes: number, opacity: number, atop: number, uni: number): void;
  erase(base: number, over: number, out: number, bytes: number, opacity: number): void;
  first(over: number, n: number): number;
  last(over: number, n: number): number;
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
  // Where srcA is not > 0 the kernel gives the base's bits unchanged, so only the pixels from the
  // first to the last with srcA > 0 go through it (a label or border layer is mostly empty, and a
  // tile of open sea has no land at all); the base is copied as it is around them.
  // A layer with no srcA > 0 at all is the empty range [n, n): the base is copied whole by the
  // same calls as around a range (a call site of its own, reached only by empty layers, had no
  // type feedback, and optimised code deopted there over and over in a server's first minute).
  const [from, to] = coverSpan(k, over, n);
  if (out !== base) {
    if (from > 0) out.set(base.subarray(0, from));
    if (to < n) out.set(base.subarray(to, n), to);
  }
  if (from >= to) return true;
  // A host's native kernel (the Node host's AVX-512 addon: four pixels a step, the same f32 operations).
  const native = nativeKernels()?.over;
  if (native) native(base.subarray(from, to), over.subarray(from, to), out.subarray(from, to), opacity, 0);
  else spans(k, base, over, out, from, to, (fn, b, o, r, bytes) => fn.over(b, o, r, bytes, opacity));
  return true;
}

/**
 * Floats [from, to) of `over` from its first to its last pixel with srcA > 0 ([n, n) where none):
 * blend.wat `first` and `last` where the layer lies in the canvas arena (eight pixels a test; a
 * mostly empty label layer of a 256 px tile was ~0.05 ms of this scan in TypeScript), else
 * coverSpanReference.
 */
function coverSpan(k: WasmKernels<Exports>, over: Float32Array, n: number): [number, number] {
  const fn = inArena(over) ? k.onArena() : null;
  if (!fn) return coverSpanReference(over, n);
  const pixels = n >> 2;
  const first = fn.first(over.byteOffset, pixels);
  return first < pixels ? [first * 4, fn.last(over.byteOffset, pixels) * 4 + 4] : [n, n];
}

/** coverSpan in TypeScript: its reference, and layers outside the arena. */
export function coverSpanReference(over: Float32Array, n: number): [number, number] {
  let lo = 3;
  while (lo < n && !(over[lo]! > 0)) lo += 4;
  if (lo >= n) return [n, n];
  let hi = n - 1;
  while (!(over[hi]! > 0)) hi -= 4;
  return [lo - 3, hi + 1];
}

/** coverSpan (tests: blend.wat's scan against coverSpanReference); undefined without WebAssembly SIMD. */
export function coverSpanOf(over: Float32Array): [number, number] | undefined {
  const k = kernels();
  return k ? coverSpan(k, over, over.length) : undefined;
}

/**
 * Pixels per kernel call. The module's memory never shrinks, so a canvas is blended in spans of at
 * most this many pixels (three rasters of it: 12 MiB) instead of growing the memory to three whole
 * canvases (48 bytes a pixel: ~800 MB for the largest canvas LIMITS allow, kept for the process's
 * life). Every blend is per pixel, so spans give the same bits as one call.
 */
export const BLEND_SPAN_PIXELS = 1 << 18;

/** Bytes the blend module's memory holds now (tests: it stays bounded). */
export const blendMemoryBytes = (): number => kernels()?.bytes ?? 0;

/** A kernel call on (base, over, out, bytes) byte offsets of `fn`'s memory. */
type Run = (fn: Exports, base: number, over: number, out: number, bytes: number) => void;

/**
 * Runs `run` on floats [from, to) of the rasters: in place where all three lie in the canvas arena
 * (src/util/wasm-arena.ts), else copied through the scratch memory span by span.
 */
function spans(k: WasmKernels<Exports>, base: Float32Array, over: Float32Array, out: Float32Array, from: number, to: number, run: Run): void {
  const onArena = inArena(base) && inArena(over) && inArena(out) ? k.onArena() : null;
  if (onArena) {
    const at = from * 4;
    run(onArena, base.byteOffset + at, over.byteOffset + at, out.byteOffset + at, (to - from) * 4);
    return;
  }
  const step = BLEND_SPAN_PIXELS * 4;
  for (let a = from; a < to; a += step) {
    const b = Math.min(to, a + step);
    const len = b - a;
    const bytes = len * 4;
    k.reserve(3 * bytes);
    k.f32(0, len).set(base.subarray(a, b));
    k.f32(bytes, len).set(over.subarray(a, b));
    run(k.fn, 0, bytes, 2 * bytes, bytes);
    out.set(k.f32(2 * bytes, len), a);
  }
}

/** Copies base and over into the kernel memory, runs `run` on (base, over, out, bytes) offsets, copies out (in spans). */
function withRasters(base: Float32Array, over: Float32Array, out: Float32Array, run: Run): boolean {
  const k = kernels();
  if (!k) return false;
  spans(k, base, over, out, 0, base.length, run);
  return true;
}

/**
 * `multiply` over (or atop) without a mask, bit for bit cpu.ts's `multiply` (blend.wat: the same
 * f64 operations per channel). False without WebAssembly SIMD.
 */
export function multiplySimd(base: Float32Array, over: Float32Array, opacity: number, atop: boolean, out: Float32Array): boolean {
  // A host's native kernel (the Node host's AVX-512 addon, eight pixels a step): the same arithmetic.
  const native = nativeKernels()?.multiply;
  if (native) return native(base, over, out, opacity, atop ? 1 : 0, 0);
  // A base marked one value everywhere (src/backends/cpu/uniform.ts; a solid paper): the kernel
  // takes its per-pixel terms of an opaque base once (the same bits).
  const uni = uniformOf(base) ? 1 : 0;
  return withRasters(base, over, out, (fn, b, o, r, bytes) => fn.multiply(b, o, r, bytes, opacity, atop ? 1 : 0, uni));
}

/** The `erase` composite without a mask, bit for bit cpu.ts's loop. False without WebAssembly SIMD. */
export function eraseSimd(base: Float32Array, over: Float32Array, opacity: number, out: Float32Array): boolean {
  // A host's native kernel (the Node host's AVX-512 addon, eight pixels a step): the same arithmetic.
  const native = nativeKernels()?.erase;
  if (native) return native(base, over, out, opacity, 0);
  return withRasters(base, over, out, (fn, b, o, r, bytes) => fn.erase(b, o, r, bytes, opacity));
}
