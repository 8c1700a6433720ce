// WebAssembly SIMD for blur's fast path on RGBA (one f32x4 per pixel) and on one plane (four columns
// a vector, horizontal stages on the transposed plane): the same stages and the same tap plans as
// blurFastScalar (cpu.ts), each stage a weighted gather of whole rows or of pixels.
// The module is assembled here from its few instructions (no toolchain, no binary file); where
// WebAssembly SIMD is missing, `simdAvailable()` is false and the scalar path runs.
// Accumulates in f32 (the scalar path in f64): the two differ by ~1e-6, far below 1/255.

import { compile, F32, I32, loopLt, name, section, sleb, uleb, V128, vec } from '../../util/wasm.js';
import type { SplinePlan, TentPlan } from './plan.js';

// Blur's own instruction table (aligned loads and stores); the encoder is src/util/wasm.ts.
const op = {
  get: (i: number) => [0x20, ...uleb(i)],
  set: (i: number) => [0x21, ...uleb(i)],
  tee: (i: number) => [0x22, ...uleb(i)],
  i32: (n: number) => [0x41, ...sleb(n)],
  add: [0x6a],
  mul: [0x6c],
  ltu: [0x49],
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (l: number) => [0x0c, ...uleb(l)],
  brIf: (l: number) => [0x0d, ...uleb(l)],
  i32load: [0x28, 2, 0],
  f32load: [0x2a, 2, 0],
  v128load: [0xfd, 0x00, 4, 0],
  v128store: [0xfd, 0x0b, 4, 0],
  v128zero: [0xfd, 0x0c, ...new Array<number>(16).fill(0)],
  splat: [0xfd, 0x13],
  fadd: [0xfd, ...uleb(0xe4)],
  fmul: [0xfd, ...uleb(0xe6)],
};

/**
 * gatherRows(in, rowBytes, out, nOut, idx, wts, T): output row y (rowBytes bytes, a multiple of 16)
 * = sum over t < T of wts[y T + t] * input row idx[y T + t]. The output row is the accumulator
 * (it stays in L1); each tap streams one input row through it.
 */
// biome-ignore format: one line per step of the instruction sequence
function gatherRows(): number[] {
  // params 0 in, 1 rowBytes, 2 out, 3 nOut, 4 idx, 5 wts, 6 T; locals 7 y, 8 t, 9 j, 10 orow, 11 srow, 12 k, 13 tEnd; 14 w (v128)
  const [IN, RB, OUT, N, IDX, WTS, T, Y, TT, J, OROW, SROW, K, TEND, W] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];
  const zeroRow = loopLt(J, op.i32(0), RB, op.i32(16), [...op.get(OROW), ...op.get(J), ...op.add, ...op.v128zero, ...op.v128store]);
  const tap = [
    // k = (y T + t) * 4; srow = in + idx[k] * rowBytes; w = splat(wts[k])
    ...op.get(TT), ...op.i32(4), ...op.mul, ...op.set(K),
    ...op.get(IN), ...op.get(IDX), ...op.get(K), ...op.add, ...op.i32load, ...op.get(RB), ...op.mul, ...op.add, ...op.set(SROW),
    ...op.get(WTS), ...op.get(K), ...op.add, ...op.f32load, ...op.splat, ...op.set(W),
    ...loopLt(J, op.i32(0), RB, op.i32(16), [
      ...op.get(OROW), ...op.get(J), ...op.add,
      ...op.get(OROW), ...op.get(J), ...op.add, ...op.v128load,
      ...op.get(SROW), ...op.get(J), ...op.add, ...op.v128load, ...op.get(W), ...op.fmul,
      ...op.fadd, ...op.v128store,
    ]),
  ];
  const row = [
    ...op.get(OUT), ...op.get(Y), ...op.get(RB), ...op.mul, ...op.add, ...op.set(OROW),
    ...zeroRow,
    ...op.get(Y), ...op.get(T), ...op.mul, ...op.get(T), ...op.add, ...op.set(TEND),
    ...loopLt(TT, [...op.get(Y), ...op.get(T), ...op.mul], TEND, op.i32(1), tap),
  ];
  const body = loopLt(Y, op.i32(0), N, op.i32(1), row);
  return [...vec([[7, I32], [1, V128]].map(([n, t]) => [...uleb(n!), t!])), ...body, ...op.end];
}

/**
 * gatherPixels(in, inRowBytes, rows, out, nOut, idx, wts, T): in each of `rows` rows, output pixel x
 * (16 bytes) = sum over t < T of wts[x T + t] * the input pixel at byte offset idx[x T + t] of the row.
 */
// biome-ignore format: one line per step of the instruction sequence
function gatherPixels(): number[] {
  // params 0 in, 1 inRowBytes, 2 rows, 3 out, 4 nOut, 5 idx, 6 wts, 7 T;
  // locals 8 y, 9 x, 10 k, 11 kEnd, 12 irow, 13 o, 14 TB (T*4); 15 acc (v128)
  const [IN, IRB, ROWS, OUT, N, IDX, WTS, T, Y, X, K, KEND, IROW, O, TB, ACC] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
  const tap = [
    ...op.get(ACC),
    ...op.get(IROW), ...op.get(IDX), ...op.get(K), ...op.add, ...op.i32load, ...op.add, ...op.v128load,
    ...op.get(WTS), ...op.get(K), ...op.add, ...op.f32load, ...op.splat,
    ...op.fmul, ...op.fadd, ...op.set(ACC),
  ];
  const pixel = [
    ...op.v128zero, ...op.set(ACC),
    ...op.get(X), ...op.get(TB), ...op.mul, ...op.tee(K), ...op.get(TB), ...op.add, ...op.set(KEND),
    ...loopLt(K, op.get(K), KEND, op.i32(4), tap),
    ...op.get(O), ...op.get(ACC), ...op.v128store,
    ...op.get(O), ...op.i32(16), ...op.add, ...op.set(O),
  ];
  const row = [
    ...op.get(IN), ...op.get(Y), ...op.get(IRB), ...op.mul, ...op.add, ...op.set(IROW),
    ...loopLt(X, op.i32(0), N, op.i32(1), pixel),
  ];
  const body = [
    ...op.get(T), ...op.i32(4), ...op.mul, ...op.set(TB),
    ...op.get(OUT), ...op.set(O),
    ...loopLt(Y, op.i32(0), ROWS, op.i32(1), row),
  ];
  return [...vec([[7, I32], [1, V128]].map(([n, t]) => [...uleb(n!), t!])), ...body, ...op.end];
}

/**
 * transpose(src, srcRowBytes, rows, cols, dst, dstRowBytes): dst (cols x rows) = src (rows x cols)
 * transposed, in 4 x 4 blocks of f32 (four loads, eight shuffles, four stores). rows and cols are
 * rounded up to multiples of 4: the caller gives both planes that many rows and columns (padding
 * lanes carry values no valid lane reads).
 */
// biome-ignore format: one line per step of the instruction sequence
function transposeBlocks(): number[] {
  // params 0 src, 1 srcRowBytes, 2 rows, 3 cols, 4 dst, 5 dstRowBytes; locals 6 y, 7 x, 8 p, 9 q; 10..17 v128
  const [SRC, SS, ROWS, COLS, DST, DS, Y, X, P, Q, A, B, C, D, T0, T1, T2, T3] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17];
  // i8x16.shuffle picking f32 lanes (0-3 of the first vector, 4-7 of the second).
  const shuf = (l: number[]) => [0xfd, 0x0d, ...l.flatMap((k) => [4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3])];
  const block = [
    ...op.get(SRC), ...op.get(Y), ...op.get(SS), ...op.mul, ...op.add, ...op.get(X), ...op.i32(4), ...op.mul, ...op.add, ...op.set(P),
    ...op.get(P), ...op.v128load, ...op.set(A),
    ...op.get(P), ...op.get(SS), ...op.add, ...op.tee(P), ...op.v128load, ...op.set(B),
    ...op.get(P), ...op.get(SS), ...op.add, ...op.tee(P), ...op.v128load, ...op.set(C),
    ...op.get(P), ...op.get(SS), ...op.add, ...op.v128load, ...op.set(D),
    ...op.get(A), ...op.get(B), ...shuf([0, 4, 1, 5]), ...op.set(T0), // a0 b0 a1 b1
    ...op.get(A), ...op.get(B), ...shuf([2, 6, 3, 7]), ...op.set(T1), // a2 b2 a3 b3
    ...op.get(C), ...op.get(D), ...shuf([0, 4, 1, 5]), ...op.set(T2), // c0 d0 c1 d1
    ...op.get(C), ...op.get(D), ...shuf([2, 6, 3, 7]), ...op.set(T3), // c2 d2 c3 d3
    ...op.get(DST), ...op.get(X), ...op.get(DS), ...op.mul, ...op.add, ...op.get(Y), ...op.i32(4), ...op.mul, ...op.add, ...op.set(Q),
    ...op.get(Q), ...op.get(T0), ...op.get(T2), ...shuf([0, 1, 4, 5]), ...op.v128store, // a0 b0 c0 d0
    ...op.get(Q), ...op.get(DS), ...op.add, ...op.tee(Q), ...op.get(T0), ...op.get(T2), ...shuf([2, 3, 6, 7]), ...op.v128store,
    ...op.get(Q), ...op.get(DS), ...op.add, ...op.tee(Q), ...op.get(T1), ...op.get(T3), ...shuf([0, 1, 4, 5]), ...op.v128store,
    ...op.get(Q), ...op.get(DS), ...op.add, ...op.get(T1), ...op.get(T3), ...shuf([2, 3, 6, 7]), ...op.v128store,
  ];
  const body = loopLt(Y, op.i32(0), ROWS, op.i32(4), loopLt(X, op.i32(0), COLS, op.i32(4), block));
  return [...vec([[4, I32], [8, V128]].map(([n, t]) => [...uleb(n!), t!])), ...body, ...op.end];
}

/**
 * tint(plane, planeBytes, out, r, g, b): out pixel i (RGBA) = (r A, g A, b A, A) for A = plane[i];
 * planeBytes a multiple of 16 (four values a vector, four pixels out).
 */
// biome-ignore format: one line per step of the instruction sequence
function tintPlane(): number[] {
  // params 0 plane, 1 planeBytes, 2 out, 3 r, 4 g, 5 b (f32); locals 6 p, 7 o; 8 c, 9 v (v128)
  const [PLANE, N, OUT, R, G, B, P, O, C, V] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  const replace = (lane: number) => [0xfd, 0x20, lane]; // f32x4.replace_lane
  const one = [0x43, ...new Uint8Array(Float32Array.of(1).buffer)]; // f32.const 1
  const broadcast = (lane: number) => [0xfd, 0x0d, ...[0, 1, 2, 3].flatMap(() => [4 * lane, 4 * lane + 1, 4 * lane + 2, 4 * lane + 3])];
  const pixel = (j: number) => [...op.get(O), ...op.i32(16 * j), ...op.add, ...op.get(V), ...op.get(V), ...broadcast(j), ...op.get(C), ...op.fmul, ...op.v128store];
  const step = [
    ...op.get(PLANE), ...op.get(P), ...op.add, ...op.v128load, ...op.set(V),
    ...pixel(0), ...pixel(1), ...pixel(2), ...pixel(3),
    ...op.get(O), ...op.i32(64), ...op.add, ...op.set(O),
  ];
  const body = [
    ...one, ...op.splat, ...op.get(R), ...replace(0), ...op.get(G), ...replace(1), ...op.get(B), ...replace(2), ...op.set(C),
    ...op.get(OUT), ...op.set(O),
    ...loopLt(P, op.i32(0), N, op.i32(16), step),
  ];
  return [...vec([[2, I32], [2, V128]].map(([n, t]) => [...uleb(n!), t!])), ...body, ...op.end];
}

/**
 * mono(src, srcRowBytes, rows, cols, alpha, stats, r, g, b, rel): the one-colour test of monoPlane
 * (cpu.ts) over rows x cols RGBA pixels: each pixel's alpha A into the plane `alpha` (cols a row),
 * and at `stats` three vectors: a lane mask set where some |rgb - c A| > rel A (c = (r, g, b)), the
 * minimum and the maximum of A (the same in every lane).
 */
// biome-ignore format: one line per step of the instruction sequence
function monoScan(): number[] {
  // params 0 src, 1 srcRowBytes, 2 rows, 3 cols, 4 alpha, 5 stats, 6 r, 7 g, 8 b, 9 rel (f32);
  // locals 10 y, 11 x, 12 p, 13 o; 14 c, 15 rel, 16 bad, 17 lo, 18 hi, 19 v, 20 a (v128)
  const [SRC, SS, ROWS, COLS, ALPHA, STATS, R, G, B, REL] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  const [Y, X, P, O, C, VREL, BAD, LO, HI, V, A] = [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20];
  const f32const = (v: number) => [0x43, ...new Uint8Array(Float32Array.of(v).buffer)];
  const simdOp = (code: number, ...imm: number[]) => [0xfd, ...uleb(code), ...imm];
  const [replace, lane] = [(l: number) => simdOp(0x20, l), (l: number) => simdOp(0x1f, l)];
  const [fsub, fabs, fgt, or, pmin, pmax] = [simdOp(0xe5), simdOp(0xe0), simdOp(0x44), simdOp(0x50), simdOp(0xea), simdOp(0xeb)];
  const alpha3 = [0xfd, 0x0d, ...[0, 1, 2, 3].flatMap(() => [12, 13, 14, 15])]; // lane 3 in every lane
  const pixel = [
    ...op.get(P), ...op.v128load, ...op.tee(V), ...op.get(V), ...alpha3, ...op.set(A),
    // bad |= |v - c A| > rel A (lane 3: c is 1, the difference 0)
    ...op.get(BAD),
    ...op.get(V), ...op.get(C), ...op.get(A), ...op.fmul, ...fsub, ...fabs,
    ...op.get(VREL), ...op.get(A), ...op.fmul, ...fgt, ...or, ...op.set(BAD),
    ...op.get(LO), ...op.get(A), ...pmin, ...op.set(LO),
    ...op.get(HI), ...op.get(A), ...pmax, ...op.set(HI),
    ...op.get(O), ...op.get(V), ...lane(3), 0x38, 2, 0, // f32.store
    ...op.get(O), ...op.i32(4), ...op.add, ...op.set(O),
    ...op.get(P), ...op.i32(16), ...op.add, ...op.set(P),
  ];
  const row = [
    ...op.get(SRC), ...op.get(Y), ...op.get(SS), ...op.mul, ...op.add, ...op.set(P),
    ...loopLt(X, op.i32(0), COLS, op.i32(1), pixel),
  ];
  const body = [
    ...f32const(1), ...op.splat, ...op.get(R), ...replace(0), ...op.get(G), ...replace(1), ...op.get(B), ...replace(2), ...op.set(C),
    ...op.get(REL), ...op.splat, ...op.set(VREL),
    ...f32const(Number.POSITIVE_INFINITY), ...op.splat, ...op.set(LO),
    ...f32const(Number.NEGATIVE_INFINITY), ...op.splat, ...op.set(HI),
    ...op.get(ALPHA), ...op.set(O),
    ...loopLt(Y, op.i32(0), ROWS, op.i32(1), row),
    ...op.get(STATS), ...op.get(BAD), ...op.v128store,
    ...op.get(STATS), ...op.i32(16), ...op.add, ...op.get(LO), ...op.v128store,
    ...op.get(STATS), ...op.i32(32), ...op.add, ...op.get(HI), ...op.v128store,
  ];
  return [...vec([[4, I32], [7, V128]].map(([n, t]) => [...uleb(n!), t!])), ...body, ...op.end];
}

// biome-ignore format: one line per step of the instruction sequence
function moduleBytes(): Uint8Array<ArrayBuffer> {
  const rowsType = [0x60, ...vec(new Array(7).fill([I32])), 0];
  const pixelsType = [0x60, ...vec(new Array(8).fill([I32])), 0];
  const transposeType = [0x60, ...vec(new Array(6).fill([I32])), 0];
  const tintType = [0x60, ...vec([[I32], [I32], [I32], [F32], [F32], [F32]]), 0];
  const monoType = [0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32], [F32], [F32], [F32], [F32]]), 0];
  const code = [gatherRows(), gatherPixels(), transposeBlocks(), tintPlane(), monoScan()].map((f) => [...uleb(f.length), ...f]);
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([rowsType, pixelsType, transposeType, tintType, monoType])),
    ...section(3, vec([[0], [1], [2], [3], [4]])),
    ...section(5, vec([[0x00, 1]])), // one memory, 1 page to start
    ...section(7, vec([[...name('rows'), 0x00, 0], [...name('pixels'), 0x00, 1], [...name('transpose'), 0x00, 2], [...name('tint'), 0x00, 3], [...name('mono'), 0x00, 4], [...name('mem'), 0x02, 0]])),
    ...section(10, vec(code)),
  ]);
}

// --- the instance ---------------------------------------------------------------------------------

interface Kernels {
  rows(inp: number, rowBytes: number, out: number, nOut: number, idx: number, wts: number, taps: number): void;
  pixels(inp: number, inRowBytes: number, rows: number, out: number, nOut: number, idx: number, wts: number, taps: number): void;
  transpose(src: number, srcRowBytes: number, rows: number, cols: number, dst: number, dstRowBytes: number): void;
  tint(plane: number, planeBytes: number, out: number, r: number, g: number, b: number): void;
  mono(src: number, srcRowBytes: number, rows: number, cols: number, alpha: number, stats: number, r: number, g: number, b: number, rel: number): void;
  mem: WebAssembly.Memory;
}

const compiled = compile<Kernels>(() => moduleBytes() as Uint8Array<ArrayBuffer>);

/** The compiled kernels, or null where WebAssembly SIMD is unavailable. Built once, on first use. */
function instance(): Kernels | null {
  return compiled()?.fn ?? null;
}

export function simdAvailable(): boolean {
  return instance() !== null;
}

/**
 * Scratch space in the module's memory for one call: a bump allocator over the memory, grown as
 * needed, reset per call. Calls are synchronous, so one module memory serves every render.
 */
export class Arena {
  private top = 0;
  constructor(private readonly k: Kernels) {}
  /** Byte offset of `bytes` (16-aligned) of scratch. */
  alloc(bytes: number): number {
    const at = this.top;
    this.top += (bytes + 15) & ~15;
    const need = this.top - this.k.mem.buffer.byteLength;
    if (need > 0) this.k.mem.grow(Math.ceil(need / 65536));
    return at;
  }
  f32(at: number, length: number): Float32Array {
    return new Float32Array(this.k.mem.buffer, at, length);
  }
  i32(at: number, length: number): Int32Array {
    return new Int32Array(this.k.mem.buffer, at, length);
  }
}

/** A tap table in the arena: `taps` entries per output, indices (i32) and weights (f32). */
export interface Taps {
  idx: number;
  wts: number;
  taps: number;
}

export function tapTable(a: Arena, outputs: number, taps: number, index: (o: number, t: number) => number, weight: (o: number, t: number) => number): Taps {
  const idx = a.alloc(outputs * taps * 4);
  const wts = a.alloc(outputs * taps * 4);
  const I = a.i32(idx, outputs * taps);
  const W = a.f32(wts, outputs * taps);
  for (let o = 0, q = 0; o < outputs; o++) {
    for (let t = 0; t < taps; t++, q++) {
      I[q] = index(o, t);
      W[q] = weight(o, t);
    }
  }
  return { idx, wts, taps };
}

/** The kernels and a fresh arena, or undefined without SIMD. */
export function simd(): { k: Kernels; arena: Arena } | undefined {
  const k = instance();
  return k ? { k, arena: new Arena(k) } : undefined;
}

/**
 * blurFast's stages 1-3 on RGBA with the SIMD kernels (see blurFastScalar in cpu.ts for what each
 * does): tent decimation by k (vertical, horizontal), the Gaussian on the block grid (rows,
 * columns; edge blocks repeat), the quadratic B-spline upsample (horizontal, vertical).
 * Returns the w x h RGBA result, or undefined without SIMD.
 */
export function blurStagesSimd(
  src: Float32Array,
  sw: number,
  sh: number,
  tx: TentPlan,
  ty: TentPlan,
  k: number,
  kd: Float64Array,
  sx: SplinePlan,
  sy: SplinePlan,
  w: number,
  h: number,
  out: Float32Array,
): boolean {
  const s = simd();
  if (!s) return false;
  const { k: K, arena: a } = s;
  const bw = tx.blocks;
  const bh = ty.blocks;
  const k2 = 2 * k;
  const rd = (kd.length - 1) >> 1;
  const clamp = (i: number, n: number) => (i < 0 ? 0 : i >= n ? n - 1 : i);
  // Tables first (they allocate), then the planes; views are made after the last allocation.
  const tv = tapTable(
    a,
    bh,
    k2,
    (b, t) => (t < ty.count[b]! ? ty.first[b]! + t : 0),
    (b, t) => (t < ty.count[b]! ? ty.weights[b * k2 + t]! : 0),
  );
  const th = tapTable(
    a,
    bw,
    k2,
    (b, t) => (t < tx.count[b]! ? (tx.first[b]! + t) * 16 : 0),
    (b, t) => (t < tx.count[b]! ? tx.weights[b * k2 + t]! : 0),
  );
  const gr = tapTable(
    a,
    bw,
    kd.length,
    (x, t) => clamp(x + t - rd, bw) * 16,
    (_, t) => kd[t]!,
  );
  const gc = tapTable(
    a,
    bh,
    kd.length,
    (y, t) => clamp(y + t - rd, bh),
    (_, t) => kd[t]!,
  );
  const uh = tapTable(
    a,
    w,
    3,
    (x, t) => clamp(sx.center[x]! - 1 + t, bw) * 16,
    (x, t) => sx.weights[x * 3 + t]!,
  );
  const uv = tapTable(
    a,
    h,
    3,
    (y, t) => clamp(sy.center[y]! - 1 + t, bh),
    (y, t) => sy.weights[y * 3 + t]!,
  );
  const pSrc = a.alloc(sw * sh * 16);
  const pV = a.alloc(bh * sw * 16);
  const pD = a.alloc(bh * bw * 16);
  const pR = a.alloc(bh * bw * 16);
  const pG = a.alloc(bh * bw * 16);
  const pH = a.alloc(bh * w * 16);
  const pOut = a.alloc(h * w * 16);
  a.f32(pSrc, sw * sh * 4).set(src.subarray(0, sw * sh * 4));
  K.rows(pSrc, sw * 16, pV, bh, tv.idx, tv.wts, tv.taps);
  K.pixels(pV, sw * 16, bh, pD, bw, th.idx, th.wts, th.taps);
  K.pixels(pD, bw * 16, bh, pR, bw, gr.idx, gr.wts, gr.taps);
  K.rows(pR, bw * 16, pG, bh, gc.idx, gc.wts, gc.taps);
  K.pixels(pG, bw * 16, bh, pH, w, uh.idx, uh.wts, uh.taps);
  K.rows(pH, w * 16, pOut, h, uv.idx, uv.wts, uv.taps);
  out.set(a.f32(pOut, w * h * 4));
  return true;
}

/**
 * blurFast's stages on one plane with the SIMD kernels: every stage is a `rows` gather (four
 * neighbouring columns a vector), the horizontal ones on the transposed plane (the `transpose`
 * kernel). Order: tent vertical, transpose, tent horizontal, grid rows, transpose, grid columns,
 * B-spline vertical, transpose, B-spline horizontal, transpose; the result is copied into `out` (w x h). The stages are linear and act on
 * one axis each, so this order gives the scalar path's values up to rounding (f32 accumulation).
 * Returns false without SIMD.
 */
export function blurPlaneSimd(
  src: Float32Array,
  sw: number,
  sh: number,
  tx: TentPlan,
  ty: TentPlan,
  k: number,
  kd: Float64Array,
  sx: SplinePlan,
  sy: SplinePlan,
  w: number,
  h: number,
  out: Float32Array,
): boolean {
  const s = simd();
  if (!s) return false;
  const { k: K, arena: a } = s;
  const bw = tx.blocks;
  const bh = ty.blocks;
  const k2 = 2 * k;
  const rd = (kd.length - 1) >> 1;
  const clamp = (i: number, n: number) => (i < 0 ? 0 : i >= n ? n - 1 : i);
  // Row strides in floats, whole vectors; the padding lanes carry garbage that no valid lane reads.
  const P = (n: number) => (n + 3) & ~3;
  const tv = tapTable(
    a,
    bh,
    k2,
    (b, t) => (t < ty.count[b]! ? ty.first[b]! + t : 0),
    (b, t) => (t < ty.count[b]! ? ty.weights[b * k2 + t]! : 0),
  );
  const th = tapTable(
    a,
    bw,
    k2,
    (b, t) => (t < tx.count[b]! ? tx.first[b]! + t : 0),
    (b, t) => (t < tx.count[b]! ? tx.weights[b * k2 + t]! : 0),
  );
  const gr = tapTable(
    a,
    bw,
    kd.length,
    (x, t) => clamp(x + t - rd, bw),
    (_, t) => kd[t]!,
  );
  const gc = tapTable(
    a,
    bh,
    kd.length,
    (y, t) => clamp(y + t - rd, bh),
    (_, t) => kd[t]!,
  );
  const uv = tapTable(
    a,
    h,
    3,
    (y, t) => clamp(sy.center[y]! - 1 + t, bh),
    (y, t) => sy.weights[y * 3 + t]!,
  );
  const uh = tapTable(
    a,
    w,
    3,
    (x, t) => clamp(sx.center[x]! - 1 + t, bw),
    (x, t) => sx.weights[x * 3 + t]!,
  );
  // Each plane gets rows and columns rounded up to 4: the transposes move whole 4 x 4 blocks.
  const [sws, bhs, bws, hs, ws] = [P(sw), P(bh), P(bw), P(h), P(w)];
  const pSrc = a.alloc(sh * sws * 4); // sh x sw
  const pV = a.alloc(bhs * sws * 4); // bh x sw: tent vertical
  const pVT = a.alloc(sws * bhs * 4); // sw x bh: transposed
  const pD = a.alloc(bws * bhs * 4); // bw x bh: tent horizontal
  const pR = a.alloc(bws * bhs * 4); // bw x bh: grid rows
  const pRT = a.alloc(bhs * bws * 4); // bh x bw: transposed
  const pG = a.alloc(bhs * bws * 4); // bh x bw: grid columns
  const pU = a.alloc(hs * bws * 4); // h x bw: B-spline vertical
  const pUT = a.alloc(bws * hs * 4); // bw x h: transposed
  const pO = a.alloc(ws * hs * 4); // w x h: B-spline horizontal
  const pT = a.alloc(hs * ws * 4); // h x w: transposed, the result
  if (sws === sw) a.f32(pSrc, sw * sh).set(src.subarray(0, sw * sh));
  else {
    const m = a.f32(pSrc, sh * sws);
    for (let y = 0; y < sh; y++) m.set(src.subarray(y * sw, y * sw + sw), y * sws);
  }
  K.rows(pSrc, sws * 4, pV, bh, tv.idx, tv.wts, tv.taps);
  K.transpose(pV, sws * 4, bh, sw, pVT, bhs * 4);
  K.rows(pVT, bhs * 4, pD, bw, th.idx, th.wts, th.taps);
  K.rows(pD, bhs * 4, pR, bw, gr.idx, gr.wts, gr.taps);
  K.transpose(pR, bhs * 4, bw, bh, pRT, bws * 4);
  K.rows(pRT, bws * 4, pG, bh, gc.idx, gc.wts, gc.taps);
  K.rows(pG, bws * 4, pU, h, uv.idx, uv.wts, uv.taps);
  K.transpose(pU, bws * 4, h, bw, pUT, hs * 4);
  K.rows(pUT, hs * 4, pO, w, uh.idx, uh.wts, uh.taps);
  K.transpose(pO, hs * 4, w, h, pT, ws * 4);
  const res = a.f32(pT, h * ws);
  if (ws === w) out.set(res.subarray(0, w * h));
  else for (let y = 0; y < h; y++) out.set(res.subarray(y * ws, y * ws + w), y * w);
  return true;
}

/**
 * out (RGBA, plane.length pixels) = (r A, g A, b A, A) for each A of the plane: a one-colour
 * blur's result. False without SIMD.
 */
export function tintSimd(plane: Float32Array, r: number, g: number, b: number, out: Float32Array): boolean {
  const s = simd();
  if (!s) return false;
  const { k: K, arena: a } = s;
  const n = plane.length;
  const nv = (n + 3) & ~3;
  const pIn = a.alloc(nv * 4);
  const pOut = a.alloc(nv * 16);
  a.f32(pIn, n).set(plane);
  K.tint(pIn, nv * 4, pOut, r, g, b);
  out.set(a.f32(pOut, n * 4));
  return true;
}

/**
 * monoPlane's test (cpu.ts) of the window x0..x1 - 1, y0..y1 - 1 of RGBA `data` (sw pixels a row)
 * against colour (r, g, b) with the SIMD kernel: the window's alpha into `alpha`, its minimum and
 * maximum into range, and whether every pixel is on colour; undefined without SIMD. In f32 (the
 * TypeScript test in f64): a pixel within ~1e-7 A of the tolerance may be judged either way.
 */
export function monoScanSimd(
  data: Float32Array,
  sw: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  r: number,
  g: number,
  b: number,
  rel: number,
  alpha: Float32Array,
  range: Float64Array,
): boolean | undefined {
  const s = simd();
  if (!s) return undefined;
  const { k: K, arena: a } = s;
  const rows = y1 - y0,
    cols = x1 - x0;
  const pIn = a.alloc(rows * sw * 16);
  const pA = a.alloc(rows * cols * 4);
  const pS = a.alloc(48);
  a.f32(pIn, rows * sw * 4).set(data.subarray(y0 * sw * 4, y1 * sw * 4));
  K.mono(pIn + x0 * 16, sw * 16, rows, cols, pA, pS, r, g, b, rel);
  const bad = a.i32(pS, 4);
  if (bad[0] !== 0 || bad[1] !== 0 || bad[2] !== 0 || bad[3] !== 0) return false;
  const stats = a.f32(pS, 12);
  range[0] = stats[4]!;
  range[1] = stats[8]!;
  alpha.set(a.f32(pA, rows * cols));
  return true;
}
