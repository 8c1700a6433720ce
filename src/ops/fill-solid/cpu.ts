// fill-solid: the CPU kernel (the reference).
import type { Raster } from '../../types.js';
import { Compositor, acquireRasterizer, emptyBox, growBox, releaseRasterizer } from '../../backends/cpu/rasterize.js';
import { newRaster } from '../../backends/cpu/raster.js';
import { markUniform, reportPaint } from '../../backends/cpu/uniform.js';
import type { OpContext } from '../types.js';
import { fillGroups, addPolygonRings } from './plan.js';

/** The fill-solid op's CPU kernel. */
export function fillSolidCpu(ctx: OpContext): Raster {
  const { width: W, height: H, x0, y0 } = ctx.canvas;
  const out = ctx.target ?? newRaster(W, H);
  const rast = acquireRasterizer(W, H, ctx.bool('antialias', true));
  const comp = new Compositor(out.data, W);
  const box = emptyBox();
  fillGroups(ctx, (g, paint) => {
    comp.setColor(paint);
    // Each group's cells packed in its own box (Rasterizer.confine).
    emptyBox(box);
    for (const poly of g.polygons) for (const ring of poly) growBox(box, ring);
    rast.confine(box[0]! - x0, box[1]! - y0, box[2]! - x0, box[3]! - y0);
    addPolygonRings(g, (ring, winding) => rast.addRing(ring, -x0, -y0, winding));
    rast.composite(comp);
  });
  releaseRasterizer(rast);
  reportPaint(out.data, !!ctx.target, comp.painted);
  // A fill over the whole canvas (all land) left its opaque paint in every pixel: marked, so the
  // blurs and blends downstream take their one-value paths (render.ts keeps a mark set on a fused
  // target). Known from the composite's count of replaced pixels: no scan of the canvas.
  if (comp.painted && comp.covered) markUniform(out.data, out.data.subarray(0, 4));
  return out;
}
