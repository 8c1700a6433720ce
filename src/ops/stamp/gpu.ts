// stamp on the GPU: the placements of src/ops/stamp/plan.ts binned by 16 px screen tiles; each
// pixel composites the stamps of its bin in order (src/ops/stamp/stamp.wgsl), as drawStamps does.
import { binnedPass } from '../../backends/gpu/binned-pass.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';
import { stampSprite } from './index.js';
import { stampPlan, stampReach } from './plan.js';

export const gpu: GpuOp = {
  async encode(g, ctx) {
    const { width: W, height: H } = ctx.canvas;
    const sprite = await stampSprite(ctx);
    const st = stampPlan(ctx, sprite);
    const data = new Float32Array(Math.max(1, st.count) * 8);
    const boxes = new Float64Array(st.count * 4);
    for (let i = 0; i < st.count; i++) {
      const [cx, cy, s, op, cos, sin] = st.data.subarray(i * 6, i * 6 + 6) as unknown as number[];
      data.set([cx!, cy!, 1 / s!, op!, cos!, sin!, 0, 0], i * 8);
      const reach = stampReach(sprite, s!);
      boxes.set([Math.floor(cx! - reach), Math.floor(cy! - reach), Math.ceil(cx! + reach), Math.ceil(cy! + reach)], i * 4);
    }
    const buffers = { stamps: g.storage(data), sprite: g.storage(sprite.data) };
    return binnedPass(g, 'stamp', g.output('raster', W, H), { boxes, count: st.count }, { sw: sprite.width, sh: sprite.height }, buffers);
  },
};
