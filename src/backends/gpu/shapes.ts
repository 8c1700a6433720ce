// CPU-side preparation of GPU drawing passes: edge lists of anti-aliased shapes (for the
// scanline kernel, the same rings the CPU Rasterizer gets) and screen bins of round items
// (circles, density splats) so that each pixel visits only the items that can reach it.
import type { RingSet } from '../cpu/rasterize.js';

/**
 * Shapes in paint order, each a run of edges with one premultiplied colour. Mirrors
 * Rasterizer.addRing: a ring's closing edge is implied, `sign` -1 is stored by reversing the
 * edge (the same signed area), horizontal and non-finite edges and edges above or below the
 * canvas are dropped.
 */
export class ShapeList {
  /** x0, y0, x1, y1 per edge, in canvas pixels. */
  edges = new Float32Array(4096);
  /** The shape of each edge. */
  edgeShape = new Uint32Array(1024);
  edgeCount = 0;
  /** Per shape: premultiplied r, g, b, a. */
  colors = new Float32Array(256);
  count = 0;
  private shapeStart = 0;

  constructor(readonly height: number) {}

  addRing(ring: ArrayLike<number>, dx = 0, dy = 0, sign = 1, from = 0, to = ring.length): void {
    if ((to - from) >> 1 < 2) return;
    let px = ring[to - 2]! + dx;
    let py = ring[to - 1]! + dy;
    for (let i = from; i < to; i += 2) {
      const x = ring[i]! + dx;
      const y = ring[i + 1]! + dy;
      if (sign >= 0) this.edge(px, py, x, y);
      else this.edge(x, y, px, py);
      px = x;
      py = y;
    }
  }

  addRings(set: RingSet, dx = 0, dy = 0, sign = 1): void {
    for (let k = 0; k < set.count; k++) this.addRing(set.coords, dx, dy, sign, set.starts[k]!, set.starts[k + 1]!);
  }

  private edge(x0: number, y0: number, x1: number, y1: number): void {
    // (x - x === 0) is false for NaN and infinities; no Math.* here: see rowIndex.
    if (y0 === y1 || x0 - x0 !== 0 || y0 - y0 !== 0 || x1 - x1 !== 0 || y1 - y1 !== 0) return;
    if ((y0 > y1 ? y0 : y1) <= 0 || (y0 < y1 ? y0 : y1) >= this.height) return; // the rasterizer skips these too
    if (this.edgeCount * 4 + 4 > this.edges.length) this.edges = grow(this.edges);
    if (this.edgeCount + 1 > this.edgeShape.length) this.edgeShape = grow(this.edgeShape);
    const e = this.edgeCount * 4;
    this.edges[e] = x0;
    this.edges[e + 1] = y0;
    this.edges[e + 2] = x1;
    this.edges[e + 3] = y1;
    this.edgeShape[this.edgeCount++] = this.count;
  }

  /** Close the shape made of the edges added since the last call; it paints `rgba` (premultiplied). */
  endShape(r: number, g: number, b: number, a: number): void {
    if (this.edgeCount > this.shapeStart && a > 0) {
      if (this.count * 4 + 4 > this.colors.length) this.colors = grow(this.colors);
      this.colors.set([r, g, b, a], this.count++ * 4);
    } else {
      this.edgeCount = this.shapeStart;
    }
    this.shapeStart = this.edgeCount;
  }

  /**
   * The edges reaching each row, in paint order (so a row meets its shapes one after the
   * other): row r's edges are rowEdges[rowStart[r] .. rowStart[r + 1]). Rows come from the
   * stored f32 coordinates, the ones the GPU computes with.
   */
  rowIndex(): { rowStart: Uint32Array; rowEdges: Uint32Array } {
    const H = this.height;
    const n = this.edgeCount;
    const e = this.edges;
    // First and last row of each edge, then a counting sort by row (stable: paint order kept).
    const rows = new Int32Array(n * 2);
    const rowStart = new Uint32Array(H + 1);
    // Integer arithmetic instead of Math.floor / Math.ceil: under jest (a vm context) Math.* calls
    // are not inlined and cost ~100x. Rows are clamped to [-1, H + 1] first, so | 0 is exact.
    for (let i = 0; i < n; i++) {
      const ya = e[i * 4 + 1]!;
      const yb = e[i * 4 + 3]!;
      let lo = ya < yb ? ya : yb;
      let hi = ya < yb ? yb : ya;
      lo = lo < 0 ? 0 : lo;
      hi = hi > H ? H : hi;
      const r0 = lo | 0; // floor, lo >= 0
      const hf = hi | 0;
      const r1 = (hf < hi ? hf + 1 : hf) - 1; // ceil(hi) - 1, hi >= 0
      rows[i * 2] = r0;
      rows[i * 2 + 1] = r1;
      for (let r = r0; r <= r1; r++) rowStart[r + 1]!++;
    }
    for (let r = 0; r < H; r++) rowStart[r + 1]! += rowStart[r]!;
    const rowEdges = new Uint32Array(rowStart[H]!);
    const fill = rowStart.slice(0, H);
    for (let i = 0; i < n; i++) {
      const r1 = rows[i * 2 + 1]!;
      for (let r = rows[i * 2]!; r <= r1; r++) rowEdges[fill[r]!++] = i;
    }
    return { rowStart, rowEdges };
  }
}

function grow<T extends Float32Array | Uint32Array>(a: T): T {
  const b = new (a.constructor as { new (n: number): T })(a.length * 2);
  b.set(a);
  return b;
}

/** Bin edge in pixels of screen bins (a multiple of the 8 x 8 workgroup). */
export const BIN = 16;

export interface Bins {
  cols: number;
  rows: number;
  /** Item list of bin b: items[starts[b] .. starts[b + 1]). */
  starts: Uint32Array;
  items: Uint32Array;
}

/**
 * Screen bins of items given by their pixel boxes [x0, y0, x1, y1] (inclusive pixel indices,
 * possibly off-canvas). Items keep their order inside each bin, so per-pixel sums and
 * composites run in the same order as the CPU kernels.
 */
export function binBoxes(width: number, height: number, boxes: Float64Array | Float32Array, count: number): Bins {
  const cols = Math.max(1, Math.ceil(width / BIN));
  const rows = Math.max(1, Math.ceil(height / BIN));
  const starts = new Uint32Array(cols * rows + 1);
  // Bin of a pixel index clamped to [0, last] (integer arithmetic: see ShapeList.rowIndex).
  const bin = (v: number, last: number) => {
    const b = v <= 0 ? 0 : (v / BIN) | 0;
    return b > last ? last : b;
  };
  const range = (i: number, out: Int32Array) => {
    out[0] = bin(boxes[i * 4]!, cols - 1);
    out[1] = bin(boxes[i * 4 + 1]!, rows - 1);
    out[2] = bin(boxes[i * 4 + 2]!, cols - 1);
    out[3] = bin(boxes[i * 4 + 3]!, rows - 1);
  };
  const r = new Int32Array(4);
  for (let i = 0; i < count; i++) {
    range(i, r);
    for (let by = r[1]!; by <= r[3]!; by++) for (let bx = r[0]!; bx <= r[2]!; bx++) starts[by * cols + bx + 1]!++;
  }
  for (let b = 0; b < cols * rows; b++) starts[b + 1]! += starts[b]!;
  const items = new Uint32Array(starts[cols * rows]!);
  const fill = starts.slice(0, cols * rows);
  for (let i = 0; i < count; i++) {
    range(i, r);
    for (let by = r[1]!; by <= r[3]!; by++) for (let bx = r[0]!; bx <= r[2]!; bx++) items[fill[by * cols + bx]!++] = i;
  }
  return { cols, rows, starts, items };
}
