// WebAssembly SIMD for dilate / erode: the same max (min) over the (2r+1)^2 square as the vHGW
// reference (morphScalar in morph.ts), computed with van Herk's doubling on 16-byte lanes (one
// f32x4 per RGBA pixel, four samples of a one-channel plane). A window of L = 2r + 1 samples is
// M_L[x] = op(M_K[x], M_K[x + L - K]) with K the largest power of two <= L and
// M_2k[x] = op(M_k[x], M_k[x + k]): log2(L) + 1 two-operand steps per axis (3 for r = 3).
// Rows: each source row is copied into the module's memory and reduced in place. Columns: the
// row results go into small rings (one per doubling level), so every step streams two rows that are
// still in cache into a third, and each output row is final as soon as its last source row is in.
// The op is f32x4.pmax / pmin (a < b ? b : a), the reference's comparison, so results equal the
// reference's bit for bit (NaN and signed zeros aside: which of two equal-comparing values wins
// depends on the order of evaluation, which differs; rasters hold neither). The module is assembled here from its few instructions (no toolchain, no binary
// file); where WebAssembly SIMD is missing, `morphSimd` returns undefined and the scalar path runs.

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
const vec = (items: number[][]) => [...uleb(items.length), ...items.flat()];
const name = (s: string) => [...uleb(s.length), ...[...s].map((c) => c.charCodeAt(0))];

const I32 = 0x7f;
const get = (i: number) => [0x20, ...uleb(i)];
const set = (i: number) => [0x21, ...uleb(i)];
const tee = (i: number) => [0x22, ...uleb(i)];
const ADD = 0x6a;
const LTU = 0x49;
const v128load = (offset: number) => [0xfd, 0x00, 4, ...uleb(offset)];
const v128store = (offset: number) => [0xfd, 0x0b, 4, ...uleb(offset)];
const PMIN = [0xfd, ...uleb(0xea)];
const PMAX = [0xfd, ...uleb(0xeb)];

/**
 * pair(dst, a, b, n): for i in 0, 32, .. < n (bytes, a multiple of 32, > 0):
 * dst[i .. i + 32] = op(a[i ..], b[i ..]) lane by lane, op(p, q) = q > p ? q : p for max
 * (f32x4.pmax(p, q)), q < p ? q : p for min. Two vectors an iteration. dst may be a (in place)
 * as long as b >= a: every vector is read before the store that could overwrite it.
 */
/**
 * pair(dst, a, b, n): for i in 0, 32, .. < n (bytes, > 0; whole pairs of vectors):
 * dst[i ..] = op(a[i ..], b[i ..]) lane by lane, with op(p, q) = f32x4.pmax(p, q) = p < q ? q : p
 * (pmin: q < p ? q : p). In place (dst = a, b > a) is safe: each vector is read before it is stored
 * and no later read goes below what has been stored.
 */
// biome-ignore format: one line per step of the instruction sequence
function pair(opcode: number[]): number[] {
  const [DST, A, B, N, I] = [0, 1, 2, 3, 4];
  const step = (off: number) => [
    ...get(DST), ...get(I), ADD,
    ...get(A), ...get(I), ADD, ...v128load(off),
    ...get(B), ...get(I), ADD, ...v128load(off),
    ...opcode,
    ...v128store(off),
  ];
  return [
    ...vec([[1, I32]]),
    0x41, 0, ...set(I),
    0x03, 0x40, // loop
    ...step(0),
    ...step(16),
    ...get(I), 0x41, 32, ADD, ...tee(I), ...get(N), LTU, 0x0d, 0, // br_if 0
    0x0b, // end loop
    0x0b, // end function
  ];
}

// biome-ignore format: one line per step of the instruction sequence
function moduleBytes(): Uint8Array<ArrayBuffer> {
  const pairType = [0x60, ...vec(new Array(4).fill([I32])), 0];
  const code = [pair(PMAX), pair(PMIN)].map((f) => [...uleb(f.length), ...f]);
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([pairType])),
    ...section(3, vec([[0], [0]])),
    ...section(5, vec([[0x00, 1]])), // one memory, 1 page to start
    ...section(7, vec([[...name('max'), 0x00, 0], [...name('min'), 0x00, 1], [...name('mem'), 0x02, 0]])),
    ...section(10, vec(code)),
  ]);
}

interface Kernels {
  max(dst: number, a: number, b: number, n: number): void;
  min(dst: number, a: number, b: number, n: number): void;
  mem: WebAssembly.Memory;
}

let kernels: Kernels | null | undefined;

function instance(): Kernels | null {
  if (kernels !== undefined) return kernels;
  kernels = null;
  try {
    if (typeof WebAssembly === 'undefined') return null;
    const bytes = moduleBytes();
    if (!WebAssembly.validate(bytes)) return null;
    kernels = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports as unknown as Kernels;
  } catch {
    kernels = null;
  }
  return kernels;
}

export function morphSimdAvailable(): boolean {
  return instance() !== null;
}

/** Bytes rounded up to whole pairs of vectors. */
const up32 = (n: number) => (n + 31) & ~31;

/**
 * Max (min) over the (2r+1)^2 square, as morphScalar: source sw pixels wide (nc = 4 or 1
 * channels), output window w x h at (pad, pad), r >= 1, pad >= r. Writes `out` (w h nc values);
 * false without WebAssembly SIMD.
 */
export function morphSimd(src: Float32Array, sw: number, pad: number, w: number, h: number, r: number, isMax: boolean, nc: number, out: Float32Array): boolean {
  const k = instance();
  if (!k) return false;
  const op = isMax ? k.max : k.min;
  const L = 2 * r + 1;
  let K = 1;
  while (2 * K <= L) K *= 2;
  const s = L - K;
  const px = nc * 4;
  const n = w + 2 * r; // source pixels per row
  const rows = h + 2 * r;
  const rowBytes = up32(w * px);
  // Layout: the source row (reduced in place; slack for the reads past its end), the rings, the output row.
  const xBytes = up32((n + L) * px) + 64;
  // Ring of level k (1, 2, .. K): k + 1 rows for the next level, s + 1 for M_K (the final step).
  const levels: number[] = [];
  for (let q = 1; q <= K; q *= 2) levels.push(q);
  const ringSize = levels.map((q) => (q < K ? q + 1 : s + 1));
  const ringAt: number[] = [];
  let top = xBytes;
  for (const size of ringSize) {
    ringAt.push(top);
    top += size * rowBytes;
  }
  const oAt = top;
  top += rowBytes;
  const need = top - k.mem.buffer.byteLength;
  if (need > 0) k.mem.grow(Math.ceil(need / 65536));
  const mem = new Float32Array(k.mem.buffer);
  const slot = (level: number, row: number) => ringAt[level]! + (row % ringSize[level]!) * rowBytes;
  const wn = w * nc;
  const x0 = pad - r;
  for (let j = 0; j < rows; j++) {
    const base = ((x0 + j) * sw + x0) * nc;
    mem.set(src.subarray(base, base + n * nc), 0);
    // Along the row, in place: M_2q from M_q for q < K, then M_L into ring 0 at row j.
    for (let q = 1; q < K; q *= 2) op(0, 0, q * px, up32((n - 2 * q + 1) * px));
    op(slot(0, j), 0, s * px, rowBytes);
    // Down the columns: each new row of M_q completes row i - q of M_2q.
    let i = j;
    let lv = 0;
    for (let q = 1; q < K; q *= 2, lv++) {
      if (i < q) break;
      op(slot(lv + 1, i - q), slot(lv, i - q), slot(lv, i), rowBytes);
      i -= q;
    }
    if (lv === levels.length - 1 && i >= s) {
      op(oAt, slot(lv, i - s), slot(lv, i), rowBytes);
      out.set(mem.subarray(oAt >> 2, (oAt >> 2) + wn), (i - s) * wn);
    }
  }
  return true;
}
