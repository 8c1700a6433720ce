// fill-solid on the GPU: the op's own groups, rings and windings (src/ops/fill-solid.ts), rasterized
// by the scanline kernel.
import { addPolygonRings, fillGroups } from './plan.js';
import { ShapeList } from '../../backends/gpu/shapes.js';
import { drawShapes } from '../../backends/gpu/scanline.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const { width: W, height: H, x0, y0 } = ctx.canvas;
    const shapes = new ShapeList(H);
    fillGroups(ctx, (grp, [r, gr, b, a]) => {
      addPolygonRings(grp, (ring, winding) => shapes.addRing(ring, -x0, -y0, winding));
      shapes.endShape(r * a, gr * a, b * a, a);
    });
    return drawShapes(g, shapes, W, H, ctx.bool('antialias', true));
  },
};
