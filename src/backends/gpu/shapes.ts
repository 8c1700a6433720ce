// CPU-side preparation of GPU drawing passes: screen bins of items (circles, density splats,
// brush dabs; fills and strokes bin their triangles in ./triangles.ts) so that each pixel visits
// only the items that can reach it.

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
  // Bin of a pixel index clamped to [0, last] (integer arithmetic: Math.* calls are slow under jest).
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
