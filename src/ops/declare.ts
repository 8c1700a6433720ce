// Declarations of the ops whose main input is a node field named by convention: `features`
// (geometry and paint ops) or `input` (raster filters). The op declares its own fields once; the
// helper adds the input field (a required `@node`), its `inputs` entry and the output kind.
import { nodeRef } from '../style/fields.js';
import type { Kind } from '../types.js';
import type { OpDef } from './types.js';

/** An op's declaration less its output kind and its conventional input, which the helpers below add. */
export type OpBody = Omit<OpDef, 'output' | 'inputs' | 'fields'> & {
  /** Its other `@node` inputs (stroke's `brush`), with the kinds each accepts. */
  inputs?: OpDef['inputs'];
  /** Its other fields (none for bbox). */
  fields?: OpDef['fields'];
};

function withInput(field: string, kind: Kind, output: Kind, op: OpBody): OpDef {
  return {
    ...op,
    output,
    inputs: { [field]: [kind], ...op.inputs },
    fields: { [field]: nodeRef(), ...op.fields },
    required: [field, ...(op.required ?? [])],
  };
}

/** A geometry op: features in at `features`, features out; it runs on the CPU for both backends. */
export const featuresOp = (op: OpBody): OpDef => withInput('features', 'features', 'features', op);

/** A paint op: features in at `features`, drawn onto a raster. */
export const paintOp = (op: OpBody): OpDef => withInput('features', 'features', 'raster', op);

/** A raster filter: a raster in at `input`, a raster out. */
export const filterOp = (op: OpBody): OpDef => withInput('input', 'raster', 'raster', op);
