// edge-detect's Sobel in WebAssembly SIMD: one f32x4 per RGBA pixel, the same sums in the same
// order as the TypeScript kernel (cpu.ts `sobelScalar`, the reference) but in f32 (the scalar
// kernel in f64): the two differ by ~1e-7.
import { compile, F32, I32, loopLt, moduleBytes, op, V128 } from '../../util/wasm.js';

interface Exports {
  sobel(inp: number, sw: number, out: number, w: number, h: number, strength: number): void;
}

// biome-ignore format: one line per step of the instruction sequence
function sobelFn(): number[] {
  const [IN, SW, OUT, W, H, ST] = [0, 1, 2, 3, 4, 5];
  const [Y, X, R, T, M, B, O] = [6, 7, 8, 9, 10, 11, 12];
  const [S, ONE, GX, GY, V] = [13, 14, 15, 16, 17];
  const ld = (p: number, off: number) => [...op.get(p), ...op.load(off)];
  const twice = (p: number, off: number) => [...ld(p, off), ...ld(p, off), ...op.fadd];
  // (a + 2 b) + c
  const sum3 = (a: number[], b: number[], c: number[]) => [...a, ...b, ...op.fadd, ...c, ...op.fadd];
  const lane = (k: number) => [...op.get(V), ...op.lane(k)];
  const pixel = [
    // gx = (a2 + 2 a5 + a8) - (a0 + 2 a3 + a6)
    ...sum3(ld(T, 32), twice(M, 32), ld(B, 32)), ...sum3(ld(T, 0), twice(M, 0), ld(B, 0)), ...op.fsub, ...op.set(GX),
    // gy = (a6 + 2 a7 + a8) - (a0 + 2 a1 + a2)
    ...sum3(ld(B, 0), twice(B, 16), ld(B, 32)), ...sum3(ld(T, 0), twice(T, 16), ld(T, 32)), ...op.fsub, ...op.set(GY),
    // v = min(1, sqrt(gx^2 + gy^2) * strength)
    ...op.get(GX), ...op.get(GX), ...op.fmul, ...op.get(GY), ...op.get(GY), ...op.fmul, ...op.fadd, ...op.fsqrt,
    ...op.get(S), ...op.fmul, ...op.get(ONE), ...op.fpmin, ...op.set(V),
    // alpha = max(alpha, r, g, b)
    ...op.get(V),
    ...lane(3), ...lane(0), ...op.f32max, ...lane(1), ...lane(2), ...op.f32max, ...op.f32max,
    ...op.replace(3),
    ...op.set(V),
    ...op.get(O), ...op.get(V), ...op.store(0),
    ...op.get(O), ...op.i32(16), ...op.add, ...op.set(O),
    ...op.get(T), ...op.i32(16), ...op.add, ...op.set(T),
    ...op.get(M), ...op.i32(16), ...op.add, ...op.set(M),
    ...op.get(B), ...op.i32(16), ...op.add, ...op.set(B),
  ];
  const row = [
    ...op.get(IN), ...op.get(Y), ...op.get(R), ...op.mul, ...op.add, ...op.tee(T),
    ...op.get(R), ...op.add, ...op.tee(M),
    ...op.get(R), ...op.add, ...op.set(B),
    ...loopLt(X, op.i32(0), W, op.i32(1), pixel),
  ];
  return [
    ...op.get(SW), ...op.i32(16), ...op.mul, ...op.set(R),
    ...op.get(ST), ...op.splat, ...op.set(S),
    ...op.f32(1), ...op.splat, ...op.set(ONE),
    ...op.get(OUT), ...op.set(O),
    ...loopLt(Y, op.i32(0), H, op.i32(1), row),
  ];
}

const kernels = compile<Exports>(() =>
  moduleBytes([
    {
      name: 'sobel',
      params: [I32, I32, I32, I32, I32, F32],
      locals: [
        [7, I32],
        [5, V128],
      ],
      body: sobelFn(),
    },
  ]),
);

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
