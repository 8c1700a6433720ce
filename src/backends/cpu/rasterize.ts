// Exact-area anti-aliased scanline rasterizer (signed area/cover cells, as in font-rs,
// stb_truetype v2 and AGG) over closed rings of flat [x0, y0, x1, y1, ...] coordinates.
//
// Pixel (i, j) covers [i, i+1] x [j, j+1] in canvas pixels. Each edge adds, per cell it crosses,
// the signed height it spans times the fraction of the cell to its right into that cell, and
// the rest into the next cell; a running sum along the row then gives the signed winding area
// of every pixel. Coverage is min(1, |sum|) (nonzero rule): exteriors (positive shoelace area
// with y down) and holes (negative) cancel, overlapping positive pieces (stroke quads, joins,
// caps) saturate. The non-AA mode samples the pixel centre instead: coverage 1 where the
// nonzero winding at (i + 0.5, j + 0.5) is not 0.
//
// One Rasterizer is made per op call; its buffers are canvas-sized and reused for every shape
// (rings of one shape are added, then `sweep` emits the rows and clears only what was touched).
// The sweep is one prefix pass per row over its touched cells (font-rs): runs of one coverage
// come out as one solid span (the inside of a fill), zero coverage (the inside of a stroked
// outline) not at all, and only the pixels between as per-pixel coverage.
// With WebAssembly the edge accumulation and the compositing walk run in rasterize.wat
// (accumulate.ts), the same operations in the same order; the loops here are their reference and
// their fallback.

import { Accumulator } from './accumulate.js';

/**
 * Called for each covered run of row y, canvas columns [x0, x1): every pixel has coverage `solid`
 * when solid >= 0, else column x has coverage cov[x].
 */
export type SpanFn = (y: number, x0: number, x1: number, cov: Float64Array, solid: number) => void;

/** A set of rings in one flat buffer: ring k is coords[starts[k] .. starts[k+1]) (float indices). */
export interface RingSet {
  coords: Float64Array;
  starts: Int32Array;
  count: number;
}

const NONE = 0x7fffffff;
/** Tests: the TypeScript accumulation for rasterizers made from now on (false), or WebAssembly where it loads (true). */
let useWasm = true;
export function setRasterizerWasm(on: boolean): void {
  useWasm = on;
}
/** Shortest run of one coverage emitted as a solid span (shorter runs stay in the per-pixel span). */
const SOLID_RUN = 8;
/** Cells per block of the touched-block flags (log2): the sweep skips blocks nothing touched. */
const BLOCK = 4;
/** Rows whose touched cells span fewer than this many columns are composited cell by cell (<= 1 << BLOCK). */
const NARROW = 16;

/** What the coverage walk reports to: the runs of one coverage, row by row (Rasterizer.walk). */
interface RunSink {
  /** Columns [x0, x1) of row y have coverage c (0 < c <= 1); the runs of a row come left to right. */
  run(y: number, x0: number, x1: number, c: number): void;
  /** Row y has had its runs (the last one reaches the canvas's right edge when it has coverage). */
  rowEnd(y: number): void;
}

/**
 * Runs into a SpanFn's spans: a run at least SOLID_RUN long as one solid span; neighbouring
 * shorter runs as one per-pixel span, their coverage written into `cov`; the run that reaches
 * the canvas edge as a solid span whatever its length.
 */
class SpanSink implements RunSink {
  /** The per-pixel span not emitted yet: [pend, pendEnd). */
  private pend = 0;
  private pendEnd = 0;
  constructor(
    private readonly span: SpanFn,
    private readonly cov: Float64Array,
    private readonly width: number,
  ) {}
  run(y: number, x0: number, x1: number, c: number): void {
    // A gap before this run is zero coverage: it ends the per-pixel span.
    if (x0 !== this.pendEnd) this.flush(y, x0);
    if (x1 - x0 >= SOLID_RUN || x1 === this.width) {
      this.flush(y, x1);
      this.span(y, x0, x1, this.cov, c);
      return;
    }
    this.cov.fill(c, x0, x1);
    this.pendEnd = x1;
  }
  rowEnd(y: number): void {
    this.flush(y, 0);
  }
  /** Emit the pending per-pixel span, if any, and start the next one at x. */
  private flush(y: number, x: number): void {
    if (this.pendEnd > this.pend) this.span(y, this.pend, this.pendEnd, this.cov, -1);
    this.pend = this.pendEnd = x;
  }
}

export class Rasterizer {
  readonly width: number;
  readonly height: number;
  /** Area coverage (true) or pixel-centre sampling (false); change it only while empty. */
  antialias: boolean;
  /** Coverage of the row being emitted, indexed by canvas column. */
  readonly cov: Float64Array;
  private readonly stride: number;
  /**
   * The cells in use: canvas cell (row, col) is acc[(row - oy) * sw + col - ox]. The whole canvas
   * (row stride `stride`) unless confine() set a smaller box for the next shape.
   */
  private ox = 0;
  private oy = 0;
  private sw: number;
  /**
   * Area/cover cells, row-major with 2 spare columns (spill of the last column). With WebAssembly
   * these four arrays are views of a block of the canvas arena (`wasm`; the arena never grows).
   */
  private acc: Float64Array;
  /** First and last touched cell per row (NONE / -1 when untouched). */
  private rowMin: Int32Array;
  private rowMax: Int32Array;
  /** Blocks per row, and one flag per block of BLOCK cells: set when any of its cells was written. */
  private readonly nb: number;
  private blk: Uint8Array;
  private yMin = NONE;
  private yMax = -1;
  /** The edge accumulation in WebAssembly (rasterize.wat), or null: the TypeScript loops. */
  private readonly wasm: Accumulator | null;

  constructor(width: number, height: number, antialias = true) {
    this.width = Math.max(0, width | 0);
    this.height = Math.max(0, height | 0);
    this.antialias = antialias;
    this.stride = this.width + 2;
    this.sw = this.stride;
    this.cov = new Float64Array(this.width);
    this.nb = (this.stride + (1 << BLOCK) - 1) >> BLOCK;
    this.wasm = useWasm ? Accumulator.create(this.stride * this.height, this.height, this.nb * this.height) : null;
    if (this.wasm) ({ acc: this.acc, rowMin: this.rowMin, rowMax: this.rowMax, blk: this.blk } = this.wasm.views());
    else {
      this.acc = new Float64Array(this.stride * this.height);
      this.rowMin = new Int32Array(this.height);
      this.rowMax = new Int32Array(this.height);
      this.blk = new Uint8Array(this.nb * this.height);
    }
    this.rowMin.fill(NONE);
    this.rowMax.fill(-1);
  }

  /** Whether edges accumulate in WebAssembly (rasterize.wat) here. */
  get usesWasm(): boolean {
    return this.wasm !== null;
  }

  /**
   * Rings [starts[k], starts[k + 1]) of `coords`, k0 <= k < k0 + count, through the WebAssembly accumulation:
   * copied into its arena block (a larger one taken when needed), then added there. False when
   * they do not fit (past MAX_COPY_FLOATS, or no room in the arena): the caller's TypeScript loop.
   */
  private addWasm(
    w: Accumulator,
    coords: ArrayLike<number>,
    starts: ArrayLike<number> | null,
    k0: number,
    count: number,
    from: number,
    to: number,
    dx: number,
    dy: number,
    sign: number,
  ): boolean {
    if (!w.reserve(to - from, count + 1)) return false;
    w.copy(coords, starts, k0, count, from, to);
    [this.yMin, this.yMax] = w.add(this.width, this.height, this.nb, count, dx, dy, sign, this.sw, this.ox, this.oy, this.yMin, this.yMax);
    return true;
  }

  /** Give back the arena memory of the WebAssembly accumulation (a rasterizer leaving the pool). */
  dispose(): void {
    this.wasm?.free();
  }

  /**
   * Add one closed ring (the closing edge is implied; a repeated first point is harmless).
   * (dx, dy) is added to every coordinate (world to canvas pixels); `sign` scales its winding,
   * e.g. -1 to force a hole whose ring is wound like an exterior. `from`/`to` are float indices.
   */
  addRing(ring: ArrayLike<number>, dx = 0, dy = 0, sign = 1, from = 0, to = ring.length): void {
    const n = (to - from) >> 1;
    if (n < 2) return;
    if (this.wasm && this.antialias && this.addWasm(this.wasm, ring, null, 0, 1, from, to, dx, dy, sign)) return;
    this.addRingTs(ring, dx, dy, sign, from, to);
  }

  /** addRing in TypeScript: the reference of rasterize.wat's `addRings` (the same operations in the same order). */
  addRingTs(ring: ArrayLike<number>, dx = 0, dy = 0, sign = 1, from = 0, to = ring.length): void {
    const n = (to - from) >> 1;
    if (n < 2) return;
    let px = ring[to - 2]! + dx;
    let py = ring[to - 1]! + dy;
    if (!this.antialias) {
      this.addRingSampled(ring, dx, dy, sign, from, to);
      return;
    }
    // Exact-area accumulation of every edge, inline (edges of strokes and small polygons are
    // short: per-edge overhead is most of their cost). The common piece, inside one cell of the
    // canvas, is written here; the others go to cells().
    const H = this.height;
    const W = this.width;
    const { acc, rowMin, rowMax, sw, ox, oy, blk, nb } = this;
    let yLo = this.yMin;
    let yHi = this.yMax;
    for (let i = from; i < to; i += 2) {
      let x0 = px;
      let y0 = py;
      let x1 = ring[i]! + dx;
      let y1 = ring[i + 1]! + dy;
      px = x1;
      py = y1;
      const sum = x0 + y0 + x1 + y1;
      if (y0 === y1 || sum - sum !== 0) continue; // horizontal, or NaN / infinite
      let d = sign;
      if (y0 > y1) {
        let t = x0;
        x0 = x1;
        x1 = t;
        t = y0;
        y0 = y1;
        y1 = t;
        d = -d;
      }
      if (y1 <= 0 || y0 >= H) continue;
      // An edge within one row of the canvas (most edges of strokes) is one piece from its
      // start to its end: no slope, no row walk.
      const oneRow = y0 >= 0 && y1 <= (y0 | 0) + 1 && y1 <= H;
      if (oneRow) {
        // Within one cell of the canvas too (the most common edge of a thin stroke): written here,
        // as the loop below would (the same numbers), without its row bookkeeping.
        const lo = x0 < x1 ? x0 : x1;
        const hi = x0 < x1 ? x1 : x0;
        const c0 = lo | 0;
        if (lo >= 0 && hi <= c0 + 1 && hi < W) {
          const row = y0 | 0;
          if (row < yLo) yLo = row;
          if (row > yHi) yHi = row;
          const h = (y1 - y0) * d;
          const f = (lo + hi) * 0.5 - c0;
          const p = (row - oy) * sw - ox + c0;
          acc[p] += h * (1 - f);
          acc[p + 1] += h * f;
          if (c0 < rowMin[row]!) rowMin[row] = c0;
          if (c0 + 1 > rowMax[row]!) rowMax[row] = c0 + 1;
          blk[row * nb + (c0 >> BLOCK)] = 1;
          blk[row * nb + ((c0 + 1) >> BLOCK)] = 1;
          continue;
        }
      }
      // Math.min / Math.max, not `a < b ? a : b` with the canvas's integer size or 0: TurboFan kept
      // those mixed values tagged and made a heap number for each such edge (a fifth of all the
      // memory a toner tile's render allocated); these stay doubles, with the same values. dxdy is
      // finite (y1 > y0) and unread for a one-row edge (yb is y1 there).
      const dxdy = (x1 - x0) / (y1 - y0);
      let ya = Math.max(y0, 0);
      let xa = y0 < 0 ? x0 - y0 * dxdy : x0;
      const yEnd = Math.min(y1, H);
      let row = ya | 0; // ya >= 0
      if (row < yLo) yLo = row;
      const rLast = oneRow ? row : Math.ceil(yEnd) - 1;
      if (rLast > yHi) yHi = rLast;
      while (ya < yEnd) {
        const yb = row + 1 < yEnd ? row + 1 : yEnd;
        // x from the edge's own start at every row, so long edges do not drift.
        const xb = yb === y1 ? x1 : x0 + (yb - y0) * dxdy;
        const h = (yb - ya) * d;
        const lo = xa < xb ? xa : xb;
        const hi = xa < xb ? xb : xa;
        const c0 = lo | 0;
        if (lo >= 0 && hi <= c0 + 1 && hi < W) {
          // The common piece (a steep edge) inside one cell of the canvas: cells()'s first case.
          const f = (lo + hi) * 0.5 - c0;
          const p = (row - oy) * sw - ox + c0;
          acc[p] += h * (1 - f);
          acc[p + 1] += h * f;
          if (c0 < rowMin[row]!) rowMin[row] = c0;
          if (c0 + 1 > rowMax[row]!) rowMax[row] = c0 + 1;
          const b = row * nb + (c0 >> BLOCK);
          blk[b] = 1;
          blk[row * nb + ((c0 + 1) >> BLOCK)] = 1;
        } else if (lo >= 0 && hi < W) this.acrossCells(row, lo, hi, h);
        else this.cells(row, xa, xb, h);
        ya = yb;
        xa = xb;
        row++;
      }
    }
    this.yMin = yLo;
    this.yMax = yHi;
  }

  /** addRing without anti-aliasing: each edge sampled at pixel centres (edgeSample). */
  private addRingSampled(ring: ArrayLike<number>, dx: number, dy: number, sign: number, from: number, to: number): void {
    let px = ring[to - 2]! + dx;
    let py = ring[to - 1]! + dy;
    for (let i = from; i < to; i += 2) {
      const x = ring[i]! + dx;
      const y = ring[i + 1]! + dy;
      this.edgeSample(px, py, x, y, sign);
      px = x;
      py = y;
    }
  }

  /**
   * A piece of an edge within row `row`, from x = lo to hi (0 <= lo < hi <= width) across several
   * cells of the canvas, with signed height h: the general case of cells() and of addRing.
   */
  private acrossCells(row: number, lo: number, hi: number, h: number): void {
    const { acc, rowMin, rowMax, sw, ox, oy, blk, nb } = this;
    const base = (row - oy) * sw - ox;
    const c0 = lo | 0;
    let c1 = hi | 0;
    if (c1 === hi) c1--;
    const k = h / (hi - lo);
    // First cell: x in [lo, c0 + 1].
    let w = c0 + 1 - lo;
    let hc = k * w;
    acc[base + c0] += hc * w * 0.5;
    acc[base + c0 + 1] += hc * (1 - w * 0.5);
    // Whole cells in between: each adds k, half in its cell and half carried.
    const half = k * 0.5;
    for (let c = c0 + 1; c < c1; c++) {
      acc[base + c] += half;
      acc[base + c + 1] += half;
    }
    // Last cell: x in [c1, hi].
    w = hi - c1;
    hc = k * w;
    acc[base + c1] += hc * (1 - w * 0.5);
    acc[base + c1 + 1] += hc * w * 0.5;
    if (c0 < rowMin[row]!) rowMin[row] = c0;
    if (c1 + 1 > rowMax[row]!) rowMax[row] = c1 + 1;
    const bb = row * nb;
    for (let b = c0 >> BLOCK, e = (c1 + 1) >> BLOCK; b <= e; b++) blk[bb + b] = 1;
  }

  /** Add the rings k0 <= k < k1 of a ring set (every ring by default; all with winding `sign`), in one call of the WebAssembly accumulation. */
  addRings(set: RingSet, dx = 0, dy = 0, sign = 1, k0 = 0, k1 = set.count): void {
    if (this.wasm && this.antialias && k1 > k0 && this.addWasm(this.wasm, set.coords, set.starts, k0, k1 - k0, set.starts[k0]!, set.starts[k1]!, dx, dy, sign))
      return;
    for (let k = k0; k < k1; k++) this.addRing(set.coords, dx, dy, sign, set.starts[k]!, set.starts[k + 1]!);
  }

  /** Whether anything has been added since the last sweep. */
  get empty(): boolean {
    return this.yMax < this.yMin;
  }

  /** Emit the coverage of everything added since the last sweep, run by run, and clear it. */
  sweep(span: SpanFn): void {
    this.walk(new SpanSink(span, this.cov, this.width));
  }

  /**
   * Emit everything added since the last sweep straight onto the compositor's canvas (the same
   * pixels as `sweep(comp.span)`), and clear it: each run of one coverage is painted as it ends,
   * with no coverage row in between; runs across untouched blocks go out whole, opaque ones as
   * plain copies, and a narrow row (a thin stroke crossing it) cell by cell.
   */
  composite(comp: Compositor): void {
    if (comp.width !== this.width) throw new RangeError('compositor and rasterizer widths differ');
    if (!this.antialias) this.walk(comp);
    else if (this.wasm && Accumulator.canComposite(comp.data)) {
      const replaced = this.wasm.composite(
        this.width,
        this.height,
        this.nb,
        comp.data,
        comp.r,
        comp.g,
        comp.b,
        comp.a,
        this.yMin,
        this.yMax,
        this.sw,
        this.ox,
        this.oy,
      );
      if (replaced >= 0) {
        comp.painted = true;
        comp.covered = replaced * 4 === comp.data.length;
      }
      this.unconfine();
    } else this.compositeWalk(comp);
  }

  /**
   * walk(comp) with area coverage, the compositing written in: the same coverage, runs and
   * arithmetic per pixel (paintRun for each run) without the sink's calls; a row whose touched
   * cells span fewer than NARROW columns (a thin stroke crossing it) is read and composited cell by
   * cell (Compositor.span's arithmetic), with no block flags to read and no runs to track. An
   * opaque paint at coverage 1 replaces the pixel, as paintRun does for a run (c r + d (1 - c a)
   * is r there for every finite d).
   */
  private compositeWalk(comp: Compositor): void {
    const { acc, rowMin, rowMax, sw, ox, oy, width: W, blk, nb } = this;
    const { data: d, r: pr, g: pg, b: pb, a: pa } = comp;
    const opaque = pa >= 1;
    const BM = (1 << BLOCK) - 1;
    let painted = false; // a pixel was composited (Compositor.painted)
    let replaced = 0; // pixels replaced by the opaque paint at coverage 1 (each pixel is composited once at most)
    for (let y = this.yMin; y <= this.yMax; y++) {
      const c0 = rowMin[y]!;
      const c1 = rowMax[y]!;
      if (c1 < c0) continue;
      rowMin[y] = NONE;
      rowMax[y] = -1;
      const base = (y - oy) * sw - ox;
      const bb = y * nb;
      const last = c1 < W ? c1 : W - 1;
      const rowP = y * W * 4;
      let s = 0;
      let c = 0;
      let run = c0; // start of the current run of coverage c
      let x = c0;
      if (last - c0 < NARROW) {
        for (let p = rowP + x * 4; x <= last; x++, p += 4) {
          const q = base + x;
          s += acc[q]!;
          acc[q] = 0;
          const m = s < 0 ? -s : s;
          c = m < 1 ? (m > 1e-9 ? m : 0) : 1;
          if (c <= 0) continue;
          painted = true;
          if (c >= 1 && opaque) {
            d[p] = pr;
            d[p + 1] = pg;
            d[p + 2] = pb;
            d[p + 3] = 1;
            replaced++;
            continue;
          }
          const k = 1 - pa * c;
          d[p] = pr * c + d[p]! * k;
          d[p + 1] = pg * c + d[p + 1]! * k;
          d[p + 2] = pb * c + d[p + 2]! * k;
          d[p + 3] = pa * c + d[p + 3]! * k;
        }
        // Fewer than NARROW <= 1 << BLOCK columns: two blocks at most.
        blk[bb + (c0 >> BLOCK)] = 0;
        blk[bb + (last >> BLOCK)] = 0;
        run = x;
      }
      while (x <= last) {
        const bi = bb + (x >> BLOCK);
        const end = (x | BM) < last ? x | BM : last;
        if (blk[bi] === 0) {
          x = end + 1;
          continue;
        }
        blk[bi] = 0;
        for (; x <= end; x++) {
          const v = acc[base + x]!;
          if (v === 0) continue;
          acc[base + x] = 0;
          s += v;
          const m = s < 0 ? -s : s;
          const n = m < 1 ? (m > 1e-9 ? m : 0) : 1;
          if (n !== c) {
            if (c !== 0) {
              paintRun(d, rowP + run * 4, x - run, pr, pg, pb, pa, c);
              painted = true;
              if (c >= 1 && opaque) replaced += x - run;
            }
            c = n;
            run = x;
          }
        }
      }
      if (c !== 0) {
        paintRun(d, rowP + run * 4, W - run, pr, pg, pb, pa, c);
        painted = true;
        if (c >= 1 && opaque) replaced += W - run;
      }
      if (c1 >= W) {
        acc[base + W] = 0;
        acc[base + W + 1] = 0;
        blk[bb + (W >> BLOCK)] = 0;
        blk[bb + ((W + 1) >> BLOCK)] = 0;
      }
    }
    if (painted) {
      comp.painted = true;
      // Every pixel of the canvas replaced by the paint (a fill over the whole canvas), or not.
      comp.covered = replaced * 4 === d.length;
    }
    this.unconfine();
  }

  /**
   * The coverage walk of sweep and composite, and the clearing of what it read: row by row, one
   * prefix pass over the touched cells gives each run of one coverage to `sink` as it ends (zero
   * coverage never). Coverage changes only at a non-zero cell; blocks no edge touched hold only
   * zero cells, so the coverage runs on unchanged across them, unread. (composite with area
   * coverage runs compositeWalk, this walk with the compositing written in.)
   */
  private walk(sink: RunSink): void {
    const { acc, rowMin, rowMax, sw, ox, oy, width: W, antialias, blk, nb } = this;
    const BM = (1 << BLOCK) - 1;
    for (let y = this.yMin; y <= this.yMax; y++) {
      const c0 = rowMin[y]!;
      const c1 = rowMax[y]!;
      if (c1 < c0) continue;
      rowMin[y] = NONE;
      rowMax[y] = -1;
      const base = (y - oy) * sw - ox;
      const bb = y * nb;
      const last = c1 < W ? c1 : W - 1;
      let s = 0;
      let c = 0;
      let run = c0; // start of the current run of coverage c
      let x = c0;
      while (x <= last) {
        const bi = bb + (x >> BLOCK);
        const end = (x | BM) < last ? x | BM : last;
        if (blk[bi] === 0) {
          x = end + 1;
          continue;
        }
        blk[bi] = 0;
        // Two loops rather than a test per cell: area coverage, or pixel-centre sampling.
        if (antialias) {
          for (; x <= end; x++) {
            const v = acc[base + x]!;
            if (v === 0) continue;
            acc[base + x] = 0;
            s += v;
            const m = s < 0 ? -s : s;
            // Below 1e-9 is rounding left by cancelled edges, not coverage.
            const n = m < 1 ? (m > 1e-9 ? m : 0) : 1;
            if (n !== c) {
              if (c !== 0) sink.run(y, run, x, c);
              c = n;
              run = x;
            }
          }
        } else {
          for (; x <= end; x++) {
            const v = acc[base + x]!;
            if (v === 0) continue;
            acc[base + x] = 0;
            s += v;
            const n = Math.round(s) !== 0 ? 1 : 0;
            if (n !== c) {
              if (c !== 0) sink.run(y, run, x, c);
              c = n;
              run = x;
            }
          }
        }
      }
      // The last run: coverage c holds to the canvas edge (0 for a shape closed inside it).
      if (c !== 0) sink.run(y, run, W, c);
      sink.rowEnd(y);
      if (c1 >= W) {
        // Spill cells right of the canvas.
        acc[base + W] = 0;
        acc[base + W + 1] = 0;
        blk[bb + (W >> BLOCK)] = 0;
        blk[bb + ((W + 1) >> BLOCK)] = 0;
      }
    }
    this.unconfine();
  }

  /**
   * Promise that everything added until the next sweep lies in [x0, x1] x [y0, y1] (canvas
   * pixels, after the addRing shift; non-finite bounds promise nothing): its cells are then laid
   * out with the box's width as row stride, so a small shape's cells sit together in memory, and
   * the same few cache lines serve shape after shape, instead of one canvas row apart. Call it
   * while empty; a coordinate outside the box would land in a wrong cell.
   */
  confine(x0: number, y0: number, x1: number, y1: number): void {
    if (!this.empty) throw new Error('Rasterizer.confine: shapes already added');
    const W = this.width;
    const H = this.height;
    if (!(x0 <= x1 && y0 <= y1 && x1 - x0 < Infinity && y1 - y0 < Infinity)) {
      this.unconfine();
      return;
    }
    // One cell of margin on each side for rounding of interpolated x; a piece at x touches its
    // cell and the next; left of the canvas is column 0, right of it columns W and W + 1 at most.
    const c0 = Math.max(0, Math.min(W + 1, Math.floor(x0) - 1));
    const c1 = Math.max(c0, Math.min(W + 1, Math.floor(x1) + 2));
    const r0 = Math.max(0, Math.min(H - 1, Math.floor(y0) - 1));
    this.ox = c0;
    this.oy = r0;
    this.sw = c1 - c0 + 1;
  }

  /** Back to the whole canvas, swept empty. */
  private unconfine(): void {
    this.yMin = NONE;
    this.yMax = -1;
    this.ox = 0;
    this.oy = 0;
    this.sw = this.stride;
  }

  /** Sweep into a coverage mask over the whole canvas (row-major), for tests and other backends. */
  sweepMask(mask = new Float32Array(this.width * this.height)): Float32Array {
    const W = this.width;
    this.sweep((y, x0, x1, cov, solid) => {
      for (let x = x0; x < x1; x++) mask[y * W + x] = solid >= 0 ? solid : cov[x]!;
    });
    return mask;
  }

  /** Widen row `row`'s range of touched cells to include c0..c1. */
  private touch(row: number, c0: number, c1: number): void {
    if (c0 < this.rowMin[row]!) this.rowMin[row] = c0;
    if (c1 > this.rowMax[row]!) this.rowMax[row] = c1;
    const bb = row * this.nb;
    for (let b = c0 >> BLOCK, e = c1 >> BLOCK; b <= e; b++) this.blk[bb + b] = 1;
  }

  /** Widen the range of rows the next sweep visits. */
  private rows(r0: number, r1: number): void {
    if (r0 < this.yMin) this.yMin = r0;
    if (r1 > this.yMax) this.yMax = r1;
  }

  /** Distribute the signed height h of a row piece running from x = xa to x = xb over its cells. */
  private cells(row: number, xa: number, xb: number, h: number): void {
    const W = this.width;
    const acc = this.acc;
    const base = (row - this.oy) * this.sw - this.ox;
    let lo = xa < xb ? xa : xb;
    let hi = xa < xb ? xb : xa;
    if (lo >= W) return; // right of the canvas: changes no pixel inside it
    if (hi <= 0) {
      // Left of the canvas: covers every pixel of the row to its right.
      acc[base] += h;
      this.touch(row, 0, 0);
      return;
    }
    if (lo < 0 || hi > W) {
      // Clip the piece in x; heights are proportional to x along a straight piece.
      const k = h / (hi - lo);
      if (lo < 0) {
        acc[base] += k * -lo;
        this.touch(row, 0, 0);
        h -= k * -lo;
        lo = 0;
      }
      if (hi > W) {
        h -= k * (hi - W);
        hi = W;
      }
    }
    const c0 = lo | 0; // lo >= 0
    if (hi <= c0 + 1) {
      // One cell: the area right of the piece inside the cell is h * (1 - (mid - c0)).
      const f = (lo + hi) * 0.5 - c0;
      acc[base + c0] += h * (1 - f);
      acc[base + c0 + 1] += h * f;
      this.touch(row, c0, c0 + 1);
      return;
    }
    this.acrossCells(row, lo, hi, h);
  }

  /** Centre-sampled winding of one edge: +-1 at the first pixel whose centre is right of it. */
  private edgeSample(x0: number, y0: number, x1: number, y1: number, sign: number): void {
    const sum = x0 + y0 + x1 + y1;
    if (y0 === y1 || sum - sum !== 0) return;
    let d = sign;
    if (y0 > y1) {
      let t = x0;
      x0 = x1;
      x1 = t;
      t = y0;
      y0 = y1;
      y1 = t;
      d = -d;
    }
    // Rows whose centre y + 0.5 lies in [y0, y1).
    const r0 = Math.max(0, Math.ceil(y0 - 0.5));
    const r1 = Math.min(this.height - 1, Math.ceil(y1 - 0.5) - 1);
    if (r1 < r0) return;
    this.rows(r0, r1);
    const dxdy = (x1 - x0) / (y1 - y0);
    const W = this.width;
    for (let r = r0; r <= r1; r++) {
      const x = x0 + (r + 0.5 - y0) * dxdy;
      let c = Math.ceil(x - 0.5);
      if (c >= W) continue;
      if (c < 0) c = 0;
      this.acc[(r - this.oy) * this.sw - this.ox + c] += d;
      this.touch(r, c, c);
    }
  }
}

/**
 * Grow `box` ([minx, miny, maxx, maxy], start from emptyBox()) by the points of coords[from..to);
 * a non-finite coordinate makes it NaN (Rasterizer.confine then keeps the whole canvas).
 */
export function growBox(box: Float64Array, coords: ArrayLike<number>, from = 0, to = coords.length): void {
  let x0 = box[0]!;
  let y0 = box[1]!;
  let x1 = box[2]!;
  let y1 = box[3]!;
  for (let i = from; i < to; i += 2) {
    const x = coords[i]!;
    const y = coords[i + 1]!;
    // NaN fails every comparison: caught below, once.
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (x - x !== 0 || y - y !== 0) x0 = NaN;
  }
  box[0] = x0;
  box[1] = y0;
  box[2] = x1;
  box[3] = y1;
}

/** An empty box for growBox (reused: pass one to reset it). */
export function emptyBox(box: Float64Array = new Float64Array(4)): Float64Array {
  box[0] = box[1] = Infinity;
  box[2] = box[3] = -Infinity;
  return box;
}

// Canvas-sized cell buffers cost page faults and GC pressure on every kernel call; kernels borrow
// a cleared one here and give it back. Safe with concurrent renders: a kernel borrows and returns
// within one synchronous call, and only a rasterizer swept clean (empty) is taken back.
const POOL_SIZE = 4;
const pool: Rasterizer[] = [];

/** A cleared rasterizer of this size: a pooled one, or a new one. Give it back with releaseRasterizer. */
export function acquireRasterizer(width: number, height: number, antialias = true): Rasterizer {
  for (let i = pool.length - 1; i >= 0; i--) {
    const r = pool[i]!;
    if (r.width === width && r.height === height) {
      pool.splice(i, 1);
      r.antialias = antialias;
      r.confine(NaN, NaN, NaN, NaN); // the whole canvas
      return r;
    }
  }
  return new Rasterizer(width, height, antialias);
}

/** Return a rasterizer to the pool (dropped unless it was swept clean). */
export function releaseRasterizer(r: Rasterizer): void {
  if (!r.empty || pool.includes(r)) return;
  pool.push(r);
  if (pool.length > POOL_SIZE) pool.shift()!.dispose();
}

/** Source-over of premultiplied paint (r, g, b, a) times coverage c onto n RGBA pixels from float index p. */
function paintRun(d: Float32Array, p: number, n: number, r: number, g: number, b: number, a: number, c: number): void {
  if (c >= 1 && a >= 1) {
    // Opaque: the destination is replaced.
    if (n === 1) {
      d[p] = r;
      d[p + 1] = g;
      d[p + 2] = b;
      d[p + 3] = 1;
    } else fillPixels(d, p, n, r, g, b, 1);
    return;
  }
  const k = 1 - a * c;
  const cr = r * c;
  const cg = g * c;
  const cb = b * c;
  const ca = a * c;
  for (const e = p + n * 4; p < e; p += 4) {
    d[p] = cr + d[p]! * k;
    d[p + 1] = cg + d[p + 1]! * k;
    d[p + 2] = cb + d[p + 2]! * k;
    d[p + 3] = ca + d[p + 3]! * k;
  }
}

/** Set n RGBA pixels from float index p to one value (long runs by doubling native copies). */
export function fillPixels(d: Float32Array, p: number, n: number, r: number, g: number, b: number, a: number): void {
  if (n < 16) {
    for (const e = p + n * 4; p < e; p += 4) {
      d[p] = r;
      d[p + 1] = g;
      d[p + 2] = b;
      d[p + 3] = a;
    }
    return;
  }
  for (let k = 0; k < 4; k++) {
    const q = p + k * 4;
    d[q] = r;
    d[q + 1] = g;
    d[q + 2] = b;
    d[q + 3] = a;
  }
  const e = p + n * 4;
  for (let done = 16; p + done < e; done *= 2) d.copyWithin(p + done, p, Math.min(p + done * 2, e) - done);
}

/**
 * Premultiplied source-over of one colour times coverage onto a canvas raster. Set the paint, then
 * give it to Rasterizer.composite (run by run), or pass `span` to Rasterizer.sweep (span by span).
 */
export class Compositor implements RunSink {
  /** The paint, premultiplied (setColor). */
  r = 0;
  g = 0;
  b = 0;
  a = 0;
  /** Whether a run or row reached the canvas (paintedNothing, src/backends/cpu/uniform.ts). */
  painted = false;
  /**
   * Whether every pixel of the canvas holds the paint (r, g, b, 1): the last composite replaced each
   * one with the opaque paint at coverage 1 (a fill over the whole canvas: all land) and nothing was
   * painted since. Only Rasterizer.composite's area-coverage walk sets it; any other paint clears it.
   */
  covered = false;
  readonly span: SpanFn;

  constructor(
    readonly data: Float32Array,
    readonly width: number,
  ) {
    this.span = (y, x0, x1, cov, solid) => {
      const { r, g, b, a } = this;
      const d = this.data;
      let p = (y * this.width + x0) * 4;
      if (solid >= 0) {
        this.painted = true;
        this.covered = false;
        if (solid >= 1 && a >= 1) {
          // Opaque paint over a whole run: the destination is replaced.
          fillPixels(d, p, x1 - x0, r, g, b, 1);
          return;
        }
        const k = 1 - a * solid;
        const cr = r * solid;
        const cg = g * solid;
        const cb = b * solid;
        const ca = a * solid;
        for (let x = x0; x < x1; x++, p += 4) {
          d[p] = cr + d[p]! * k;
          d[p + 1] = cg + d[p + 1]! * k;
          d[p + 2] = cb + d[p + 2]! * k;
          d[p + 3] = ca + d[p + 3]! * k;
        }
        return;
      }
      let painted = false;
      for (let x = x0; x < x1; x++, p += 4) {
        const c = cov[x]!;
        if (c <= 0) continue;
        painted = true;
        const k = 1 - a * c;
        d[p] = r * c + d[p]! * k;
        d[p + 1] = g * c + d[p + 1]! * k;
        d[p + 2] = b * c + d[p + 2]! * k;
        d[p + 3] = a * c + d[p + 3]! * k;
      }
      if (painted) {
        this.painted = true; // a row of zero coverage (a ring off the canvas's left side) paints nothing
        this.covered = false;
      }
    };
  }

  /** One run of coverage c, painted (Rasterizer.composite). */
  run(y: number, x0: number, x1: number, c: number): void {
    this.painted = true;
    this.covered = false;
    paintRun(this.data, (y * this.width + x0) * 4, x1 - x0, this.r, this.g, this.b, this.a, c);
  }

  rowEnd(): void {}

  /** Paint from a straight-alpha sRGB colour and an extra opacity (stored premultiplied). */
  setColor(rgba: readonly number[], opacity = 1): void {
    const a = Math.max(0, Math.min(1, rgba[3]! * opacity));
    this.a = a;
    this.r = rgba[0]! * a;
    this.g = rgba[1]! * a;
    this.b = rgba[2]! * a;
  }

  get alpha(): number {
    return this.a;
  }
}
