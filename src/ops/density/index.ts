import { expr, nodeRef, num, numRef } from '../../style/fields.js';
import type { OpDef } from '../types.js';
import { gpu } from './gpu.js';
import { densityCpu } from './cpu.js';

/** Kernel-density estimate of point features. */
export const density: OpDef = {
  name: 'density',
  description: 'kernel-density estimate of point features (raw accumulated density)',
  output: 'scalar-field',
  inputs: { features: ['features'] },
  fields: {
    features: nodeRef(),
    intensity: numRef({ min: 0, default: 1 }),
    'intensity-expr': expr('number', 'per-group intensity factor, multiplied with intensity (ignored when not a number)'),
    radius: numRef({
      min: 0,
      default: 30,
      unit: 'px',
      description: 'kernel support in pixels',
    }),
    'radius-max': num({ min: 0, unit: 'px', description: 'bound of radius (an @node port) or radius-expr' }),
    'radius-expr': expr('number', 'per-group radius, clamped to the static bound', 'px'),
    'weight-expr': expr('number', 'per-group weight (1 when absent or not a number)'),
  },
  required: ['features'],
  paddingFields: ['radius'],
  pad: (bound) => Math.ceil(bound('radius') ?? 30),
  gpu,
  cpu: densityCpu,
};
