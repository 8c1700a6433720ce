import { RenderError } from '../../errors.js';
import { oneOfEnum } from '../../style/fields.js';
import type { OpDef } from '../types.js';

/** A map-style expression evaluated once per tile (zoom in context), e.g. a zoom curve. */
export const expr: OpDef = {
  name: 'expr',
  description: 'evaluates a map-style expression once per tile and emits a scalar',
  output: 'scalar',
  inputs: {},
  fields: {
    // The expression's type comes from `type`, so the field is compiled by the op (see check).
    expr: { description: 'the map-style expression (zoom is in context)' },
    type: oneOfEnum(['number', 'color', 'bool'], 'number'),
  },
  required: ['expr'],
  scalarType: (node) => (node.type === 'color' ? 'color' : node.type === 'bool' ? 'bool' : 'number'),
  check(node) {
    return compileProblems(node);
  },
  cpu(ctx) {
    const c = compiled(ctx.node);
    const v = c.evaluate(ctx.zoom);
    if (v === null || typeof v === 'string')
      throw new RenderError(`node '${ctx.id}': the expression yields no ${String(ctx.node.type ?? 'number')} at zoom ${ctx.zoom}`);
    return { kind: 'scalar', value: v };
  },
};

import { compileExpr, ExprError, type CompiledExpr } from '../../expr/index.js';

const cache = new WeakMap<object, CompiledExpr>();

function compiled(node: Record<string, unknown>): CompiledExpr {
  let c = cache.get(node);
  if (!c) {
    const t = String(node.type ?? 'number');
    c = compileExpr(node.expr, t === 'bool' ? 'boolean' : (t as 'number' | 'color'), 'expr');
    cache.set(node, c);
  }
  return c;
}

function compileProblems(node: Record<string, unknown>): { field: string; message: string }[] {
  try {
    const c = compiled(node);
    if (!c.featureConstant) return [{ field: 'expr', message: 'an expr node is evaluated once per tile; it cannot read feature properties' }];
    return [];
  } catch (e) {
    if (e instanceof ExprError) return [{ field: 'expr', message: `invalid ${String(node.type ?? 'number')} expression: ${e.message}` }];
    throw e;
  }
}
