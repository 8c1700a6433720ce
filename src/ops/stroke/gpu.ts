// stroke on the GPU: the dabs of src/ops/stroke/plan.ts, binned by 16 px screen tiles; each pixel
// gathers the dabs of its bin in paint order, keeps the strongest dab of the current feature and
// composites it when the feature changes (src/ops/stroke/stroke.wgsl), as drawDabs does.
import { binBoxes } from '../../backends/gpu/shapes.js';
import { Uniforms } from '../../backends/gpu/uniforms.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';
import type { Brush } from '../../types.js';
import { dabReach, singleDabs, strokeDabs } from './plan.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const { width: W, height: H } = ctx.canvas;
    const d = strokeDabs(ctx, ctx.input<'brush'>('brush') as Brush);
    const one = singleDabs(d);
    // Per dab: cx, cy, r, strength, then the group's paint (r, g, b, a).
    const data = new Float32Array(Math.max(1, one.count) * 8);
    const boxes = new Float64Array(one.count * 4);
    for (let i = 0; i < one.count; i++) {
      const cx = one.geom[i * 4]!, cy = one.geom[i * 4 + 1]!, r = one.geom[i * 4 + 2]!;
      data.set(one.geom.subarray(i * 4, i * 4 + 4), i * 8);
      const gi = one.group[i]!;
      data.set(d.paints.subarray(gi * 4, gi * 4 + 4), i * 8 + 4);
      const reach = dabReach(r, d.round, d.aa);
      boxes[i * 4] = Math.floor(cx - reach);
      boxes[i * 4 + 1] = Math.floor(cy - reach);
      boxes[i * 4 + 2] = Math.ceil(cx + reach);
      boxes[i * 4 + 3] = Math.ceil(cy + reach);
    }
    const bins = binBoxes(W, H, boxes, one.count);
    const out = g.output('raster', W, H);
    const tip = d.tip;
    const u = new Uniforms()
      .vec2u(W, H)
      .u32s(bins.cols, d.round ? 1 : 0, d.tinted ? 1 : 0)
      .i32s(tip.width, tip.height)
      .f32s(d.hardness, d.aa, Math.max(tip.width, tip.height));
    g.dispatch2d('stroke', [
      g.uniform(u),
      g.view(out),
      g.storage(data),
      g.storage(one.count ? one.group : new Uint32Array(1)),
      g.storage(bins.starts),
      g.storage(bins.items),
      g.storage(tip.data),
    ], W, H);
    return out;
  },
};
