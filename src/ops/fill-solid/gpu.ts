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
    const rings: Float64Array[] = [];
    const windings: number[] = [];
    fillGroups(ctx, (grp, [r, gr, b, a]) => {
      // One polygon at a time: earcut takes an exterior with its holes.
      for (const poly of grp.polygons) {
        rings.length = windings.length = 0;
        addPolygonRings({ ...grp, polygons: [poly] }, (ring, winding) => {
          rings.push(ring);
          windings.push(winding);
        });
        if (rings.length) shapes.addPolygon(rings, windings, -x0, -y0);
      }
      shapes.endShape(r * a, gr * a, b * a, a);
    });
    return drawShapes(g, shapes, ctx.bool('antialias', true));
  },
};
