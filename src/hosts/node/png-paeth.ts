// Paeth rows of an RGB PNG unfiltered into RGBA8 words in WebAssembly (scalar i32, `select` for the
// predictor's choice: no branches on the data). Paeth is most rows of a typical DEM tile and the
// slowest filter in JavaScript; the other filters stay in png-decode.ts. The module comes from the
// project's small encoder (src/ops/edge-detect/wasm.ts); without WebAssembly the TypeScript row runs.
import { compile, I32, loopLt, moduleBytes, op, type WasmKernels } from '../../util/wasm.js';

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
