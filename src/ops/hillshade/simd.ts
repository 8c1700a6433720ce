// hillshade's default case (one light, no accent) in WebAssembly SIMD: four pixels of a row per
// f32x4, the same arithmetic as the TypeScript kernel (cpu.ts, the reference) in f32 (the scalar
// kernel in f64; they differ by ~1e-6 of full scale). No data is the same test: a pixel whose
// 3x3 window holds a NaN or an infinity is transparent.
import { compile, I32, loopLt, moduleBytes, op, V128 } from '../../util/wasm.js';
import type { ShadeColours, ShadeTerms } from './plan.js';

interface Exports {
  shade(inp: number, sw: number, out: number, w: number, h: number, ew: number, consts: number, groups: number): void;
}

// biome-ignore format: one line per step of the instruction sequence
function shadeFn(): number[] {
  const [IN, SW, OUT, W, H, EWP, CP, GROUPS] = [0, 1, 2, 3, 4, 5, 6, 7];
  const [Y, G, R, T, M, B, O, XS, ROWT, OROW] = [8, 9, 10, 11, 12, 13, 14, 15, 16, 17];
  const [X, YV, GV, OK, BASE, DELTA, K, A, BB, Q, ONE, ZERO, C255, EW, NW] = [18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32];
  const ld = (p: number, off: number) => [...op.get(p), ...op.load(off)];
  const v = (i: number) => op.get(i);
  const add = op.fadd, sub = op.fsub, mul = op.fmul;
  // ((a + b) + b) + c
  const horn = (a: number[], b: number[], c: number[]) => [...a, ...b, ...add, ...b, ...add, ...c, ...add];
  const pixel = (k: number) => [
    ...op.get(O),
    ...v(BASE), ...v(DELTA), ...v(GV), ...v(GV), ...op.broadcast(k), ...mul, ...add,
    ...v(OK), ...v(OK), ...op.broadcast(k), ...op.and,
    ...op.store(16 * k),
  ];
  const group = [
    // xs = min(g * 4, w - 4): the last group overlaps the one before when w is not a multiple of 4
    ...op.get(G), ...op.i32(4), ...op.mul, ...op.get(W), ...op.i32(4), ...op.sub,
    ...op.get(G), ...op.i32(4), ...op.mul, ...op.get(W), ...op.i32(4), ...op.sub, ...op.ltu,
    ...op.select, ...op.set(XS),
    ...op.get(ROWT), ...op.get(XS), ...op.i32(4), ...op.mul, ...op.add, ...op.tee(T),
    ...op.get(R), ...op.add, ...op.tee(M),
    ...op.get(R), ...op.add, ...op.set(B),
    ...op.get(OROW), ...op.get(XS), ...op.i32(16), ...op.mul, ...op.add, ...op.set(O),
    // x = (a0 + a3 + a3 + a6 - (a2 + a5 + a5 + a8)) ew; y = (a6 + a7 + a7 + a8 - (a0 + a1 + a1 + a2)) (-ew)
    ...horn(ld(T, 0), ld(M, 0), ld(B, 0)), ...horn(ld(T, 8), ld(M, 8), ld(B, 8)), ...sub, ...v(EW), ...mul, ...op.set(X),
    ...horn(ld(B, 0), ld(B, 4), ld(B, 8)), ...horn(ld(T, 0), ld(T, 4), ld(T, 8)), ...sub, ...v(NW), ...mul, ...op.set(YV),
    // ok = (x - x) + (y - y) + (a4 - a4) == 0: false where any of them is NaN or infinite
    ...v(X), ...v(X), ...sub, ...v(YV), ...v(YV), ...sub, ...add, ...ld(M, 4), ...ld(M, 4), ...sub, ...add,
    ...v(ZERO), ...op.eq, ...op.set(OK),
    // c = (K - (y A - x B)) / sqrt(1 + Q (x x + y y)); g = (1 + max(c, 0)) / 255
    ...v(K), ...v(YV), ...v(A), ...mul, ...v(X), ...v(BB), ...mul, ...sub, ...sub,
    ...v(ONE), ...v(Q), ...v(X), ...v(X), ...mul, ...v(YV), ...v(YV), ...mul, ...add, ...mul, ...add, ...op.fsqrt,
    ...op.fdiv, ...op.set(GV),
    ...v(ONE), ...v(ZERO), ...v(GV), ...op.fpmax, ...add, ...v(C255), ...op.fdiv, ...op.set(GV),
    ...pixel(0), ...pixel(1), ...pixel(2), ...pixel(3),
  ];
  const row = [
    ...op.get(IN), ...op.get(Y), ...op.get(R), ...op.mul, ...op.add, ...op.set(ROWT),
    ...op.get(OUT), ...op.get(Y), ...op.get(W), ...op.mul, ...op.i32(16), ...op.mul, ...op.add, ...op.set(OROW),
    ...op.get(EWP), ...op.get(Y), ...op.i32(4), ...op.mul, ...op.add, ...op.f32load(0), ...op.splat, ...op.tee(EW),
    ...op.fneg, ...op.set(NW),
    ...loopLt(G, op.i32(0), GROUPS, op.i32(1), group),
  ];
  const constant = (i: number, off: number) => [...op.get(CP), ...op.f32load(off), ...op.splat, ...op.set(i)];
  return [
    ...op.get(SW), ...op.i32(4), ...op.mul, ...op.set(R),
    ...op.get(CP), ...op.load(0), ...op.set(BASE),
    ...op.get(CP), ...op.load(16), ...op.set(DELTA),
    ...constant(K, 32), ...constant(A, 36), ...constant(BB, 40), ...constant(Q, 44),
    ...op.f32(1), ...op.splat, ...op.set(ONE),
    ...op.f32(255), ...op.splat, ...op.set(C255),
    ...loopLt(Y, op.i32(0), H, op.i32(1), row),
  ];
}

const kernels = compile<Exports>(() =>
  moduleBytes([
    {
      name: 'shade',
      params: [I32, I32, I32, I32, I32, I32, I32, I32],
      locals: [
        [10, I32],
        [15, V128],
      ],
      body: shadeFn(),
    },
  ]),
);

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
  const [sr, sg, sb, sa] = col.shadow;
  const [hr, hg, hb, ha] = col.highlight;
  k.f32(cAt, 12).set([sr, sg, sb, sa, hr - sr, hg - sg, hb - sb, ha - sa, t.sinAlt254, t.cosAzCosAltZ254, t.sinAzCosAltZ254, t.squareZ]);
  k.fn.shade(0, sw, outAt, w, h, ewAt, cAt, Math.ceil(w / 4));
  out.set(k.f32(outAt, w * h * 4));
  return true;
}
