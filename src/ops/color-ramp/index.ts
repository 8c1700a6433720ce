import { colorParam, expr, nodeRef, numParam, oneOfEnum, opacityRef } from '../../style/fields.js';
import { COLOR_SPACES } from '../../backends/cpu/color.js';
import type { OpDef } from '../types.js';
import { gpu } from './gpu.js';
import { colorRampCpu } from './cpu.js';

/** Maps a scalar field (or a raster by luminance) to colour. */
export const colorRamp: OpDef = {
  name: 'color-ramp',
  description: 'maps a scalar field to colour through stops or a ramp expression',
  output: 'raster',
  inputs: { field: ['scalar-field', 'raster'] },
  fields: {
    field: nodeRef(),
    stops: {
      type: 'array',
      minItems: 2,
      items: {
        type: 'object',
        required: ['value', 'color'],
        additionalProperties: false,
        properties: { value: numParam(), color: colorParam() },
      },
      'x-expect': 'an array of at least 2 {value, color} stops',
    },
    'ramp-expr': expr('ramp', "expression over ['heatmap-density'], baked into a 256-entry table"),
    'ramp-sampling': {
      ...oneOfEnum(['entries', 'texture'], 'entries'),
      description: "ramp-expr: density t reads entry 255 t ('entries'), or entry 256 t - 0.5 as MapLibre samples its ramp texture ('texture')",
    },
    space: oneOfEnum(COLOR_SPACES, 'rgb'),
    opacity: opacityRef(),
  },
  required: ['field'],
  check: (node) =>
    node.stops === undefined && node['ramp-expr'] === undefined
      ? [
          {
            field: 'stops',
            message: "'stops' is required when 'ramp-expr' is absent",
          },
        ]
      : [],
  gpu,
  cpu: colorRampCpu,
};
