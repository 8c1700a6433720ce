// color-ramp on the GPU: the CPU op's own baked tables (stopTables / exprTable of
// plan.ts) uploaded as a lookup texture, one pass (color-ramp.wgsl).
import { exprTable, resolveStops, stopTables } from './plan.js';
import type { ColorSpace } from '../../backends/cpu/color.js';
import { Uniforms } from '../../backends/gpu/uniforms.js';
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
    const u = new Uniforms()
      .vec2u(width, height)
      .u32s(segs, src.kind === 'raster' ? 1 : 0)
      .view(src)
      .vec4f(e[0]!, e[1]!, e[2]!, e[3]!)
      .vec4f(e[4]!, e[5]!, e[6]!, e[7]!)
      .f32s(opacity)
      .u32s(lut.premultiplied ? 1 : 0)
      .i32s(lut.size);
    g.dispatch2d('color-ramp', [g.uniform(u), g.view(src), g.table(lut.table, lut.size), g.storage(Float32Array.from(lut.values)), g.view(out)], width, height);
    return out;
  },
};
