import { RenderError } from '../../errors.js';
import { numRef, oneOfEnum } from '../../style/fields.js';
import type { OpDef } from '../types.js';

const BINARY: Record<string, (a: number, b: number) => number> = {
  add: (a, b) => a + b,
  sub: (a, b) => a - b,
  mul: (a, b) => a * b,
  div: (a, b) => a / b,
  min: Math.min,
  max: Math.max,
  pow: Math.pow,
  mod: (a, b) => a % b,
  atan2: Math.atan2,
};
const UNARY: Record<string, (a: number) => number> = {
  abs: Math.abs,
  neg: (a) => -a,
  sqrt: Math.sqrt,
  floor: Math.floor,
  ceil: Math.ceil,
  round: Math.round,
};

/** Arithmetic on scalars: combine params and zoom without an expression language. */
export const math: OpDef = {
  name: 'math',
  description: 'a scalar from one or two scalar operands',
  output: 'scalar',
  inputs: {},
  fields: {
    fn: oneOfEnum([...Object.keys(BINARY), ...Object.keys(UNARY)]),
    a: numRef(),
    b: numRef(),
  },
  required: ['fn', 'a'],
  check(node) {
    const fn = String(node.fn);
    return BINARY[fn] && node.b === undefined ? [{ field: 'b', message: `math '${fn}' takes two operands; 'b' is missing` }] : [];
  },
  cpu(ctx) {
    const fn = String(ctx.node.fn);
    const a = ctx.num('a');
    const r = UNARY[fn] ? UNARY[fn]!(a) : BINARY[fn]!(a, ctx.num('b'));
    if (!Number.isFinite(r)) throw new RenderError(`node '${ctx.id}': math '${fn}' gave ${r}`);
    return { kind: 'scalar', value: r };
  },
};
