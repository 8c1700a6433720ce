// Map-style expressions, evaluated by @maplibre/maplibre-gl-style-spec (never by hand).
import { expression, featureFilter } from '@maplibre/maplibre-gl-style-spec';
import type { RGBA } from '../types.js';

export type ExprType = 'number' | 'color' | 'filter' | 'ramp' | 'boolean' | 'string';

/** The feature view an expression sees. `type`: 1 point, 2 line, 3 polygon. */
export interface ExprFeature {
  type: 1 | 2 | 3;
  id?: number | string;
  properties: Record<string, unknown>;
}

export interface CompiledExpr {
  type: ExprType;
  /** Number, straight-alpha RGBA, boolean or string; `null` when the expression yields no value of its type. */
  evaluate(zoom: number, feature?: ExprFeature, heatmapDensity?: number): number | RGBA | boolean | string | null;
  featureConstant: boolean;
}

type Spec = Parameters<typeof expression.createExpression>[2];

const SPECS: Record<Exclude<ExprType, 'filter'>, Spec> = {
  number: { type: 'number', 'property-type': 'data-driven', expression: { interpolated: true, parameters: ['zoom', 'feature'] } } as Spec,
  color: { type: 'color', 'property-type': 'data-driven', expression: { interpolated: true, parameters: ['zoom', 'feature'] } } as Spec,
  boolean: { type: 'boolean', 'property-type': 'data-driven', expression: { interpolated: false, parameters: ['zoom', 'feature'] } } as Spec,
  string: { type: 'string', 'property-type': 'data-driven', expression: { interpolated: false, parameters: ['zoom', 'feature'] } } as Spec,
  ramp: { type: 'color', 'property-type': 'color-ramp', expression: { interpolated: true, parameters: ['heatmap-density'] } } as Spec,
};

/** Thrown by compile() with the style-spec's own messages. */
export class ExprError extends Error {}

interface MlColor {
  r: number;
  g: number;
  b: number;
  a: number;
}

function straight(c: MlColor): RGBA {
  // The style-spec's Color is premultiplied.
  return c.a > 0 ? [c.r / c.a, c.g / c.a, c.b / c.a, c.a] : [0, 0, 0, 0];
}

export function compileExpr(value: unknown, type: ExprType, rootKey: string): CompiledExpr {
  if (type === 'filter') {
    let f: ReturnType<typeof featureFilter>;
    try {
      // The format keeps a feature when the filter is truthy (["get", "mz"] with 1 or 3 keeps it);
      // the style-spec's filters take only `true`: an expression filter is read through to-boolean.
      const truthy = expression.isExpressionFilter(value) ? ['to-boolean', value] : value;
      f = featureFilter(truthy as Parameters<typeof featureFilter>[0], rootKey);
    } catch (e) {
      throw new ExprError((e as Error).message);
    }
    return {
      type,
      featureConstant: false,
      evaluate: (zoom, feature) => f.filter({ zoom } as never, (feature ?? { type: 1, properties: {} }) as never),
    };
  }
  let r: ReturnType<typeof expression.createExpression>;
  try {
    // A string field takes any value as text (a number property, a concat): read through to-string.
    r = expression.createExpression(type === 'string' ? ['to-string', value] : value, rootKey, SPECS[type]);
  } catch (e) {
    // The style-spec's parser looks operators up in a plain object: ["toString", ...] throws a TypeError.
    throw new ExprError(`not a valid expression (an unknown operator?): ${(e as Error)?.message ?? e}`);
  }
  if (r.result === 'error') {
    throw new ExprError(r.value.map((e) => `${e.key ? e.key + ': ' : ''}${e.message}`).join('; '));
  }
  const ex = r.value;
  const featureConstant = !JSON.stringify(value).match(/"(get|has|properties|feature-state|geometry-type|id|in)"/);
  return {
    type,
    featureConstant,
    evaluate(zoom, feature, heatmapDensity) {
      let v: unknown;
      try {
        // Without the library's error handling: it would console.warn on every failing feature.
        v = ex.evaluateWithoutErrorHandling({ zoom, heatmapDensity } as never, (feature ?? { type: 1, properties: {} }) as never);
      } catch {
        return null;
      }
      if (v === null || v === undefined) return null;
      if (type === 'number') return typeof v === 'number' && Number.isFinite(v) ? v : null;
      if (type === 'boolean') return typeof v === 'boolean' ? v : null;
      if (type === 'string') return typeof v === 'string' ? v : null;
      return typeof v === 'object' && v !== null && 'r' in v ? straight(v as MlColor) : null;
    },
  };
}
