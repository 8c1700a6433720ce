import { str } from '../../style/fields.js';
import type { OpDef } from '../types.js';

/** Samples a raster elevation source (metres) as a scalar field for the node's canvas. */
export const dem: OpDef = {
  name: 'dem',
  description: 'samples a raster elevation source as a scalar field (metres)',
  output: 'scalar-field',
  inputs: {},
  fields: {
    source: str('dem source name; optional when exactly one dem source exists'),
  },
  cpu: async (ctx) => ctx.sources.demSource(ctx.node.source as string | undefined).field(ctx.canvas, ctx.signal),
};
