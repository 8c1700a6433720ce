import { nodeRef, num, numRef, oneOfEnum } from '../../style/fields.js';
import type { Raster } from '../../types.js';
import { filterOp } from '../declare.js';
import { displace as run, displaceUniform } from './cpu.js';
import { displaceDemand } from './demand.js';
import { displacePlan, inputPad } from './plan.js';
import { gpu } from './gpu.js';

/** Reads input at offsets from a displacement raster's R/G (src/ops/displace/plan.ts); pad = amplitude bound + 1. */
export const displace = filterOp({
  name: 'displace',
  description:
    'output pixel reads input (bilinear) at an offset ((R - A/2) 2 amp-x-px, (G - A/2) 2 amp-y-px) from the premultiplied displacement at that pixel: 0.5 opaque is no offset, transparent is none; boundary rules reads past the world edges',
  inputs: { displacement: ['raster'] },
  fields: {
    displacement: nodeRef('a raster whose R and G give the x and y offsets (0.5 = none)'),
    'amp-px': numRef({ min: 0, unit: 'px', description: 'largest offset in pixels, both axes' }),
    'amp-x-px': numRef({ min: 0, unit: 'px', description: 'largest x offset (overrides amp-px)' }),
    'amp-y-px': numRef({ min: 0, unit: 'px', description: 'largest y offset (overrides amp-px)' }),
    'amp-px-max': num({ min: 0, unit: 'px', description: 'bound of amp-px when it is an @node port' }),
    'amp-x-px-max': num({ min: 0, unit: 'px', description: 'bound of amp-x-px when it is an @node port' }),
    'amp-y-px-max': num({ min: 0, unit: 'px', description: 'bound of amp-y-px when it is an @node port' }),
    boundary: oneOfEnum(['clamp', 'transparent', 'mirror'], 'clamp'),
  },
  required: ['displacement', 'amp-px'],
  paddingFields: ['amp-px', 'amp-x-px', 'amp-y-px'],
  pad: (b, field) => (field === 'input' ? inputPad(b) : 0),
  // A read lies within the amplitude (ceil(amp) + 1 with the bilinear neighbour), and the bound
  // places nothing but the input's pad (displacePlan).
  valueBound: (_field, amp) => Math.max(0, amp),
  // The offsets come from R, G and A of the displacement; its B is never read.
  readsChannels: (field) => (field === 'displacement' ? 1 | 2 | 8 : undefined),
  // Its displacement matters only near where the input varies (demand.ts): a noise read only by
  // displaces computes just those pixels once their inputs are drawn (src/graph/demand.ts).
  demandFrom: (field) => (field === 'displacement' ? ['input'] : undefined),
  demand: displaceDemand,
  gpu,
  cpu(ctx) {
    const p = displacePlan(ctx);
    const src = ctx.input<'raster'>('input');
    const disp = ctx.input<'raster'>('displacement');
    const { width, height } = ctx.canvas;
    // An input marked +0 everywhere (open sea under a land fill) displaces to +0, marked.
    const data = displaceUniform(src.data, disp.data, width, height) ?? run(src.data, src.width, src.height, disp.data, width, height, p);
    return { kind: 'raster', width, height, data } satisfies Raster;
  },
});
