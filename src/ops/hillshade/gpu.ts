// hillshade on the GPU: one pass (hillshade.wgsl) with the CPU's own terms (plan.ts) and the
// per-row inverse ground resolution computed on the CPU in f64 (y is a world pixel, too large for f32).
import { rowInverseResolution, shadeInputs } from './plan.js';
import { Uniforms } from '../../backends/gpu/uniforms.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    if (ctx.node.method === 'maplibre') return undefined; // MapLibre's shading: the CPU kernel
    const src = g.input(ctx, 'field');
    const { width, height } = ctx.canvas;
    const { terms: t, colours: c } = shadeInputs(ctx);
    const out = g.output('raster', width, height);
    const u = new Uniforms()
      .vec2u(width, height)
      .u32s(t.multidirectional ? 1 : 0)
      .view(src)
      .vec4f(...c.shadow)
      .vec4f(...c.highlight)
      .vec4f(...c.accent)
      .vec4f(t.squareZ, t.sinAlt254, t.cosAzCosAltZ254, t.sinAzCosAltZ254)
      .vec4f(t.sinAlt127, t.cosAltZ127, t.cos225CosAltZ127, 0);
    const inv = Float32Array.from(rowInverseResolution(ctx.canvas));
    g.dispatch2d('hillshade', [g.uniform(u), g.view(src), g.storage(inv), g.view(out)], width, height);
    return out;
  },
};
