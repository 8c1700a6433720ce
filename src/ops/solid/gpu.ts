// solid on the GPU: one pass writing the premultiplied colour (solid.wgsl).
import type { GpuOp } from '../../backends/gpu/encoder.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const [r, gr, b, a] = ctx.color('color');
    const { width, height } = ctx.canvas;
    const out = g.output('raster', width, height);
    const u = g.uniforms('solid', { size: [width, height], color: [r * a, gr * a, b * a, a] });
    g.dispatch2d('solid', { u, dst: g.view(out) }, width, height);
    return out;
  },
};
