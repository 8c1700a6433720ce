// text: the CPU kernel (the reference): every shape of the plan filled by the exact-area
// rasterizer, composited source-over in paint order.
import { Compositor, acquireRasterizer, releaseRasterizer } from '../../backends/cpu/rasterize.js';
import { newRaster } from '../../backends/cpu/raster.js';
import { paintedNothing } from '../../backends/cpu/uniform.js';
import type { Raster } from '../../types.js';
import type { OpContext } from '../types.js';
import { textPlan } from './plan.js';

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
    rast.addRings(s.rings, s.dx, s.dy);
    rast.composite(comp);
  }
  releaseRasterizer(rast);
  if (!comp.painted) paintedNothing(out.data, !!ctx.target);
  return out;
}
