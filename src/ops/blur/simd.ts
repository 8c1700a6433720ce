// WebAssembly SIMD for blur's fast path on RGBA (one f32x4 per pixel) and on one plane (four columns
// a vector, horizontal stages on the transposed plane): the same stages and the same tap plans as
// blurFast with useSimd false (cpu.ts), each stage a weighted gather of whole rows or of pixels
// (the kernels are blur.wat); the exact kernel's passes with every tap inside the source slide one
// weight table along the rows or columns (convX, convY: the tables' bits, a third of the loads).
// Where WebAssembly SIMD is missing, `simdAvailable()` is false and the scalar path
// runs. Accumulates in f32 (the scalar path in f64): the two differ by ~1e-6, far below 1/255.

import { arenaAlloc, arenaFree, arenaMemory, inArena } from '../../util/wasm-arena.js';
import { type WasmKernels, wasmKernels } from '../../util/wasm-kernels.js';
import { nativeKernels } from '../../util/native-kernels.js';
import type { SplinePlan, TentPlan } from './plan.js';

interface Kernels {
  rows(inp: number, rowBytes: number, out: number, nOut: number, idx: number, wts: number, taps: number): void;
  pixels(inp: number, inRowBytes: number, rows: number, out: number, nOut: number, idx: number, wts: number, taps: number): void;
  convY(inp: number, rowBytes: number, out: number, outRowBytes: number, lenBytes: number, nOut: number, wts: number, taps: number): void;
  convX(inp: number, inRowBytes: number, rows: number, out: number, outRowBytes: number, nOut: number, wts: number, taps: number): void;
  transpose(src: number, srcRowBytes: number, rows: number, cols: number, dst: number, dstRowBytes: number): void;
  tint(plane: number, planeBytes: number, out: number, r: number, g: number, b: number): void;
  mono(src: number, srcRowBytes: number, rows: number, cols: number, alpha: number, stats: number, r: number, g: number, b: number, rel: number): void;
}

const compiled = wasmKernels<Kernels>('blur');

export function simdAvailable(): boolean {
  return compiled() !== null;
}

/** Thrown by an arena scratch that finds no free block for an allocation: the call runs on the scratch memory instead. */
const NO_ROOM = new Error('no room in the canvas arena');

/**
 * The memory of one call: either the module's scratch memory (a bump allocator over it, grown as
 * needed, reset per call; calls are synchronous, so one memory serves every render), where every
 * canvas is copied in and out, or the canvas arena (src/util/wasm-arena.ts), where canvases that
 * lie there are read and written in place and the tables and intermediate planes are arena blocks,
 * given back when the call ends. The same kernels run on either, so the same bits.
 */
export class Arena {
  /** The kernels on this memory. */
  readonly fn: Kernels;
  private top = 0;
  private readonly blocks: Float32Array[] = [];
  constructor(
    private readonly k: WasmKernels<Kernels>,
    private readonly arena: boolean,
  ) {
    const fn = arena ? k.onArena()! : k.fn;
    // A host's native convolutions (the Node host's AVX-512 addon: sixteen floats a step, the same
    // f32 sums) on this memory's bytes, the rest of the kernels as they are.
    const native = nativeKernels();
    const { convY, convX } = native ?? {};
    this.fn =
      convY && convX
        ? {
            ...fn,
            convY: (...a) => convY(this.bytes(), ...a, 0),
            convX: (...a) => convX(this.bytes(), ...a, 0),
          }
        : fn;
  }
  /** This memory's bytes (a view made per call: the scratch memory may have grown). */
  private bytes(): Uint8Array {
    return new Uint8Array(this.buffer());
  }
  /** Byte offset of `bytes` (16-aligned; arena blocks are 64-aligned) of scratch. */
  alloc(bytes: number): number {
    if (this.arena) {
      const b = arenaAlloc(Math.max(4, (bytes + 3) >> 2), false);
      if (!b) throw NO_ROOM;
      this.blocks.push(b);
      return b.byteOffset;
    }
    const at = this.top;
    this.top += (bytes + 15) & ~15;
    this.k.reserve(this.top);
    return at;
  }
  private buffer(): ArrayBuffer {
    return this.arena ? (arenaMemory()!.buffer as ArrayBuffer) : (this.k.f32(0, 0).buffer as ArrayBuffer);
  }
  f32(at: number, length: number): Float32Array {
    return new Float32Array(this.buffer(), at, length);
  }
  i32(at: number, length: number): Int32Array {
    return new Int32Array(this.buffer(), at, length);
  }
  u8(at: number, length: number): Uint8Array {
    return new Uint8Array(this.buffer(), at, length);
  }
  /** Byte offset of float `from` of `buf` where this memory holds `buf` (an arena canvas, on the arena), else -1. */
  at(buf: Float32Array, from = 0): number {
    return this.arena && inArena(buf) ? buf.byteOffset + from * 4 : -1;
  }
  /** Byte offset of floats [from, from + length) of `buf`: where they lie, or a copy in scratch. */
  input(buf: Float32Array, from: number, length: number): number {
    const p = this.at(buf, from);
    if (p >= 0) return p;
    const q = this.alloc(length * 4);
    this.f32(q, length).set(buf.subarray(from, from + length));
    return q;
  }
  /** Byte offset the kernels write `length` floats of `out` at: `out` itself, or scratch that `flush` copies out. */
  output(out: Float32Array, length: number): number {
    const p = this.at(out);
    return p >= 0 ? p : this.alloc(length * 4);
  }
  /** Copies `length` floats at `at` into `out` unless `at` is `out` itself. */
  flush(out: Float32Array, at: number, length: number): void {
    if (at !== this.at(out)) out.set(this.f32(at, length));
  }
  /**
   * Byte offset of rows y0 .. y0 + rows - 1 of the plane `buf` (sw floats a row) as rows of
   * `stride` floats (the kernels' whole vectors): where they lie when stride is sw, else a copy.
   */
  inputRows(buf: Float32Array, sw: number, y0: number, rows: number, stride: number): number {
    if (stride === sw) return this.input(buf, y0 * sw, rows * sw);
    const q = this.alloc(rows * stride * 4);
    const m = this.f32(q, rows * stride);
    for (let y = 0; y < rows; y++) m.set(buf.subarray((y0 + y) * sw, (y0 + y) * sw + sw), y * stride);
    return q;
  }
  /**
   * Byte offset the kernels write the w x h plane `out` at as `rows` rows of `stride` floats (both
   * rounded up to whole vectors): `out` itself where that is its layout, else scratch.
   */
  outputRows(out: Float32Array, w: number, h: number, stride: number, rows: number): number {
    const p = stride === w && rows === h ? this.at(out) : -1;
    return p >= 0 ? p : this.alloc(rows * stride * 4);
  }
  /** Copies the w x h plane written at `at` (rows of `stride` floats) into `out` unless `at` is `out` itself. */
  flushRows(out: Float32Array, at: number, w: number, h: number, stride: number): void {
    if (at === this.at(out)) return;
    const res = this.f32(at, h * stride);
    if (stride === w) out.set(res.subarray(0, w * h));
    else for (let y = 0; y < h; y++) out.set(res.subarray(y * stride, y * stride + w), y * w);
  }
  /** Gives the arena blocks back. */
  done(): void {
    for (const b of this.blocks) arenaFree(b);
    this.blocks.length = 0;
  }
}

/** Memory tap tables are laid out in: a call's (Arena) or JavaScript's (HostTables, the tables kept between calls). */
interface Space {
  alloc(bytes: number): number;
  f32(at: number, length: number): Float32Array;
  i32(at: number, length: number): Int32Array;
}

/** Tap tables laid out in JavaScript memory, kept between calls and copied into a call's memory in one piece. */
class HostTables implements Space {
  private buf = new ArrayBuffer(1 << 14);
  private top = 0;
  alloc(bytes: number): number {
    const at = this.top;
    this.top += (bytes + 15) & ~15;
    if (this.top > this.buf.byteLength) {
      const grown = new ArrayBuffer(Math.max(this.top, 2 * this.buf.byteLength));
      new Uint8Array(grown).set(new Uint8Array(this.buf));
      this.buf = grown;
    }
    return at;
  }
  f32(at: number, length: number): Float32Array {
    return new Float32Array(this.buf, at, length);
  }
  i32(at: number, length: number): Int32Array {
    return new Int32Array(this.buf, at, length);
  }
  bytes(): Uint8Array {
    return new Uint8Array(this.buf, 0, this.top).slice();
  }
}

/** Tables built once: their bytes and where each lies in them. */
interface KeptTables {
  bytes: Uint8Array;
  taps: Taps[];
}

/** The tables in the call's memory `a`, one copy: their offsets there. */
function placeTables(a: Arena, t: KeptTables): Taps[] {
  const base = a.alloc(t.bytes.length);
  a.u8(base, t.bytes.length).set(t.bytes);
  return t.taps.map((x) => ({ idx: x.idx + base, wts: x.wts + base, taps: x.taps }));
}

/** A tap table in the arena: `taps` entries per output, indices (i32) and weights (f32). */
export interface Taps {
  idx: number;
  wts: number;
  taps: number;
}

/**
 * A tap table of `outputs` x `taps`: entry (o, t) reads index(o, t) with the weight
 * weights[at(o, t)], or 0 where `at` gives -1. Both callbacks give integers: a callback returning
 * a double from a call V8 does not inline boxes it (a HeapNumber an entry, ~70 KiB of garbage a
 * world tile's shadow blur), an integer does not.
 */
export function tapTable(
  a: Space,
  outputs: number,
  taps: number,
  index: (o: number, t: number) => number,
  weights: ArrayLike<number>,
  at: (o: number, t: number) => number,
): Taps {
  const idx = a.alloc(outputs * taps * 4);
  const wts = a.alloc(outputs * taps * 4);
  const I = a.i32(idx, outputs * taps);
  const W = a.f32(wts, outputs * taps);
  for (let o = 0, q = 0; o < outputs; o++) {
    for (let t = 0; t < taps; t++, q++) {
      I[q] = index(o, t);
      const j = at(o, t);
      W[q] = j < 0 ? 0 : weights[j]!;
    }
  }
  return { idx, wts, taps };
}

/**
 * A kernel's weights for convX / convY: one f32x4 a tap, the f32 weight (as tapTable stores it) in
 * every lane. Returns its byte offset in the arena.
 */
export function splatWeights(a: Arena, kernel: Float64Array): number {
  const at = a.alloc(kernel.length * 16);
  const W = a.f32(at, kernel.length * 4);
  for (let t = 0; t < kernel.length; t++) W.fill(kernel[t]!, t * 4, t * 4 + 4);
  return at;
}

/**
 * The largest canvas (source pixels) the kernels take: the arena holds several canvas-sized planes
 * in the module's memory, which never shrinks (~7 x 16 bytes a pixel: ~1.8 GB after a 4096 x 4096
 * blur, kept for the process's life). A larger one runs the TypeScript stages (the f64 reference
 * the kernels are tested against, within ~1e-6 of them).
 */
export const BLUR_SIMD_MAX_PIXELS = 1 << 21;

/**
 * Runs `body` for a job over `pixels` source pixels: on the canvas arena where every canvas of
 * `canvases` lies there (in place), else, or where the arena has no room for the job's tables and
 * planes, on the module's scratch memory (copies). False without SIMD or past BLUR_SIMD_MAX_PIXELS
 * (the TypeScript stages run). The same kernels either way: the same bits.
 */
function simd(pixels: number, canvases: Float32Array[], body: (a: Arena) => void): boolean {
  if (pixels > BLUR_SIMD_MAX_PIXELS) return false;
  const k = compiled();
  if (!k) return false;
  if (canvases.every(inArena) && k.onArena()) {
    const a = new Arena(k, true);
    try {
      body(a);
      return true;
    } catch (e) {
      if (e !== NO_ROOM) throw e;
    } finally {
      a.done();
    }
  }
  body(new Arena(k, false));
  return true;
}

/** Bytes the module's scratch memory holds now (tests: it stays bounded). */
export const blurMemoryBytes = (): number => compiled()?.bytes ?? 0;

/** Tables kept per plan set (the plans of blurFast's cache, src/ops/blur/cpu.ts), RGBA and one plane. */
const rgbaKept = new WeakMap<SplinePlan, KeptTables>();
const planeKept = new WeakMap<SplinePlan, KeptTables>();

/**
 * The six tap tables of blurFast's stages for these plans (tent vertical and horizontal, grid
 * rows and columns, B-spline horizontal and vertical, in that order), built once per plan set:
 * `unit` 16 gives the horizontal ones' indices as RGBA pixel byte offsets (`pixels` gathers), 1 as
 * rows of the transposed plane (`rows` gathers). The plans' objects are their key: blurFast keeps
 * one set per canvas and sigma, so a tile after the first copies its tables in one piece.
 */
function keptTables(
  kept: WeakMap<SplinePlan, KeptTables>,
  tx: TentPlan,
  ty: TentPlan,
  k: number,
  kd: Float64Array,
  sx: SplinePlan,
  sy: SplinePlan,
  w: number,
  h: number,
  unit: number,
): KeptTables {
  const known = kept.get(sx);
  if (known && known.taps.length === 6) return known;
  const t = new HostTables();
  const bw = tx.blocks;
  const bh = ty.blocks;
  const k2 = 2 * k;
  const rd = (kd.length - 1) >> 1;
  const clamp = (i: number, n: number) => (i < 0 ? 0 : i >= n ? n - 1 : i);
  const tv = tapTable(
    t,
    bh,
    k2,
    (b, i) => (i < ty.count[b]! ? ty.first[b]! + i : 0),
    ty.weights,
    (b, i) => (i < ty.count[b]! ? b * k2 + i : -1),
  );
  const th = tapTable(
    t,
    bw,
    k2,
    (b, i) => (i < tx.count[b]! ? (tx.first[b]! + i) * unit : 0),
    tx.weights,
    (b, i) => (i < tx.count[b]! ? b * k2 + i : -1),
  );
  const gr = tapTable(
    t,
    bw,
    kd.length,
    (x, i) => clamp(x + i - rd, bw) * unit,
    kd,
    (_, i) => i,
  );
  const gc = tapTable(
    t,
    bh,
    kd.length,
    (y, i) => clamp(y + i - rd, bh),
    kd,
    (_, i) => i,
  );
  const uh = tapTable(
    t,
    w,
    3,
    (x, i) => clamp(sx.center[x]! - 1 + i, bw) * unit,
    sx.weights,
    (x, i) => x * 3 + i,
  );
  const uv = tapTable(
    t,
    h,
    3,
    (y, i) => clamp(sy.center[y]! - 1 + i, bh),
    sy.weights,
    (y, i) => y * 3 + i,
  );
  const built = { bytes: t.bytes(), taps: [tv, th, gr, gc, uh, uv] };
  kept.set(sx, built);
  return built;
}

/**
 * blurFast's stages 1-3 on RGBA with the SIMD kernels (see blurFast with useSimd false in cpu.ts
 * for what each does): tent decimation by k (vertical, horizontal), the Gaussian on the block grid (rows,
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
  return simd(sw * sh, [src, out], (a) => stagesRgba(a, src, sw, sh, tx, ty, k, kd, sx, sy, w, h, out));
}

function stagesRgba(
  a: Arena,
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
): void {
  const K = a.fn;
  const bw = tx.blocks;
  const bh = ty.blocks;
  // Tables and planes first (they allocate), then the kernels; views are made after the last allocation.
  const [tv, th, gr, gc, uh, uv] = placeTables(a, keptTables(rgbaKept, tx, ty, k, kd, sx, sy, w, h, 16)) as [Taps, Taps, Taps, Taps, Taps, Taps];
  const pSrc = a.input(src, 0, sw * sh * 4);
  const pV = a.alloc(bh * sw * 16);
  const pD = a.alloc(bh * bw * 16);
  const pR = a.alloc(bh * bw * 16);
  const pG = a.alloc(bh * bw * 16);
  const pH = a.alloc(bh * w * 16);
  const pOut = a.output(out, h * w * 4);
  K.rows(pSrc, sw * 16, pV, bh, tv.idx, tv.wts, tv.taps);
  K.pixels(pV, sw * 16, bh, pD, bw, th.idx, th.wts, th.taps);
  K.pixels(pD, bw * 16, bh, pR, bw, gr.idx, gr.wts, gr.taps);
  K.rows(pR, bw * 16, pG, bh, gc.idx, gc.wts, gc.taps);
  K.pixels(pG, bw * 16, bh, pH, w, uh.idx, uh.wts, uh.taps);
  K.rows(pH, w * 16, pOut, h, uv.idx, uv.wts, uv.taps);
  a.flush(out, pOut, w * h * 4);
}

/**
 * blurExact (cpu.ts) on RGBA with the SIMD kernels: the truncated Gaussian `kernel` along rows
 * (`pixels` gathers), then along columns (`rows` gathers), over the rows the column pass reads;
 * taps outside the source weigh 0, as the reference reads 0 there. The w x h window at (ox, oy) of
 * the sw x sh source goes to `out`. f32 weights and sums (the reference: f64), so within ~1e-6 of
 * blurExact. `conv: false`: the tap tables even where every tap is inside (tests: convX / convY
 * give their bits). Returns false without SIMD.
 */
export function blurExactSimd(
  src: Float32Array,
  sw: number,
  sh: number,
  ox: number,
  oy: number,
  w: number,
  h: number,
  kernel: Float64Array,
  out: Float32Array,
  conv = true,
): boolean {
  const r = (kernel.length - 1) >> 1;
  const y0 = Math.max(0, oy - r);
  const y1 = Math.min(sh, oy + h + r);
  const rows = y1 - y0;
  if (rows <= 0) return false;
  return simd(sw * sh, [src, out], (a) => {
    const K = a.fn;
    // Every tap inside the source along an axis (the op's pad is at least r): that pass is a sliding
    // convolution with one weight table (convX / convY), else the tap tables weigh the outside 0.
    const insideX = conv && ox - r >= 0 && ox + w + r <= sw;
    const insideY = conv && oy - r >= 0 && oy + h + r <= sh;
    const W = insideX || insideY ? splatWeights(a, kernel) : 0;
    const th = insideX ? undefined : edgeTaps(a, w, kernel, ox, sw, 16);
    const tv = insideY ? undefined : edgeTaps(a, h, kernel, oy - y0, rows, 1);
    // The intermediate's row stride: padded by 64 bytes for convY (see padStride), else w pixels.
    const tS = th || tv ? w * 16 : padStride(w * 16);
    const pSrc = a.input(src, y0 * sw * 4, rows * sw * 4);
    const pT = a.alloc(rows * tS);
    const pOut = a.output(out, h * w * 4);
    if (th) K.pixels(pSrc, sw * 16, rows, pT, w, th.idx, th.wts, th.taps);
    else K.convX(pSrc + (ox - r) * 16, sw * 16, rows, pT, tS, w, W, kernel.length);
    if (tv) K.rows(pT, w * 16, pOut, h, tv.idx, tv.wts, tv.taps);
    else K.convY(pT, tS, pOut, w * 16, w * 16, h, W, kernel.length);
    a.flush(out, pOut, w * h * 4);
  });
}

/**
 * A row stride for convY's input: `bytes` plus 64 where it is a multiple of 1024, so the rows a
 * column reads do not share a few L1 sets (4096-byte strides put them all in one: 2-3x slower).
 */
function padStride(bytes: number): number {
  return bytes % 1024 === 0 ? bytes + 64 : bytes;
}

/**
 * The tap table of one exact-Gaussian pass: output o (of n) reads input c = o0 + o + t - r (of
 * len), times `unit` (bytes a pixel for `pixels`, 1 for `rows`); a tap outside [0, len) reads
 * index 0 with weight 0, as the reference reads 0 there.
 */
function edgeTaps(a: Arena, n: number, kernel: Float64Array, o0: number, len: number, unit: number): Taps {
  const r = (kernel.length - 1) >> 1;
  const inside = (o: number, t: number) => {
    const c = o0 + o + t - r;
    return c >= 0 && c < len;
  };
  return tapTable(
    a,
    n,
    kernel.length,
    (o, t) => (inside(o, t) ? (o0 + o + t - r) * unit : 0),
    kernel,
    (o, t) => (inside(o, t) ? t : -1),
  );
}

// The one-plane twin of blurExactSimd on purpose: a hot path whose per-channel loop would cost the
// single-colour blur a fourfold stride; the two differ only in the channel count they pass.
/**
 * blurExact on one plane with the SIMD kernels (four neighbouring columns a vector): the Gaussian
 * along columns (`rows` gathers over the rows it reads), a transpose, the Gaussian along rows (as
 * `rows` gathers of the transposed plane), a transpose back. Taps outside the source weigh 0. The
 * passes are linear and act on one axis each, so the order changes only rounding: within ~1e-6 of
 * blurExact (f32 weights and sums). `conv` as in blurExactSimd. Returns false without SIMD.
 */
export function blurExactPlaneSimd(
  src: Float32Array,
  sw: number,
  sh: number,
  ox: number,
  oy: number,
  w: number,
  h: number,
  kernel: Float64Array,
  out: Float32Array,
  conv = true,
): boolean {
  const r = (kernel.length - 1) >> 1;
  const y0 = Math.max(0, oy - r);
  const y1 = Math.min(sh, oy + h + r);
  const rows = y1 - y0;
  if (rows <= 0) return false;
  return simd(sw * sh, [src, out], (a) => {
    const K = a.fn;
    const P = (n: number) => (n + 3) & ~3;
    // Every tap inside the source along an axis: that pass is convY with one weight table (as in blurExactSimd).
    const insideX = conv && ox - r >= 0 && ox + w + r <= sw;
    const insideY = conv && oy - r >= 0 && oy + h + r <= sh;
    const W = insideX || insideY ? splatWeights(a, kernel) : 0;
    const tv = insideY ? undefined : edgeTaps(a, h, kernel, oy - y0, rows, 1);
    const th = insideX ? undefined : edgeTaps(a, w, kernel, ox, sw, 1);
    const [sws, hs, ws] = [P(sw), P(h), P(w)];
    const vtB = th ? hs * 4 : padStride(hs * 4); // pVT's row stride in bytes: padded for convY
    const pSrc = a.inputRows(src, sw, y0, rows, sws); // rows x sw
    const pV = a.alloc(hs * sws * 4); // h x sw: the column pass
    const pVT = a.alloc(sws * vtB); // sw x h: transposed
    const pO = a.alloc(ws * hs * 4); // w x h: the row pass
    const pT = a.outputRows(out, w, h, ws, hs); // h x w: transposed, the result
    if (tv) K.rows(pSrc, sws * 4, pV, h, tv.idx, tv.wts, tv.taps);
    else K.convY(pSrc, sws * 4, pV, sws * 4, sws * 4, h, W, kernel.length);
    K.transpose(pV, sws * 4, h, sw, pVT, vtB);
    if (th) K.rows(pVT, hs * 4, pO, w, th.idx, th.wts, th.taps);
    else K.convY(pVT + (ox - r) * vtB, vtB, pO, hs * 4, hs * 4, w, W, kernel.length);
    K.transpose(pO, hs * 4, w, h, pT, ws * 4);
    a.flushRows(out, pT, w, h, ws);
  });
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
  return simd(sw * sh, [src, out], (a) => stagesPlane(a, src, sw, sh, tx, ty, k, kd, sx, sy, w, h, out));
}

function stagesPlane(
  a: Arena,
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
): void {
  const K = a.fn;
  const bw = tx.blocks;
  const bh = ty.blocks;
  // Row strides in floats, whole vectors; the padding lanes carry garbage that no valid lane reads.
  const P = (n: number) => (n + 3) & ~3;
  const [tv, th, gr, gc, uh, uv] = placeTables(a, keptTables(planeKept, tx, ty, k, kd, sx, sy, w, h, 1)) as [Taps, Taps, Taps, Taps, Taps, Taps];
  // Each plane gets rows and columns rounded up to 4: the transposes move whole 4 x 4 blocks.
  const [sws, bhs, bws, hs, ws] = [P(sw), P(bh), P(bw), P(h), P(w)];
  const pSrc = a.inputRows(src, sw, 0, sh, sws); // sh x sw
  const pV = a.alloc(bhs * sws * 4); // bh x sw: tent vertical
  const pVT = a.alloc(sws * bhs * 4); // sw x bh: transposed
  const pD = a.alloc(bws * bhs * 4); // bw x bh: tent horizontal
  const pR = a.alloc(bws * bhs * 4); // bw x bh: grid rows
  const pRT = a.alloc(bhs * bws * 4); // bh x bw: transposed
  const pG = a.alloc(bhs * bws * 4); // bh x bw: grid columns
  const pU = a.alloc(hs * bws * 4); // h x bw: B-spline vertical
  const pUT = a.alloc(bws * hs * 4); // bw x h: transposed
  const pO = a.alloc(ws * hs * 4); // w x h: B-spline horizontal
  const pT = a.outputRows(out, w, h, ws, hs); // h x w: transposed, the result
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
  a.flushRows(out, pT, w, h, ws);
}

/**
 * out (RGBA, plane.length pixels) = (r A, g A, b A, A) for each A of the plane: a one-colour
 * blur's result. False without SIMD.
 */
export function tintSimd(plane: Float32Array, r: number, g: number, b: number, out: Float32Array): boolean {
  const n = plane.length;
  const nv = (n + 3) & ~3;
  return simd(n, [plane, out], (a) => {
    // The kernel reads and writes whole vectors: in place where those end where the canvases do.
    const pIn = nv === n ? a.input(plane, 0, n) : a.inputRows(plane, n, 0, 1, nv);
    const pOut = a.outputRows(out, n * 4, 1, nv * 4, 1);
    a.fn.tint(pIn, nv * 4, pOut, r, g, b);
    a.flush(out, pOut, n * 4);
  });
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
  const rows = y1 - y0,
    cols = x1 - x0;
  let mono = false;
  const ran = simd(data.length >> 2, [data, alpha], (a) => {
    const pIn = a.input(data, y0 * sw * 4, rows * sw * 4);
    const pA = a.output(alpha, rows * cols);
    const pS = a.alloc(48);
    a.fn.mono(pIn + x0 * 16, sw * 16, rows, cols, pA, pS, r, g, b, rel);
    const bad = a.i32(pS, 4);
    if (bad[0] !== 0 || bad[1] !== 0 || bad[2] !== 0 || bad[3] !== 0) return;
    const stats = a.f32(pS, 12);
    range[0] = stats[4]!;
    range[1] = stats[8]!;
    a.flush(alpha, pA, rows * cols);
    mono = true;
  });
  return ran ? mono : undefined;
}
