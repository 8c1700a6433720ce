// dither on the GPU: the ordered method is one pass (dither.wgsl) with the CPU's palette (its
// matching coordinates computed once on the CPU), Bayer matrix and 8-bit reading. Floyd-Steinberg
// is serial (each pixel waits for the error of the pixels before it): it runs the CPU kernel.
import { Uniforms } from '../../backends/gpu/uniforms.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';
import { amountOf, resolvePalette } from './plan.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    if (ctx.node.method !== 'ordered') return undefined;
    const { width, height, x0, y0 } = ctx.canvas;
    const src = g.input(ctx, 'input');
    const p = resolvePalette(ctx);
    // World pixel x0 + x has Bayer column (x0 & 3) + x & 3 (`&` keeps the low bits of any integer).
    // Entries 0..n-1: matching coordinates; n..2n-1: output colours.
    const table = new Float32Array(p.size * 8);
    for (let i = 0; i < p.size; i++) {
      table.set(p.coords.subarray(i * 3, i * 3 + 3), i * 4);
      table.set(p.rgb.subarray(i * 3, i * 3 + 3), (p.size + i) * 4);
    }
    const out = g.output('raster', width, height);
    const u = new Uniforms()
      .vec2u(width, height)
      .view(src)
      .vec2u(x0 & 3, y0 & 3)
      .u32s(p.size, p.space === 'lab' ? 1 : 0)
      .f32s(amountOf(ctx));
    g.dispatch2d('dither', [g.uniform(u), g.view(src), g.storage(table), g.view(out)], width, height);
    return out;
  },
};
