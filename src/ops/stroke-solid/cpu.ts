// stroke-solid: the CPU kernel (the reference).
import type { Raster } from '../../types.js';
import { Compositor, acquireRasterizer, emptyBox, growBox, releaseRasterizer } from '../../backends/cpu/rasterize.js';
import { newRaster } from '../../backends/cpu/raster.js';
import { reportPaint } from '../../backends/cpu/uniform.js';
import type { OpContext } from '../types.js';
import { strokeOutlines } from './plan.js';

/** The stroke-solid op's CPU kernel. */
export function strokeSolidCpu(ctx: OpContext): Raster {
  const { width: W, height: H, x0, y0 } = ctx.canvas;
  const out = ctx.target ?? newRaster(W, H);
  const rast = acquireRasterizer(W, H, true);
  const comp = new Compositor(out.data, W);
  const box = emptyBox();
  strokeOutlines(
    ctx,
    (rings, paint, _g, reach, points) => {
      comp.setColor(paint);
      // Each group's cells packed in its own box (Rasterizer.confine): the box of the group's
      // points (NaN where a coordinate is not finite: the whole canvas) grown by the outline's
      // reach (fewer points than the outline's), else the outline's.
      if (reach >= 0) {
        box[0] = points[0]! - reach;
        box[1] = points[1]! - reach;
        box[2] = points[2]! + reach;
        box[3] = points[3]! + reach;
      } else {
        emptyBox(box);
        growBox(box, rings.coords, 0, rings.starts[rings.count]);
      }
      rast.confine(box[0]! - x0, box[1]! - y0, box[2]! - x0, box[3]! - y0);
      rast.addRings(rings, -x0, -y0);
      rast.composite(comp);
    },
    true,
  );
  releaseRasterizer(rast);
  reportPaint(out.data, !!ctx.target, comp.painted);
  return out;
}
