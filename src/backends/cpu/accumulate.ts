// The exact-area rasterizer's inner loops in WebAssembly (rasterize.wat): the edge accumulation
// (the reference is rasterize.ts `Rasterizer.addRingTs`) and the coverage walk with its compositing
// (`compositeWalk`), the same f64 operations in the same order, so the same bits. Its instance lies
// on the thread's canvas arena (src/util/wasm-arena.ts), which also holds each Rasterizer's cells,
// row spans and block flags (the Rasterizer reads them through views of it) and the ring
// coordinates copied in for each call; the walk composites onto a canvas that lies in the arena too.
// Null (the TypeScript loops) where WebAssembly or the arena's room is missing.
import { arenaAlloc, arenaFree, inArena } from '../../util/wasm-arena.js';
import { wasmKernels } from '../../util/wasm-kernels.js';

interface Exports {
  init(W: number, H: number, nb: number, acc: number, rmin: number, rmax: number, blk: number): void;
  addRings(coords: number, starts: number, count: number, dx: number, dy: number, sign: number, sw: number, ox: number, oy: number): void;
  composite(data: number, r: number, g: number, b: number, a: number, yMin: number, yMax: number, sw: number, ox: number, oy: number): number;
  yLo: WebAssembly.Global;
  yHi: WebAssembly.Global;
  painted: WebAssembly.Global;
}

const kernels = wasmKernels<Exports>('rasterize');

/** The most coordinates (floats) one call copies in: 8 MiB; a larger ring set takes the TypeScript loop. */
export const MAX_COPY_FLOATS = 1 << 20;
/** Room for coordinates and ring starts kept with a new rasterizer (floats; 64 KiB). */
const SCRATCH_FLOATS = 16384;

export class Accumulator {
  /** The arena block of the cells, spans and flags, and the one of the starts and coordinates (their views keep them). */
  private readonly fixed: Float32Array;
  private scratch: Float32Array;
  private f64: Float64Array;
  private i32: Int32Array;
  private startsCap: number;
  private coordsAt = 0;
  private freed = false;

  private constructor(
    private readonly fn: Exports,
    fixed: Float32Array,
    scratch: Float32Array,
    private readonly cells: number,
    private readonly rows: number,
    private readonly flags: number,
  ) {
    this.fixed = fixed;
    this.scratch = scratch;
    this.f64 = new Float64Array(scratch.buffer, scratch.byteOffset, scratch.length >> 1);
    this.i32 = new Int32Array(scratch.buffer, scratch.byteOffset, scratch.length);
    this.startsCap = 0;
    this.layout(1024);
  }

  /** An accumulator for `cells` f64 cells, `rows` rows and `flags` block flags; null without WebAssembly or room in the arena. */
  static create(cells: number, rows: number, flags: number): Accumulator | null {
    const fn = kernels()?.onArena();
    if (!fn) return null;
    const fixed = arenaAlloc(Math.ceil((cells * 8 + rows * 8 + flags) / 4), true);
    if (!fixed) return null;
    const scratch = arenaAlloc(SCRATCH_FLOATS, false);
    if (!scratch) {
      arenaFree(fixed);
      return null;
    }
    return new Accumulator(fn, fixed, scratch, cells, rows, flags);
  }

  /** Starts for `starts` rings first, then the coordinates (8-byte aligned). */
  private layout(starts: number): void {
    this.startsCap = starts;
    this.coordsAt = (starts + 1) & ~1; // in Int32 units from the block's start: an even count is 8-byte aligned
  }

  /** Floats of coordinates the scratch block holds with this layout. */
  private coordsCap(): number {
    return (this.scratch.length - this.coordsAt) >> 1;
  }

  /** The rasterizer's arrays, views of the arena (they stay valid: the arena never grows). */
  views(): { acc: Float64Array; rowMin: Int32Array; rowMax: Int32Array; blk: Uint8Array } {
    const b = this.fixed.buffer;
    const at = this.fixed.byteOffset;
    const spans = at + this.cells * 8;
    return {
      acc: new Float64Array(b, at, this.cells),
      rowMin: new Int32Array(b, spans, this.rows),
      rowMax: new Int32Array(b, spans + this.rows * 4, this.rows),
      blk: new Uint8Array(b, spans + this.rows * 8, this.flags),
    };
  }

  /** Point the instance at this rasterizer's arrays (the instance is the thread's, shared by every rasterizer). */
  private use(W: number, H: number, nb: number): void {
    const at = this.fixed.byteOffset;
    const spans = at + this.cells * 8;
    this.fn.init(W, H, nb, at, spans, spans + this.rows * 4, spans + this.rows * 8);
  }

  /**
   * Room for `floats` coordinates and `starts` ring starts, the scratch block replaced by a larger
   * one where needed; false past MAX_COPY_FLOATS or without room in the arena (the caller takes
   * the TypeScript loop).
   */
  reserve(floats: number, starts: number): boolean {
    if (starts <= this.startsCap && floats <= this.coordsCap()) return true;
    if (floats > MAX_COPY_FLOATS || starts > MAX_COPY_FLOATS) return false;
    const s = Math.max(this.startsCap, starts, Math.min(2 * this.startsCap, MAX_COPY_FLOATS));
    const c = Math.max(floats, Math.min(2 * this.coordsCap(), MAX_COPY_FLOATS));
    const next = arenaAlloc(((s + 1) & ~1) + 2 * c, false);
    if (!next) return false;
    arenaFree(this.scratch);
    this.scratch = next;
    this.f64 = new Float64Array(next.buffer, next.byteOffset, next.length >> 1);
    this.i32 = new Int32Array(next.buffer, next.byteOffset, next.length);
    this.layout(s);
    return true;
  }

  /** Copy coords[from, to) in, and the ring starts (float indices) from `from`: `starts` [k0, k0 + count], or one ring. */
  copy(coords: ArrayLike<number>, starts: ArrayLike<number> | null, k0: number, count: number, from: number, to: number): void {
    const c = this.coordsAt >> 1;
    if (coords instanceof Float64Array) this.f64.set(coords.subarray(from, to), c);
    else for (let i = from; i < to; i++) this.f64[c + i - from] = coords[i]!;
    const i32 = this.i32;
    if (!starts) {
      i32[0] = 0;
      i32[1] = to - from;
      return;
    }
    for (let k = 0; k <= count; k++) i32[k] = starts[k0 + k]! - from;
  }

  /** Add the copied rings (W x H canvas, nb flags a row; sw, ox, oy the cell box); returns the rows touched, widened. */
  add(
    W: number,
    H: number,
    nb: number,
    count: number,
    dx: number,
    dy: number,
    sign: number,
    sw: number,
    ox: number,
    oy: number,
    yMin: number,
    yMax: number,
  ): [number, number] {
    const f = this.fn;
    this.use(W, H, nb);
    f.yLo.value = yMin;
    f.yHi.value = yMax;
    const at = this.scratch.byteOffset;
    f.addRings(at + this.coordsAt * 4, at, count, dx, dy, sign, sw, ox, oy);
    return [f.yLo.value as number, f.yHi.value as number];
  }

  /** Whether `data` lies where the walk can composite onto it (the arena). */
  static canComposite(data: Float32Array): boolean {
    return inArena(data);
  }

  /**
   * Rasterizer.compositeWalk onto `data` (in the arena) with the paint (r, g, b, a): returns the
   * pixels replaced by the opaque paint at coverage 1, or -1 when nothing was painted.
   */
  composite(
    W: number,
    H: number,
    nb: number,
    data: Float32Array,
    r: number,
    g: number,
    b: number,
    a: number,
    yMin: number,
    yMax: number,
    sw: number,
    ox: number,
    oy: number,
  ): number {
    this.use(W, H, nb);
    const replaced = this.fn.composite(data.byteOffset, r, g, b, a, yMin, yMax, sw, ox, oy);
    return this.fn.painted.value ? replaced : -1;
  }

  /** Give the arena blocks back (a rasterizer leaving the pool); the accumulator is unusable after. */
  free(): void {
    if (this.freed) return;
    this.freed = true;
    arenaFree(this.fixed);
    arenaFree(this.scratch);
  }
}
