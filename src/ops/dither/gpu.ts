// dither on the GPU: the ordered and blue-noise methods are one pass (dither.wgsl) with the CPU's
// palette (its matching coordinates computed once on the CPU), threshold matrix and 8-bit reading.
// Floyd-Steinberg is serial (each pixel waits for the error of the pixels before it): it runs the
// CPU kernel.
import type { GpuOp } from '../../backends/gpu/encoder.js';
import { amountOf, matrixOf, resolvePalette } from './plan.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const matrix = matrixOf(ctx.node);
    if (!matrix) return undefined;
    const { width, height, x0, y0 } = ctx.canvas;
    const src = g.input(ctx, 'input');
    const p = resolvePalette(ctx);
    // Entries 0..n-1: matching coordinates; n..2n-1: output colours.
    const table = new Float32Array(p.size * 8);
    for (let i = 0; i < p.size; i++) {
      table.set(p.coords.subarray(i * 3, i * 3 + 3), i * 4);
      table.set(p.rgb.subarray(i * 3, i * 3 + 3), (p.size + i) * 4);
    }
    const mask = matrix.size - 1;
    const out = g.output('raster', width, height);
    const u = g.uniforms('dither', {
      size: [width, height],
      src,
      // World pixel x0 + x has matrix column ((x0 & mask) + x) & mask.
      phase: [x0 & mask, y0 & mask],
      msize: matrix.size,
      n: p.size,
      lab: p.space === 'lab' ? 1 : 0,
      amount: amountOf(ctx),
    });
    const ranks = g.storage(Uint32Array.from(matrix.ranks));
    g.dispatch2d('dither', { u, src: g.view(src), palette: g.storage(table), ranks, dst: g.view(out) }, width, height);
    return out;
  },
};
