import { expr, int, nodeRef, num, numRef, oneOfEnum } from '../../style/fields.js';
import type { OpDef } from '../types.js';
import { gpu } from './gpu.js';
import { densityCpu } from './cpu.js';
import { densityPad } from './plan.js';

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
    cutoff: num({
      min: 0,
      max: 1,
      default: 0,
      description:
        "0: each point reaches its radius; > 0: each point reaches where its kernel falls to this value (MapLibre's heatmap: 1/4080), at most 2 radii",
    }),
    resolution: int({
      min: 1,
      max: 16,
      default: 1,
      unit: 'device-px',
      description: "the field is computed on a grid of cells this many pixels wide, anchored to world pixels, and read bilinearly (MapLibre's heatmap: 4)",
    }),
    'grid-anchor': {
      ...oneOfEnum(['world', 'window'], 'world'),
      description:
        "resolution > 1: cells from the world's origin (tiles continue each other), or from the requested window's corner (MapLibre's viewport; a tile's corner lies on the world grid, so tiles are the same)",
    },
  },
  required: ['features'],
  paddingFields: ['radius'],
  pad: (bound, _field, node) => densityPad(bound('radius') ?? 30, node),
  gpu,
  cpu: densityCpu,
};
