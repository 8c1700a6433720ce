// hillshade on the GPU: one pass (hillshade.wgsl) with the CPU's own terms (plan.ts) and the
// per-row inverse ground resolution computed on the CPU in f64 (y is a world pixel, too large for f32).
import { rowInverseResolution, shadeInputs } from './plan.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    if (ctx.node.method === 'maplibre') return undefined; // MapLibre's shading: the CPU kernel
    const src = g.input(ctx, 'field');
    const { width, height } = ctx.canvas;
    const { terms: t, colours: c } = shadeInputs(ctx);
    const out = g.output('raster', width, height);
    const u = g.uniforms('hillshade', {
      size: [width, height],
      multi: t.multidirectional ? 1 : 0,
      src,
      shadow: c.shadow,
      highlight: c.highlight,
      accent: c.accent,
      t0: [t.squareZ, t.sinAlt254, t.cosAzCosAltZ254, t.sinAzCosAltZ254],
      t1: [t.sinAlt127, t.cosAltZ127, t.cos225CosAltZ127, 0],
    });
    const inv = Float32Array.from(rowInverseResolution(ctx.canvas));
    g.dispatch2d('hillshade', { u, src: g.view(src), inv_res: g.storage(inv), dst: g.view(out) }, width, height);
    return out;
  },
};
