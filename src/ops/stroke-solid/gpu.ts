// stroke-solid on the GPU: the op's own outline rings (src/ops/stroke-solid.ts strokeOutlines),
// filled by the scanline kernel.
import { strokeOutlines } from './plan.js';
import { ShapeList } from '../../backends/gpu/shapes.js';
import { drawShapes } from '../../backends/gpu/scanline.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const { width: W, height: H, x0, y0 } = ctx.canvas;
    const shapes = new ShapeList(H);
    strokeOutlines(ctx, (rings, [r, gr, b, a]) => {
      shapes.addRings(rings, -x0, -y0);
      shapes.endShape(r * a, gr * a, b * a, a);
    });
    return drawShapes(g, shapes, W, H, true, 'stroke-solid');
  },
};
