// Ops of the format that this version validates but does not render yet. Building a graph that
// uses one fails with a clear message; each moves to its own module when it is implemented.
import { bool, color, expr, int, nodeRef, num, numRef, oneOfEnum, str, colorParam, type Schema } from '../style/fields.js';
import type { Kind } from '../types.js';
import type { NodeSpec, OpDef } from './types.js';

function planned(name: string, description: string, output: OpDef['output'], inputs: Record<string, readonly Kind[]>, fields: Record<string, Schema>, required: string[], extra: Partial<OpDef> = {}): OpDef {
  return { name, description, output, inputs, fields, required, planned: true, ...extra };
}

const F = ['features'] as const;
const R = ['raster'] as const;

export const PLANNED: OpDef[] = [
];

