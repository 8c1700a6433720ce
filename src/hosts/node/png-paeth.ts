// Paeth rows of an RGB PNG unfiltered into RGBA8 words in WebAssembly (scalar i32, `select` for the
// predictor's choice: no branches on the data). Paeth is most rows of a typical DEM tile and the
// slowest filter in JavaScript; the other filters stay in png-decode.ts. The module comes from the
// project's small encoder (src/ops/edge-detect/wasm.ts); without WebAssembly the TypeScript row runs.
import { compile, I32, loopLt, moduleBytes, op, uleb, V128, type WasmKernels } from '../../util/wasm.js';

interface Exports {
  /** One RGB row at byte `s` (after its filter byte) into RGBA words at `o`; the row above at o - ostride. */
  paeth(s: number, o: number, width: number, ostride: number): void;
}

// biome-ignore format: one line per step of the instruction sequence
function paethFn(): number[] {
  const [S, O, W, OS] = [0, 1, 2, 3];
  const [X, R, G, B, CR, CG, CB, U, V, WW, UP, TMP, PA, PB, PC] = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18];
  const g = op.get;
  const i32load = (off: number) => [0x28, 2, off];
  const load8 = (off: number) => [0x2d, 0, off];
  const store32 = [0x36, 2, 0];
  const [and, or, xor, shl, shrS, shrU, leS] = [[0x71], [0x72], [0x73], [0x74], [0x75], [0x76], [0x4c]];
  const abs = (x: number[]) => [...x, ...op.tee(TMP), ...g(TMP), ...op.i32(31), ...shrS, ...xor, ...g(TMP), ...op.i32(31), ...shrS, ...op.sub];
  // Paeth's predictor of a (left), b (above), c (above-left): the nearest to a + b - c, ties to a, then b.
  const paeth = (a: number, b: number, c: number) => [
    ...abs([...g(b), ...g(c), ...op.sub]), ...op.set(PA),
    ...abs([...g(a), ...g(c), ...op.sub]), ...op.set(PB),
    ...abs([...g(a), ...g(b), ...op.add, ...g(c), ...op.sub, ...g(c), ...op.sub]), ...op.set(PC),
    ...g(a),
    ...g(b), ...g(c), ...g(PB), ...g(PC), ...leS, ...op.select,
    ...g(PA), ...g(PB), ...leS, ...g(PA), ...g(PC), ...leS, ...and,
    ...op.select,
  ];
  const channel = (x: number, up: number, c: number, off: number) => [
    ...g(S), ...load8(off), ...paeth(x, up, c), ...op.add, ...op.i32(255), ...and, ...op.set(x),
  ];
  const pixel = [
    ...g(O), ...g(OS), ...op.sub, ...i32load(0), ...op.set(UP),
    ...g(UP), ...op.i32(255), ...and, ...op.set(U),
    ...g(UP), ...op.i32(8), ...shrU, ...op.i32(255), ...and, ...op.set(V),
    ...g(UP), ...op.i32(16), ...shrU, ...op.i32(255), ...and, ...op.set(WW),
    ...channel(R, U, CR, 0), ...channel(G, V, CG, 1), ...channel(B, WW, CB, 2),
    ...g(O),
    ...g(R), ...g(G), ...op.i32(8), ...shl, ...or, ...g(B), ...op.i32(16), ...shl, ...or, ...op.i32(0xff000000 | 0), ...or,
    ...store32,
    ...g(U), ...op.set(CR), ...g(V), ...op.set(CG), ...g(WW), ...op.set(CB),
    ...g(S), ...op.i32(3), ...op.add, ...op.set(S),
    ...g(O), ...op.i32(4), ...op.add, ...op.set(O),
  ];
  return loopLt(X, op.i32(0), W, op.i32(1), pixel);
}

const kernels = compile<Exports>(() => moduleBytes([{ name: 'paeth', params: [I32, I32, I32, I32], locals: [[15, I32]], body: paethFn() }]));

/** The instance (its memory holds the rows while a tile decodes), or null without WebAssembly. */
export function paethKernels(): WasmKernels<Exports> | null {
  return kernels();
}

interface DemExports {
  /**
   * One RGB row at byte `s` (after its filter byte), filter `filter` (0-4), unfiltered against the
   * row above at `prev` into `cur` (8 bytes a pixel: R, G, B as 16-bit lanes and one spare lane)
   * and converted to metres at `out` (f32): (R * 65536 + G * 256 + B) * scale + offset, computed in
   * f64 and rounded once to f32, as the TypeScript loop of src/sources/dem.ts does.
   */
  demRow(s: number, prev: number, cur: number, out: number, width: number, filter: number, scale: number, offset: number): void;
}

const F64 = 0x7c;
const simd = (code: number, ...imm: number[]) => [0xfd, ...uleb(code), ...imm];
const v = {
  load32zero: simd(0x5c, 0, 0),
  load64zero: simd(0x5d, 0, 0),
  store64lane0: simd(0x5b, 0, 0, 0),
  extendLowU: simd(0x89), // i16x8.extend_low_i8x16_u
  abs: simd(0x80), // i16x8.abs
  add: simd(0x8e), // i16x8.add
  sub: simd(0x91), // i16x8.sub
  shrU: simd(0x8d), // i16x8.shr_u
  minU: simd(0x97), // i16x8.min_u
  eq: simd(0x2d), // i16x8.eq
  and: simd(0x4e),
  bitselect: simd(0x52),
  splat: simd(0x10), // i16x8.splat
  lane: (k: number) => simd(0x19, k), // i16x8.extract_lane_u
  zero: simd(0x0c, ...new Array(16).fill(0)),
  addBytes: simd(0x6e), // i8x16.add: the low byte of each 16-bit lane wraps, the high byte stays 0
  load: simd(0x00, 0, 0),
  store: simd(0x0b, 0, 0),
  shuffle: (lanes: number[]) => simd(0x0d, ...lanes),
  f64splat: simd(0x14),
  f64mul: simd(0xf2),
  f64add: simd(0xf0),
  convertLowU: simd(0xff), // f64x2.convert_low_i32x4_u
  demote: simd(0x5e), // f32x4.demote_f64x2_zero
};

// biome-ignore format: one line per step of the instruction sequence
function demRowFn(): number[] {
  const [S, PREV, CUR, OUT, W, F, SCALE, OFFSET] = [0, 1, 2, 3, 4, 5, 6, 7];
  const X = 8; // i32 locals from 8
  const [A, B, C, XV, PA, PB, PC, SM, M] = [9, 10, 11, 12, 13, 14, 15, 16, 17]; // v128 locals
  const g = op.get;
  // Predictors per filter type: none, sub (a), up (b), average, Paeth (ties to a, then b).
  const preds: number[][] = [
    [...v.zero],
    [...g(A)],
    [...g(B)],
    [...g(A), ...g(B), ...v.add, ...op.i32(1), ...v.shrU],
    [
      // pa = |b - c|, pb = |a - c|, pc = |(a - c) + (b - c)|: only a - c waits for the left pixel.
      ...g(B), ...g(C), ...v.sub, ...op.tee(M), ...v.abs, ...op.set(PA),
      ...g(A), ...g(C), ...v.sub, ...op.tee(SM), ...v.abs, ...op.set(PB),
      ...g(SM), ...g(M), ...v.add, ...v.abs, ...op.set(PC),
      ...g(PA), ...g(PB), ...v.minU, ...g(PC), ...v.minU, ...op.set(SM),
      ...g(A),
      ...g(B), ...g(C), ...g(PB), ...g(SM), ...v.eq, ...v.bitselect,
      ...g(PA), ...g(SM), ...v.eq,
      ...v.bitselect,
    ],
  ];
  const pixel = (pred: number[]) => [
    ...g(S), ...v.load32zero, ...v.extendLowU, ...op.set(XV),
    ...g(PREV), ...v.load64zero, ...op.set(B),
    ...g(XV), ...pred, ...v.addBytes, ...op.set(A),
    ...g(CUR), ...g(X), ...op.i32(3), 0x74, ...op.add, ...g(A), ...v.store64lane0,
    ...g(B), ...op.set(C),
    ...g(S), ...op.i32(3), ...op.add, ...op.set(S),
    ...g(PREV), ...op.i32(8), ...op.add, ...op.set(PREV),
  ];
  const body: number[] = [...v.zero, ...op.set(A), ...v.zero, ...op.set(C)];
  for (let f = 0; f < 5; f++) {
    body.push(...g(F), ...op.i32(f), 0x46, 0x04, 0x40, ...loopLt(X, op.i32(0), W, op.i32(1), pixel(preds[f]!)), ...op.end);
  }
  // Metres, four pixels a step: R << 16 | G << 8 | B as 32-bit lanes (bytes B, G, R and R's zero high
  // byte of each 8-byte pixel), then f64 scale and offset, rounded to f32. A row whose width is not a
  // multiple of 4 writes up to 3 values past its end (the next row's, written after; the memory has room).
  const gather = [0, 1, 2, 3].flatMap((k) => [8 * k + 4, 8 * k + 2, 8 * k, 8 * k + 1]);
  const metres = (lanes: number[]) => [...lanes, ...v.convertLowU, ...g(M), ...v.f64mul, ...g(SM), ...v.f64add, ...v.demote];
  body.push(
    ...g(SCALE), ...v.f64splat, ...op.set(M), ...g(OFFSET), ...v.f64splat, ...op.set(SM),
    ...loopLt(X, op.i32(0), W, op.i32(4), [
      ...g(CUR), ...g(X), ...op.i32(3), 0x74, ...op.add, ...op.tee(S), ...v.load,
      ...g(S), ...op.i32(16), ...op.add, ...v.load,
      ...v.shuffle(gather), ...op.set(XV),
      ...g(OUT), ...g(X), ...op.i32(2), 0x74, ...op.add,
      ...metres(g(XV)),
      ...metres([...g(XV), ...g(XV), ...v.shuffle([8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15])]),
      ...v.shuffle([0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23]),
      ...v.store,
    ]),
  );
  return body;
}

const demKernelsOnce = compile<DemExports>(() =>
  moduleBytes([
    {
      name: 'demRow',
      params: [I32, I32, I32, I32, I32, I32, F64, F64],
      locals: [
        [1, I32],
        [9, V128],
      ],
      body: demRowFn(),
    },
  ]),
);

/** The RGB-rows-to-metres kernel (WebAssembly SIMD), or null where it is unavailable. */
export function demKernels(): WasmKernels<DemExports> | null {
  return demKernelsOnce();
}
