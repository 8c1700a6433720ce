// blend's `normal` + `over` without a mask (cpu.ts `normalOver`, the reference) in WebAssembly SIMD:
// one f32x4 per RGBA pixel, the same formula in f32 (the TypeScript loop in f64): the two differ by
// ~1e-7. Where WebAssembly SIMD is missing, `normalOverSimd` returns false and the loop runs.
import { compile, F32, I32, loopLt, moduleBytes, op, V128 } from '../../util/wasm.js';

interface Exports {
  over(base: number, over: number, out: number, bytes: number, opacity: number): void;
}

// biome-ignore format: one line per step of the instruction sequence
function overFn(): number[] {
  const [BASE, OVER, OUT, N, OP] = [0, 1, 2, 3, 4];
  const [P] = [5];
  const [F, ONE, ZERO, S, SA, AS, B] = [6, 7, 8, 9, 10, 11, 12];
  const f32gt = [0xfd, 0x44]; // f32x4.gt
  const bitselect = [0xfd, 0x52]; // v128.bitselect(a, b, mask): a where the mask is set, else b
  // i8x16.shuffle picking f32 lanes (0-3 of the first vector, 4-7 of the second).
  const shuf = (l: number[]) => [0xfd, 0x0d, ...l.flatMap((k) => [4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3])];
  const pixel = [
    ...op.get(OVER), ...op.get(P), ...op.add, ...op.load(0), ...op.tee(S),
    ...op.get(S), ...op.broadcast(3), ...op.set(SA), // srcA in every lane
    // as = min(srcA, 1) f; k = 1 - as
    ...op.get(SA), ...op.get(ONE), ...op.fpmin, ...op.get(F), ...op.fmul, ...op.set(AS),
    ...op.get(BASE), ...op.get(P), ...op.add, ...op.load(0), ...op.set(B),
    ...op.get(OUT), ...op.get(P), ...op.add,
    // (f rgb_s, as) + k base
    ...op.get(F), ...op.get(S), ...op.fmul, ...op.get(AS), ...shuf([0, 1, 2, 7]),
    ...op.get(ONE), ...op.get(AS), ...op.fsub, ...op.get(B), ...op.fmul, ...op.fadd,
    // where srcA <= 0 the base as it is
    ...op.get(B),
    ...op.get(SA), ...op.get(ZERO), ...f32gt,
    ...bitselect,
    ...op.store(0),
  ];
  return [
    ...op.get(OP), ...op.splat, ...op.set(F),
    ...op.f32(1), ...op.splat, ...op.set(ONE),
    ...op.f32(0), ...op.splat, ...op.set(ZERO),
    ...loopLt(P, op.i32(0), N, op.i32(16), pixel),
  ];
}

const kernels = compile<Exports>(() =>
  moduleBytes([
    {
      name: 'over',
      params: [I32, I32, I32, I32, F32],
      locals: [
        [1, I32],
        [7, V128],
      ],
      body: overFn(),
    },
  ]),
);

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
