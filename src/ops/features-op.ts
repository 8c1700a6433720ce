// The declaration of a geometry op whose one input is the required node field `features` (bbox,
// boundary, convex-hull): features in, features out, run on the CPU for both backends.
import { nodeRef } from '../style/fields.js';
import type { Features } from '../types.js';
import type { OpContext, OpDef } from './types.js';

export function featuresOp(name: string, description: string, cpu: (input: Features, ctx: OpContext) => Features): OpDef {
  return {
    name,
    description,
    output: 'features',
    inputs: { features: ['features'] },
    fields: { features: nodeRef() },
    required: ['features'],
    cpu: (ctx) => cpu(ctx.input<'features'>('features'), ctx),
  };
}
