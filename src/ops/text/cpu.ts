// text: the CPU kernel (the reference): every shape of the plan filled by the exact-area
// rasterizer, composited source-over in paint order.
import { Compositor, type Rasterizer, acquireRasterizer, releaseRasterizer } from '../../backends/cpu/rasterize.js';
import { newRaster } from '../../backends/cpu/raster.js';
import { paintedNothing, reportPaint } from '../../backends/cpu/uniform.js';
import type { Raster } from '../../types.js';
import type { OpContext } from '../types.js';
import { type TextShape, textPlan } from './plan.js';

/** The text op's CPU kernel. */
export async function textCpu(ctx: OpContext): Promise<Raster> {
  const { width: W, height: H } = ctx.canvas;
  const { shapes, placement } = await textPlan(ctx);
  ctx.publish?.(placement);
  const out = ctx.target ?? newRaster(W, H);
  if (!shapes.length) {
    paintedNothing(out.data, !!ctx.target);
    return out;
  }
  const rast = acquireRasterizer(W, H, true);
  const comp = new Compositor(out.data, W);
  for (const s of shapes) {
    const [x0, y0, x1, y1] = s.box;
    if (x1 <= 0 || y1 <= 0 || x0 >= W || y0 >= H) continue;
    [comp.r, comp.g, comp.b, comp.a] = s.rgba;
    rast.confine(x0, y0, x1, y1);
    addOnCanvas(rast, s, W, H);
    rast.composite(comp);
  }
  releaseRasterizer(rast);
  reportPaint(out.data, !!ctx.target, comp.painted);
  return out;
}

/**
 * rast.addRings(s.rings, s.dx, s.dy) without the rings that cannot reach the canvas: wholly above
 * or below it (every edge of such a ring is passed over before touching a cell or the rows'
 * bookkeeping), or a pixel or more right of it (its pieces are passed over without touching a
 * cell: the margin keeps the row walk's interpolated x, off by rounding, clear of the last column).
 * Rings left of the canvas add to their rows' first cells and stay. The same cells, added in the
 * same order, so the same pixels: a line label crossing the tile's edge adds only its glyphs here.
 */
function addOnCanvas(rast: Rasterizer, s: TextShape, W: number, H: number): void {
  const { count } = s.rings;
  const boxes = s.ringBoxes;
  if (!boxes) {
    rast.addRings(s.rings, s.dx, s.dy);
    return;
  }
  const { dx, dy } = s;
  // Each run of consecutive rings on the canvas in one call (a label inside the tile: one run).
  let run = 0;
  for (let k = 0; k < count; k++) {
    const b = k * 4;
    if (boxes[b + 3]! + dy <= 0 || boxes[b + 1]! + dy >= H || boxes[b]! + dx >= W + 1) {
      if (run < k) rast.addRings(s.rings, dx, dy, 1, run, k);
      run = k + 1;
    }
  }
  if (run < count) rast.addRings(s.rings, dx, dy, 1, run, count);
}
