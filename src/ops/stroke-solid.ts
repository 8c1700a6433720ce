import { color, expr, nodeRef, numRef, oneOfEnum, num } from '../style/fields.js';
import type { OpDef } from './types.js';

/** Lines and polygon rings stroked at a constant (or per-feature) width, anti-aliased. */
export const strokeSolid: OpDef = {
  name: 'stroke-solid',
  description: 'strokes lines and polygon rings, anti-aliased',
  output: 'raster',
  inputs: { features: ['features'] },
  fields: {
    features: nodeRef(),
    width: numRef({ min: 0, default: 1, description: 'line width in pixels' }),
    'width-max': num({ min: 0, description: 'bound of width when it is an @node port' }),
    color: color('stroke colour'),
    opacity: numRef({ min: 0, max: 1, default: 1 }),
    join: oneOfEnum(['miter', 'round', 'bevel'], 'miter'),
    cap: oneOfEnum(['butt', 'round', 'square'], 'butt'),
    'miter-limit': num({ min: 1, default: 2 }),
    offset: numRef({ default: 0, description: 'pixels to the right of the line direction' }),
    'width-expr': expr('number', 'per-feature width'),
    'color-expr': expr('color', 'per-feature colour'),
    'opacity-expr': expr('number', 'per-feature opacity'),
  },
  required: ['features'],
  shader: 'stroke-solid.wgsl',
  planned: true,
};
