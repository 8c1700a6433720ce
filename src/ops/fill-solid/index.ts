import { boolRef, color, expr, opacityRef } from '../../style/fields.js';
import { paintOp } from '../declare.js';
import { gpu } from './gpu.js';
import { fillSolidCpu } from './cpu.js';

/** Polygons filled with one colour (or a per-feature colour), anti-aliased. */
export const fillSolid = paintOp({
  name: 'fill-solid',
  description: 'fills polygons, anti-aliased',
  fields: {
    fill: color('fill colour (default #000000)'),
    'fill-alpha': opacityRef(),
    antialias: boolRef(true),
    'fill-expr': expr('color', 'per-feature fill colour; overrides fill'),
    'fill-alpha-expr': expr('number', 'per-feature alpha; overrides fill-alpha'),
  },
  // A fill draws nothing outside its polygons; one pixel keeps edge pixels' neighbours sampled.
  pad: () => 1,
  paintsOnto: true,
  gpu,
  cpu: fillSolidCpu,
});
