// text on the GPU: the plan's shapes (./plan.ts: the same rings as the CPU fills) triangulated
// (earcut) and drawn with exact-area coverage (src/backends/gpu/area.ts), as fill-solid draws.
import { drawShapes } from '../../backends/gpu/area.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';
import { ShapeTriangles } from '../../backends/gpu/triangles.js';
import { textPlan } from './plan.js';

export const gpu: GpuOp = {
  async encode(g, ctx) {
    const { width: W, height: H } = ctx.canvas;
    const { shapes, placement } = await textPlan(ctx);
    ctx.publish?.(placement);
    const tris = new ShapeTriangles(W, H);
    for (const s of shapes) {
      const [x0, y0, x1, y1] = s.box;
      if (x1 <= 0 || y1 <= 0 || x0 >= W || y0 >= H) continue;
      // A plan's rings are never written (point labels' outlines are cached by the plan): their triangulation is kept.
      tris.addRings(s.rings, s.dx, s.dy, 1, true);
      tris.endShape(...s.rgba);
    }
    return drawShapes(g, tris, true);
  },
};
