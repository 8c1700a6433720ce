// A minimal WebAssembly encoder for the small SIMD kernels (blur, dilate / erode, edge-detect,
// hillshade, the Node host's PNG Paeth rows; no toolchain, no binary file), and the module
// instance with its scratch memory. Where WebAssembly SIMD is missing, `wasmKernels` gives null and the
// TypeScript kernels run.

export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

export function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

export const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
export const vec = (items: number[][]) => [...uleb(items.length), ...items.flat()];
export const name = (s: string) => [...uleb(s.length), ...[...s].map((c) => c.charCodeAt(0))];

export const I32 = 0x7f;
export const F32 = 0x7d;
export const V128 = 0x7b;
const simd = (code: number, ...imm: number[]) => [0xfd, ...uleb(code), ...imm];

/** Instructions (byte sequences). Loads and stores take a byte offset immediate. */
export const op = {
  get: (i: number) => [0x20, ...uleb(i)],
  set: (i: number) => [0x21, ...uleb(i)],
  tee: (i: number) => [0x22, ...uleb(i)],
  i32: (n: number) => [0x41, ...sleb(n)],
  f32: (v: number) => [0x43, ...new Uint8Array(Float32Array.of(v).buffer)],
  add: [0x6a],
  sub: [0x6b],
  mul: [0x6c],
  ltu: [0x49],
  eqz: [0x45],
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (l: number) => [0x0c, ...uleb(l)],
  brIf: (l: number) => [0x0d, ...uleb(l)],
  f32max: [0x97],
  select: [0x1b],
  f32load: (offset = 0) => [0x2a, 0, ...uleb(offset)], // f32.load, align 1
  load: (offset = 0) => simd(0x00, 0, ...uleb(offset)), // v128.load, align 1 (unaligned allowed)
  store: (offset = 0) => simd(0x0b, 0, ...uleb(offset)),
  splat: simd(0x13), // f32x4.splat
  lane: (k: number) => simd(0x1f, k), // f32x4.extract_lane
  replace: (k: number) => simd(0x20, k), // f32x4.replace_lane
  /** i8x16.shuffle of two vectors: the f32 lane k of the first in all four lanes. */
  broadcast: (k: number) => simd(0x0d, ...[0, 1, 2, 3].flatMap(() => [4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3])),
  and: simd(0x4e),
  eq: simd(0x41), // f32x4.eq
  fadd: simd(0xe4),
  fsub: simd(0xe5),
  fmul: simd(0xe6),
  fdiv: simd(0xe7),
  fsqrt: simd(0xe3),
  fneg: simd(0xe1),
  fpmin: simd(0xea), // b < a ? b : a
  fpmax: simd(0xeb), // a < b ? b : a
};

/** `for (i = from; i < limit; i += step) body`, with `i` and `limit` locals. */
// biome-ignore format: one line per step of the instruction sequence
export function loopLt(i: number, from: number[], limit: number, step: number[], body: number[]): number[] {
  return [
    ...from, ...op.set(i),
    ...op.block,
    ...op.get(i), ...op.get(limit), ...op.ltu, ...op.eqz, ...op.brIf(0),
    ...op.loop,
    ...body,
    ...op.get(i), ...step, ...op.add, ...op.tee(i), ...op.get(limit), ...op.ltu, ...op.brIf(0),
    ...op.end,
    ...op.end,
  ];
}

export interface WasmFunction {
  name: string;
  params: number[];
  /** Extra locals by type, in order: [count, type]. */
  locals: [number, number][];
  body: number[];
}

/** A module of functions (no results) over one exported memory `mem`. */
export function moduleBytes(fns: WasmFunction[]): Uint8Array<ArrayBuffer> {
  const types = fns.map((f) => [0x60, ...vec(f.params.map((t) => [t])), 0]);
  const code = fns.map((f) => {
    const b = [...vec(f.locals.map(([n, t]) => [...uleb(n), t])), ...f.body, ...op.end];
    return [...uleb(b.length), ...b];
  });
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec(types)),
    ...section(3, vec(fns.map((_, i) => [i]))),
    ...section(5, vec([[0x00, 1]])), // one memory, 1 page to start
    ...section(7, vec([...fns.map((f, i) => [...name(f.name), 0x00, i]), [...name('mem'), 0x02, 0]])),
    ...section(10, vec(code)),
  ]);
}

/** An instance: its exports and a scratch allocator over its memory (reset per call). */
export class WasmKernels<T> {
  readonly fn: T;
  private readonly mem: WebAssembly.Memory;
  constructor(bytes: Uint8Array<ArrayBuffer>) {
    const exp = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports as Record<string, unknown>;
    this.fn = exp as T;
    this.mem = exp.mem as WebAssembly.Memory;
  }
  /** Make the memory at least `bytes` long; views taken before a grow are stale. */
  reserve(bytes: number): void {
    const need = bytes - this.mem.buffer.byteLength;
    if (need > 0) this.mem.grow(Math.ceil(need / 65536));
  }
  f32(at: number, length: number): Float32Array {
    return new Float32Array(this.mem.buffer, at, length);
  }
  u8(at: number, length: number): Uint8Array {
    return new Uint8Array(this.mem.buffer, at, length);
  }
  u32(at: number, length: number): Uint32Array {
    return new Uint32Array(this.mem.buffer, at, length);
  }
}

/** Compile once; null where WebAssembly (with SIMD) is unavailable or refuses the module. */
export function compile<T>(build: () => Uint8Array<ArrayBuffer>): () => WasmKernels<T> | null {
  let k: WasmKernels<T> | null | undefined;
  return () => {
    if (k !== undefined) return k;
    k = null;
    try {
      if (typeof WebAssembly === 'undefined') return null;
      const bytes = build();
      if (!WebAssembly.validate(bytes)) return null;
      k = new WasmKernels<T>(bytes);
    } catch {
      k = null;
    }
    return k;
  };
}
