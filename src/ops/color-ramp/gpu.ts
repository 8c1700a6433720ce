// color-ramp on the GPU: the CPU op's own baked tables (stopTables / exprTable of
// plan.ts) uploaded as a lookup texture, one pass (color-ramp.wgsl).
import { exprTable, resolveStops, stopTables } from './plan.js';
import type { ColorSpace } from '../../backends/cpu/color.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const { width, height } = ctx.canvas;
    const src = g.input(ctx, 'field');
    const opacity = Math.min(1, Math.max(0, ctx.num('opacity')));
    const ramp = ctx.expr('ramp-expr');
    const lut = ramp
      ? exprTable(ramp, ctx.zoom, ctx.node['ramp-sampling'] === 'texture')
      : stopTables(resolveStops(ctx), (ctx.node.space as ColorSpace | undefined) ?? 'rgb');
    const segs = lut.values.length - 1;
    const e = lut.ends;
    const out = g.output('raster', width, height);
    const u = g.uniforms('color-ramp', {
      size: [width, height],
      segs,
      is_raster: src.kind === 'raster' ? 1 : 0,
      src,
      first: e.slice(0, 4),
      last: e.slice(4, 8),
      opacity,
      premultiplied: lut.premultiplied ? 1 : 0,
      table_size: lut.size,
    });
    const values = g.storage(Float32Array.from(lut.values));
    g.dispatch2d('color-ramp', { u, src: g.view(src), table: g.table(lut.table, lut.size), values, dst: g.view(out) }, width, height);
    return out;
  },
};
