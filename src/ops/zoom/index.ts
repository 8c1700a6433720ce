import type { OpDef } from '../types.js';

/** The tile zoom as a scalar. */
export const zoom: OpDef = {
  name: 'zoom',
  description: 'yields the zoom of the tile being rendered',
  output: 'scalar',
  inputs: {},
  fields: {},
  cpu: (ctx) => ({ kind: 'scalar', value: ctx.zoom }),
};
