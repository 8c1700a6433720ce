import type { OpDef } from '../types.js';

/** A call of a user-defined function; the graph builder inlines it, so it never runs. */
export const func: OpDef = {
  name: 'func',
  description: 'calls a function of the style: its body is inlined with the given inputs',
  // The call's kind is its function's output-kind; the builder inlines the body, so this never runs.
  output: () => 'raster',
  inputs: {},
  fields: {
    function: { type: 'string', description: "name of the function in the style's functions block" },
    inputs: { type: 'object', description: 'input name to value, @node or $param; missing inputs take the function default' },
  },
  required: ['function'],
};
