// circle on the GPU: the raster kind is one pass (circle.wgsl) with the CPU's centre, radius and
// fall-off. Sprites stay CPU values (small; their consumers upload them): kind 'sprite' runs the
// CPU kernel in both backends.
import type { GpuOp } from '../../backends/gpu/encoder.js';
import { disk, rasterGeometry } from './cpu.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    if (ctx.node.kind === 'sprite') return undefined;
    const { width, height } = ctx.canvas;
    const d = disk(ctx);
    const { cx, cy, radius, soft } = rasterGeometry(d, ctx);
    const out = g.output('raster', width, height);
    const u = g.uniforms('circle', { size: [width, height], centre: [cx, cy], color: d.color, radius, inv_soft: 1 / soft });
    g.dispatch2d('circle', { u, dst: g.view(out) }, width, height);
    return out;
  },
};
