// stroke-solid: the CPU kernel (the reference).
import type { Raster } from '../../types.js';
import { Compositor, acquireRasterizer, emptyBox, growBox, releaseRasterizer } from '../../backends/cpu/rasterize.js';
import { newRaster } from '../../backends/cpu/raster.js';
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
    (rings, paint) => {
      comp.setColor(paint);
      // Each group's cells packed in its own box (Rasterizer.confine).
      growBox(emptyBox(box), rings.coords, 0, rings.starts[rings.count]);
      rast.confine(box[0]! - x0, box[1]! - y0, box[2]! - x0, box[3]! - y0);
      rast.addRings(rings, -x0, -y0);
      rast.composite(comp);
    },
    true,
  );
  releaseRasterizer(rast);
  return out;
}
