import { color, expr, nodeRef, numRef } from '../style/fields.js';
import type { OpDef } from './types.js';

/** Filled disks at every feature point with per-feature paint. */
export const circles: OpDef = {
  name: 'circles',
  description: 'filled disks (and optional stroke rings) at every point',
  output: 'raster',
  inputs: { features: ['features'] },
  fields: {
    features: nodeRef(),
    color: color('fill colour'),
    radius: numRef({ min: 0, default: 5 }),
    opacity: numRef({ min: 0, max: 1, default: 1 }),
    'stroke-color': color('stroke colour'),
    'stroke-width': numRef({ min: 0, default: 0 }),
    'color-expr': expr('color'),
    'radius-expr': expr('number'),
    'opacity-expr': expr('number'),
    'stroke-color-expr': expr('color'),
    'stroke-width-expr': expr('number'),
  },
  required: ['features'],
  shader: 'circles.wgsl',
  planned: true,
};
