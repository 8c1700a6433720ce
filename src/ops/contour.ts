import { nodeRef, numParam, numRef } from '../style/fields.js';
import type { OpDef } from './types.js';

/** Isolines of a scalar field by marching squares. */
export const contour: OpDef = {
  name: 'contour',
  description: 'isolines by marching squares, one feature group per level',
  output: 'features',
  inputs: { field: ['scalar-field'] },
  fields: {
    field: nodeRef(),
    interval: numRef({ exclusiveMin: 0 }),
    base: numRef({ default: 0 }),
    levels: { type: 'array', minItems: 1, items: numParam(), 'x-expect': 'an array of at least one number or $param' },
    min: numRef(),
    max: numRef(),
  },
  required: ['field'],
  check: (node) => (node.interval === undefined && node.levels === undefined ? [{ field: 'interval', message: "'interval' is required unless 'levels' is given" }] : []),
  planned: true,
};
