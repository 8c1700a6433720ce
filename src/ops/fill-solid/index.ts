import { boolRef, color, expr, nodeRef, opacityRef } from '../../style/fields.js';
import type { OpDef } from '../types.js';
import { gpu } from './gpu.js';
import { fillSolidCpu } from './cpu.js';

/** Polygons filled with one colour (or a per-feature colour), anti-aliased. */
export const fillSolid: OpDef = {
  name: 'fill-solid',
  description: 'fills polygons, anti-aliased',
  output: 'raster',
  inputs: { features: ['features'] },
  fields: {
    features: nodeRef(),
    fill: color('fill colour (default #000000)'),
    'fill-alpha': opacityRef(),
    antialias: boolRef(true),
    'fill-expr': expr('color', 'per-feature fill colour; overrides fill'),
    'fill-alpha-expr': expr('number', 'per-feature alpha; overrides fill-alpha'),
  },
  required: ['features'],
  // A fill draws nothing outside its polygons; one pixel keeps edge pixels' neighbours sampled.
  pad: () => 1,
  paintsOnto: true,
  gpu,
  cpu: fillSolidCpu,
};
