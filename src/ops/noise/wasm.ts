// noise's octaves in WebAssembly (noise.wat): per octave the plan's work shared as in cpu.ts's
// TypeScript octaves (the value lattice columns and lines, the simplex lattice box's gradient
// table filled as corners first meet it), then every sample's f64 arithmetic in the reference's
// order, so the values are noiseReference's bit for bit (noise.test.ts). Where WebAssembly is
// missing, the canvas is over NOISE_WASM_MAX_PIXELS, or a simplex octave's lattice box is much
// larger than the canvas (very fine noise), `noiseWasm` returns null and cpu.ts's TypeScript
// kernel runs.
import { acquire, release } from '../../backends/cpu/pool.js';
import { arenaAlloc, arenaFree, inArena } from '../../util/wasm-arena.js';
import { type WasmKernels, wasmKernels } from '../../util/wasm-kernels.js';
import { CHANNELS, ENTRY, type NoisePlan, octaveLattice, octaveSeed, valueColumns } from './plan.js';

/** simplex1 / simplex2 / simplex3: one octave of simplex noise of 1 / 2 / 3 channels. */
type SimplexOctave = (
  X: number,
  Y: number,
  Z: number,
  w: number,
  h: number,
  grads: number,
  sI: number,
  sJ: number,
  i0: number,
  j0: number,
  k0: number,
  cx: number,
  cy: number,
  cz: number,
  seeds: number,
  weight: number,
  acc: number,
  first: number,
  pairs: number,
  rb: number,
  spans: number,
  ns: number,
) => void;

interface Exports {
  simplex1: SimplexOctave;
  simplex2: SimplexOctave;
  simplex3: SimplexOctave;
  value(
    a: number,
    b: number,
    sx: number,
    cellX: number,
    nc: number,
    w: number,
    h: number,
    rows: number,
    seeds: number,
    ch: number,
    weight: number,
    acc: number,
    first: number,
    line: number,
    rowA: number,
    rowB: number,
  ): void;
  finish(acc: number, out: number, m: number, raster: number): void;
  pairs(at: number): void;
}

const kernels = wasmKernels<Exports>('noise');

/** The module's gradient table (noise.wat's data) ends below this address. */
const HEAP = 512;
const align = (n: number) => (n + 15) & ~15;

/** A simplex octave's lattice box larger than this many entries: the TypeScript kernel (as cpu.ts). */
const boxTooLarge = (box: number, channels: number, w: number, h: number) => box * channels > Math.max(1 << 16, 4 * w * h * channels);

/**
 * Canvases over this many pixels take the TypeScript kernel: the module's memory (~40 bytes a
 * pixel for a raster: the f64 sums and the f32 output) never shrinks, and a render up to
 * LIMITS.maxCanvasPixels would keep ~670 MB in it. Tiles with their margins (512 px at pixel ratio
 * 2 included) stay in the kernel.
 */
export const NOISE_WASM_MAX_PIXELS = 1 << 21;
/**
 * Simplex canvases wider than this take the TypeScript kernel: the kernels keep one row's pixel
 * pairs ((w + 1) / 2 x (64 + 16 channels) bytes, ~0.9 MiB at this width), so a very wide, thin
 * window within NOISE_WASM_MAX_PIXELS cannot grow the module's memory past the bound above.
 */
export const NOISE_WASM_MAX_WIDTH = 8192;

/**
 * noiseReference's values, bit for bit, or null: no WebAssembly, a canvas over
 * NOISE_WASM_MAX_PIXELS (a simplex one wider than NOISE_WASM_MAX_WIDTH), a very fine simplex
 * noise, or the module's memory could not grow. `demand` (simplex only; value noise computes every
 * pixel): the runs of pixels to compute (three ints each: row, first column, count; rows
 * ascending, runs not overlapping), the others +0 (0 in R and G of a raster, A 1).
 */
export function noiseWasm(p: NoisePlan, seed: number, raster: boolean, channels = raster ? CHANNELS : 1, demand?: Int32Array): Float32Array | null {
  const k = p.width * p.height <= NOISE_WASM_MAX_PIXELS && (p.kind !== 'simplex' || p.width <= NOISE_WASM_MAX_WIDTH) ? kernels() : null;
  if (!k) return null;
  try {
    return run(k, p, seed, raster, channels, p.kind === 'simplex' ? demand : undefined);
  } catch (e) {
    if (e instanceof RangeError) return null; // WebAssembly.Memory.grow refused
    throw e;
  }
}

/**
 * Where one run's arrays lie: `fn` the instance, `buffer()` its memory now, `reserve(end)` makes
 * bytes below `end` usable (the scratch memory grows; the arena's block was sized up front).
 */
interface Region {
  fn: Exports;
  buffer(): ArrayBuffer;
  reserve(end: number): void;
}

/** Bytes of noise.wat's gradient pair table (12 x 12 pairs of three f64x2). */
const PAIRS_BYTES = 144 * 48;

/**
 * The run's layout from `base`: the f64 sums, (the copying path's) f32 output, the seeds, the
 * gradient pair table, a simplex run's `ns` spans and the octaves' work area.
 */
function layout(base: number, m: number, channels: number, stride: number, withOut: boolean, ns: number) {
  const acc = base;
  const out = align(acc + m * channels * 8);
  const seeds = withOut ? align(out + m * stride * 4) : out;
  const pairs = seeds + 16;
  const spans = pairs + PAIRS_BYTES;
  return { acc, out, seeds, pairs, spans, work: align(spans + ns * 12) };
}

/** Every row whole: (j, 0, w) for j in [0, h). */
function wholeRows(w: number, h: number): Int32Array {
  const s = new Int32Array(h * 3);
  for (let j = 0; j < h; j++) {
    s[j * 3] = j;
    s[j * 3 + 2] = w;
  }
  return s;
}

/** A simplex octave's arrays from `work` (a lattice box of `box` bytes, `channels` channels). */
function simplexLayout(work: number, w: number, h: number, box: number, channels: number) {
  const xAt = work;
  const zAt = xAt + (w + 1) * 8;
  const yAt = zAt + (w + 1) * 8;
  const grads = align(yAt + h * 8);
  // (+ 4: a 3-channel corner reads its three bytes as one word); then a row's pairs: their
  // geometry (64 bytes) and sums (16 a channel)
  const rb = align(grads + box + 4);
  return { xAt, zAt, yAt, grads, rb, end: rb + ((w + 1) >> 1) * (64 + 16 * channels) };
}

/** A value octave's arrays from `work` (`nc` lattice columns). */
function valueLayout(work: number, w: number, h: number, nc: number, channels: number) {
  const aAt = work;
  const bAt = aAt + w * 4;
  const cellAt = align(bAt + w * 4);
  const sxAt = align(cellAt + nc * 4);
  const rowsAt = sxAt + w * 8;
  const line = rowsAt + h * ENTRY * 4;
  const rowA = align(line + nc * channels * 8);
  const rowB = rowA + w * channels * 8;
  return { aAt, bAt, cellAt, sxAt, rowsAt, line, rowA, rowB, end: rowB + w * channels * 8 };
}

function run(k: WasmKernels<Exports>, p: NoisePlan, seed: number, raster: boolean, channels: number, demand: Int32Array | undefined): Float32Array | null {
  const { width: w, height: h, octaves: n } = p;
  const stride = raster ? 4 : 1;
  const m = w * h;
  const simplex = p.kind === 'simplex';
  const lattices = simplex ? Array.from({ length: n }, (_, o) => octaveLattice(p, o)) : [];
  if (lattices.some((l) => boxTooLarge(l.nx * l.ny * l.nz, channels, w, h))) return null;
  const columns = simplex ? [] : Array.from({ length: n }, (_, o) => valueColumns(p, o));
  const result = acquire(m * stride, false);
  try {
    const spans = simplex ? (demand ?? wholeRows(w, h)) : undefined;
    return into(k, p, seed, raster, channels, lattices, columns, result, spans, !!demand);
  } catch (e) {
    release(result);
    throw e;
  }
}

/** run's kernels writing the noise into `result` (in place where it lies in the canvas arena). */
function into(
  k: WasmKernels<Exports>,
  p: NoisePlan,
  seed: number,
  raster: boolean,
  channels: number,
  lattices: ReturnType<typeof octaveLattice>[],
  columns: ReturnType<typeof valueColumns>[],
  result: Float32Array,
  spans: Int32Array | undefined,
  partial: boolean,
): Float32Array {
  const { width: w, height: h, octaves: n } = p;
  const stride = raster ? 4 : 1;
  const m = w * h;
  // In the canvas arena: the sums and the octaves' arrays in a block of it for the call, the
  // result written where it lies (no copy).
  const fn = inArena(result) ? k.onArena() : null;
  if (fn) {
    const ends = (work: number) => {
      let end = work;
      for (let o = 0; o < n; o++) {
        const l = lattices[o];
        end = Math.max(
          end,
          l ? simplexLayout(work, w, h, l.nx * l.ny * l.nz * channels, channels).end : valueLayout(work, w, h, columns[o]!.cellX.length, channels).end,
        );
      }
      return end;
    };
    const ns = spans ? spans.length / 3 : 0;
    const need = ends(layout(0, m, channels, stride, false, ns).work);
    const block = arenaAlloc(Math.ceil(need / 4), false);
    if (block) {
      try {
        const at = layout(block.byteOffset, m, channels, stride, false, ns);
        const limit = block.byteOffset + block.byteLength;
        const region: Region = {
          fn,
          buffer: () => block.buffer as ArrayBuffer,
          reserve: (end) => {
            if (end > limit) throw new Error(`noise: the arena block ends at ${limit}, the octave at ${end}`);
          },
        };
        octaves(region, p, seed, channels, lattices, columns, at, spans, partial);
        fn.finish(at.acc, result.byteOffset, m, raster ? channels : 0);
        return result;
      } finally {
        arenaFree(block);
      }
    }
  }
  const region: Region = { fn: k.fn, buffer: () => k.u8(0, 0).buffer as ArrayBuffer, reserve: (end) => k.reserve(end) };
  const at = layout(HEAP, m, channels, stride, true, spans ? spans.length / 3 : 0);
  octaves(region, p, seed, channels, lattices, columns, at, spans, partial);
  k.reserve(at.seeds);
  k.fn.finish(at.acc, at.out, m, raster ? channels : 0);
  result.set(k.f32(at.out, m * stride));
  return result;
}

/** Every octave of the plan, summed into the f64 sums at `at.acc` of `r`'s memory. */
function octaves(
  r: Region,
  p: NoisePlan,
  seed: number,
  channels: number,
  lattices: ReturnType<typeof octaveLattice>[],
  columns: ReturnType<typeof valueColumns>[],
  at: ReturnType<typeof layout>,
  spans: Int32Array | undefined,
  partial: boolean,
): void {
  const { width: w, height: h, octaves: n } = p;
  const { acc, seeds, pairs, work } = at;
  const ns = spans ? spans.length / 3 : 0;
  if (lattices.length) {
    r.reserve(work);
    r.fn.pairs(pairs);
    new Int32Array(r.buffer(), at.spans, ns * 3).set(spans!);
    // Pixels outside the spans are never written by the octaves: their sums +0.
    if (partial) new Float64Array(r.buffer(), acc, w * h * channels).fill(0);
  }
  const cellsF = new Float32Array(p.cells.buffer, p.cells.byteOffset, p.cells.length);
  for (let o = 0; o < n; o++) {
    const weight = cellsF[o * 4 + 3]!;
    const first = o === 0 ? 1 : 0;
    const seedList = Array.from({ length: channels }, (_, c) => octaveSeed(seed, c, o));
    if (lattices.length) {
      const { X, Y, Z, i0, j0, k0, nx, ny, nz } = lattices[o]!;
      // X and Z with their last column once more: the kernel reads columns in pairs.
      const box = nx * ny * nz * channels;
      const { xAt, zAt, yAt, grads, rb, end } = simplexLayout(work, w, h, box, channels);
      r.reserve(end);
      const buf = r.buffer();
      const xs = new Float64Array(buf, xAt, w + 1);
      const zs = new Float64Array(buf, zAt, w + 1);
      xs.set(X);
      zs.set(Z);
      xs[w] = X[w - 1]!;
      zs[w] = Z[w - 1]!;
      new Float64Array(buf, yAt, h).set(Y);
      new Uint32Array(buf, seeds, channels).set(seedList);
      new Uint8Array(buf, grads, box).fill(255);
      const [cx, cy, cz] = [p.cells[o * 4]!, p.cells[o * 4 + 1]!, p.cells[o * 4 + 2]!];
      const octave = channels === 1 ? r.fn.simplex1 : channels === 2 ? r.fn.simplex2 : r.fn.simplex3;
      octave(xAt, yAt, zAt, w, h, grads, ny * nz * channels, nz * channels, i0, j0, k0, cx, cy, cz, seeds, weight, acc, first, pairs, rb, at.spans, ns);
    } else {
      const { a, b, sx, cellX } = columns[o]!;
      const nc = cellX.length;
      const { aAt, bAt, cellAt, sxAt, rowsAt, line, rowA, rowB, end } = valueLayout(work, w, h, nc, channels);
      r.reserve(end);
      const buf = r.buffer();
      new Int32Array(buf, aAt, w).set(a);
      new Int32Array(buf, bAt, w).set(b);
      new Uint32Array(buf, cellAt, nc).set(cellX);
      new Float64Array(buf, sxAt, w).set(sx);
      new Uint32Array(buf, rowsAt, h * ENTRY).set(p.rows.subarray(o * h * ENTRY, (o + 1) * h * ENTRY));
      new Uint32Array(buf, seeds, channels).set(seedList);
      r.fn.value(aAt, bAt, sxAt, cellAt, nc, w, h, rowsAt, seeds, channels, weight, acc, first, line, rowA, rowB);
    }
  }
}
