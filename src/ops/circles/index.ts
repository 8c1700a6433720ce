import { color, expr, nodeRef, num, numRef, opacityRef } from '../../style/fields.js';
import { sizeBound } from '../../expr/paint.js';
import type { OpDef } from '../types.js';
import { gpu } from './gpu.js';
import { circlesCpu } from './cpu.js';

/**
 * Filled disks at every feature point with per-feature paint. Coverage is analytic:
 * clamp(r - d + 0.5, 0, 1) with d from the pixel centre. The stroke ring lies outside the fill
 * (MapLibre's convention): fill from 0 to r, ring from r to r + stroke-width.
 */
export const circles: OpDef = {
  name: 'circles',
  description: 'filled disks (and optional stroke rings) at every point',
  output: 'raster',
  inputs: { features: ['features'] },
  fields: {
    features: nodeRef(),
    color: color('fill colour (default #000000)'),
    radius: numRef({ min: 0, default: 5, unit: 'px' }),
    'radius-max': num({
      min: 0,
      unit: 'px',
      description: 'bound of radius (an @node port) or radius-expr; larger values clamp to it',
    }),
    opacity: opacityRef(),
    'stroke-color': color('stroke colour (default #000000)'),
    'stroke-width': numRef({ min: 0, default: 0, unit: 'px' }),
    'stroke-width-max': num({
      min: 0,
      unit: 'px',
      description: 'bound of stroke-width (an @node port) or stroke-width-expr',
    }),
    'color-expr': expr('color'),
    'radius-expr': expr('number', undefined, 'px'),
    'opacity-expr': expr('number'),
    'stroke-color-expr': expr('color'),
    'stroke-width-expr': expr('number', undefined, 'px'),
  },
  required: ['features'],
  // Points this far outside the canvas still reach into it (+0.5: the anti-aliased rim).
  pad: (bound, _field, node) => Math.ceil(sizeBound(bound, node, 'radius') + sizeBound(bound, node, 'stroke-width') + 0.5),
  paintsOnto: true,
  gpu,
  cpu: circlesCpu,
};
