// stroke on the GPU: the dabs of src/ops/stroke/plan.ts (single dabs, and runs of alike dabs on a
// segment), binned by 16 px screen tiles; each pixel gathers the items of its bin in paint order,
// keeps the strongest dab of the current feature and composites it when the feature changes
// (src/ops/stroke/stroke.wgsl), as drawDabs does. A run costs a pixel one projection onto its
// segment (the nearest of its dabs), whatever the dab density.
import { binnedPass } from '../../backends/gpu/binned-pass.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';
import type { Brush } from '../../types.js';
import { dabReach, strokeDabs, type Dabs } from './plan.js';

/** Floats per item: geom (dab: cx, cy, r, strength | run: ax, ay, ux, uy), paint, run (d0, spacing, last index, r), extra (is run, strength, 0, 0). */
const ITEM = 16;

/** Longest piece of a run per item, pixels: a long diagonal run's box would cover many bins it never reaches. */
const RUN_PIECE_PX = 24;

/** Singles and runs (cut into pieces) merged in group order, with their groups and pixel boxes. */
function items(d: Dabs): { data: Float32Array; group: Uint32Array; boxes: Float64Array; count: number } {
  // A pixel takes the strongest of every piece that reaches it, so cutting a run changes nothing.
  const per = (ri: number) => Math.max(1, Math.floor(RUN_PIECE_PX / d.runs[ri * 9 + 5]!));
  let count = d.count;
  for (let ri = 0; ri < d.runCount; ri++) count += Math.ceil(d.runs[ri * 9 + 6]! / per(ri));
  const data = new Float32Array(Math.max(1, count) * ITEM);
  const group = new Uint32Array(Math.max(1, count));
  const boxes = new Float64Array(count * 4);
  let n = 0;
  let si = 0;
  let ri = 0;
  const box = (x0: number, y0: number, x1: number, y1: number, reach: number) => {
    boxes[n * 4] = Math.floor(Math.min(x0, x1) - reach);
    boxes[n * 4 + 1] = Math.floor(Math.min(y0, y1) - reach);
    boxes[n * 4 + 2] = Math.ceil(Math.max(x0, x1) + reach);
    boxes[n * 4 + 3] = Math.ceil(Math.max(y0, y1) + reach);
  };
  while (si < d.count || ri < d.runCount) {
    const o = n * ITEM;
    if (ri >= d.runCount || (si < d.count && d.group[si]! <= d.runGroup[ri]!)) {
      const g = d.group[si]!;
      const cx = d.geom[si * 4]!,
        cy = d.geom[si * 4 + 1]!,
        r = d.geom[si * 4 + 2]!;
      data.set(d.geom.subarray(si * 4, si * 4 + 4), o);
      data.set(d.paints.subarray(g * 4, g * 4 + 4), o + 4);
      box(cx, cy, cx, cy, dabReach(r, d.round, d.aa));
      group[n++] = g;
      si++;
      continue;
    }
    const q = ri * 9;
    const [ax, ay, ux, uy, d0, sp, cnt, r, m] = d.runs.subarray(q, q + 9) as unknown as number[];
    const g = d.runGroup[ri]!;
    const step = per(ri);
    for (let j = 0; j < cnt!; j += step) {
      const o = n * ITEM;
      const first = d0! + j * sp!;
      const last = Math.min(step, cnt! - j) - 1;
      data.set([ax!, ay!, ux!, uy!], o);
      data.set(d.paints.subarray(g * 4, g * 4 + 4), o + 4);
      data.set([first, sp!, last, r!, 1, m!, 0, 0], o + 8);
      const t1 = first + last * sp!;
      box(ax! + ux! * first, ay! + uy! * first, ax! + ux! * t1, ay! + uy! * t1, dabReach(r!, true, d.aa));
      group[n++] = g;
    }
    ri++;
  }
  return { data, group, boxes, count };
}

export const gpu: GpuOp = {
  encode(g, ctx) {
    const { width: W, height: H } = ctx.canvas;
    const d = strokeDabs(ctx, ctx.input<'brush'>('brush') as Brush);
    const it = items(d);
    const tip = d.tip;
    const uniforms = {
      round: d.round ? 1 : 0,
      tinted: d.tinted ? 1 : 0,
      tipW: tip.width,
      tipH: tip.height,
      hardness: d.hardness,
      aa: d.aa,
      tipSide: Math.max(tip.width, tip.height),
    };
    const buffers = { dabs: g.storage(it.data), groups: g.storage(it.group), sprite: g.storage(tip.data) };
    return binnedPass(g, 'stroke', g.output('raster', W, H), it, uniforms, buffers);
  },
};
