// fill-solid on the GPU: the op's own groups, rings and windings (./plan.ts), triangulated
// (earcut) and drawn with exact-area coverage (src/backends/gpu/area.ts).
import { addPolygonRings, fillGroups } from './plan.js';
import { ShapeTriangles } from '../../backends/gpu/triangles.js';
import { drawShapes } from '../../backends/gpu/area.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const { width: W, height: H, x0, y0 } = ctx.canvas;
    const shapes = new ShapeTriangles(W, H);
    fillGroups(ctx, (grp, [r, gr, b, a]) => {
      shapes.addGroup(grp, addPolygonRings, -x0, -y0);
      shapes.endShape(r * a, gr * a, b * a, a);
    });
    return drawShapes(g, shapes, ctx.bool('antialias', true));
  },
};
