import { int, numRef, oneOfEnum } from '../../style/fields.js';
import type { Canvas, Raster, ScalarField } from '../../types.js';
import { NOISE_WASM_MAX_PIXELS, NOISE_WASM_MAX_WIDTH } from './wasm.js';
import type { NodeSpec, OpDef } from '../types.js';
import { noise as run } from './cpu.js';
import { MAX_OCTAVES, noiseInputs } from './plan.js';
import { gpu } from './gpu.js';

/** World-anchored fBm noise: a field in [0, 1], or an opaque raster whose R, G, B are independent noises. */
export const noise: OpDef = {
  name: 'noise',
  description:
    'world-anchored fractal noise (value or simplex) in [0, 1]: a scalar field, or an opaque raster whose R, G and B are three independent noises (a displacement source for displace); continues across tiles and across the antimeridian',
  output: (n: NodeSpec) => (n.output === 'raster' ? 'raster' : 'scalar-field'),
  inputs: {},
  fields: {
    'scale-px': numRef({ exclusiveMin: 0, default: 64, unit: 'px', description: 'lattice spacing of the first octave, in pixels at the tile zoom' }),
    octaves: int({ min: 1, max: MAX_OCTAVES, default: 1, description: 'octaves of fBm, each twice the frequency and half the weight of the last' }),
    seed: int({ min: 0, default: 0, description: 'reshuffles the lattice' }),
    kind: oneOfEnum(['value', 'simplex'], 'value'),
    output: oneOfEnum(['field', 'raster'], 'field'),
  },
  required: [],
  // The WebAssembly simplex octaves compute runs of pixels (wasm.ts) on the canvases they take;
  // value noise computes every pixel (its lattice lines are shared by whole rows), so it asks for no demand.
  honoursDemand: (n: NodeSpec, c?: Canvas) => n.kind === 'simplex' && (!c || (c.width * c.height <= NOISE_WASM_MAX_PIXELS && c.width <= NOISE_WASM_MAX_WIDTH)),
  gpu,
  cpu(ctx) {
    const { width, height } = ctx.canvas;
    const { plan, seed, raster } = noiseInputs(ctx);
    // A raster whose readers read no B (displaces: PlanNode.channelsRead) computes R and G only.
    // Only the pixels its readers can see where they said which (OpContext.demand: terrain's
    // `wobble-field` near the contours its displace moves), the others +0.
    const data = run(plan, seed, raster, raster ? (ctx.channels !== undefined && !(ctx.channels & 4) ? 2 : 3) : 1, ctx.demand);
    return raster ? ({ kind: 'raster', width, height, data } satisfies Raster) : ({ kind: 'scalar-field', width, height, data } satisfies ScalarField);
  },
};
