import { color } from '../../style/fields.js';
import type { OpDef } from '../types.js';
import { gpu } from './gpu.js';
import { solidCpu } from './cpu.js';

/** A canvas filled with one colour. */
export const solid: OpDef = {
  name: 'solid',
  description: 'fills the canvas with one colour',
  output: 'raster',
  inputs: {},
  fields: { color: color('the fill colour') },
  required: ['color'],
  gpu,
  cpu: solidCpu,
};
