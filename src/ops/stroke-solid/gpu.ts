// stroke-solid on the GPU: the op's own outline pieces (./plan.ts strokeOutlines), convex rings
// fanned into triangles, drawn with exact-area coverage of their nonzero union
// (src/backends/gpu/area.ts).
import { strokeOutlines } from './plan.js';
import { ShapeTriangles } from '../../backends/gpu/triangles.js';
import { drawShapes } from '../../backends/gpu/area.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    // profile maplibre: the CPU kernel (./maplibre.ts: its triangles blend one after the other).
    if (ctx.node.profile === 'maplibre') return undefined;
    const { width: W, height: H, x0, y0 } = ctx.canvas;
    const shapes = new ShapeTriangles(W, H);
    strokeOutlines(ctx, (rings, [r, gr, b, a]) => {
      // Outline pieces are convex (Stroker with merged off): fanned as they are.
      shapes.addConvexRings(rings, -x0, -y0);
      shapes.endShape(r * a, gr * a, b * a, a);
    });
    return drawShapes(g, shapes, true);
  },
};
