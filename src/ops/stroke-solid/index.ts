import { bool, color, expr, nodeRef, num, numRef, oneOfEnum, opacityRef } from '../../style/fields.js';
import { strokeReach } from '../../geometry/stroke.js';
import { DEFAULT_SIZE_BOUND, sizeBound } from '../../expr/paint.js';
import type { OpDef } from '../types.js';
import { gpu } from './gpu.js';
import { strokeSolidCpu } from './cpu.js';
import { styleOf } from './plan.js';

/** Lines and polygon rings stroked at a constant (or per-feature) width, anti-aliased. */
export const strokeSolid: OpDef = {
  name: 'stroke-solid',
  description: 'strokes lines and polygon rings, anti-aliased',
  output: 'raster',
  inputs: { features: ['features'] },
  fields: {
    features: nodeRef(),
    width: numRef({ min: 0, default: 1, unit: 'px', description: 'line width in pixels' }),
    'width-max': num({
      min: 0,
      unit: 'px',
      description: 'bound of width (an @node port) or width-expr; larger values clamp to it',
    }),
    color: color('stroke colour (default #000000)'),
    opacity: opacityRef(),
    join: oneOfEnum(['miter', 'round', 'bevel'], 'miter'),
    cap: oneOfEnum(['butt', 'round', 'square'], 'butt'),
    'miter-limit': num({ min: 1, default: 2 }),
    offset: numRef({
      default: 0,
      unit: 'px',
      description: 'pixels to the right of the line direction',
    }),
    'width-expr': expr('number', 'per-feature width', 'px'),
    'color-expr': expr('color', 'per-feature colour'),
    'opacity-expr': expr('number', 'per-feature opacity'),
    'join-ends': {
      ...bool(false),
      description:
        "butt and square ends that meet another line's end (of this node) reach half the anti-aliasing width further, so lines meeting end to end join without a seam (MapLibre cuts those ends aliased)",
    },
  },
  required: ['features'],
  pad(bound, _field, node) {
    const { join, cap, miterLimit } = styleOf(node);
    const width = sizeBound(bound, node, 'width');
    const offset = node.offset === undefined ? 0 : (bound('offset') ?? DEFAULT_SIZE_BOUND);
    return Math.ceil(strokeReach(width, join, cap, miterLimit, offset));
  },
  paintsOnto: true,
  gpu,
  cpu: strokeSolidCpu,
};
