// MapLibre property values, classified as the style-spec classifies them (constant, zoom-only
// "camera", data-driven "source"/"composite") and written into our fields: a literal, a `*-expr`
// field, or an `expr` node wired with `@node`.
import { Color, createPropertyExpression, isExpression, latest } from '@maplibre/maplibre-gl-style-spec';
import type { NodeSpec } from '../ops/types.js';

type PropSpec = Record<string, unknown> & { type: string; default?: unknown; 'property-type'?: string };

/** A property's spec entry (`latest.paint_fill['fill-color']`), or undefined for an unknown one. */
export function propSpec(layerType: string, group: 'paint' | 'layout', prop: string): PropSpec | undefined {
  const table = (latest as unknown as Record<string, Record<string, PropSpec> | undefined>)[`${group}_${layerType}`];
  return table?.[prop];
}

/** Every property the spec defines for a layer type, by group. */
export function specProps(layerType: string, group: 'paint' | 'layout'): string[] {
  const table = (latest as unknown as Record<string, Record<string, unknown> | undefined>)[`${group}_${layerType}`];
  return table ? Object.keys(table) : [];
}

export type PropValue =
  /** The same value everywhere (MapLibre's spec default when the layer does not set it). */
  | { kind: 'constant'; value: unknown; set: boolean }
  /** Depends on the zoom only. */
  | { kind: 'camera'; expr: unknown }
  /** Depends on feature properties (and maybe the zoom). */
  | { kind: 'data'; expr: unknown; zoom: boolean };

export class PropError extends Error {}

/** Classify a (migrated) property value against its spec. Throws PropError for an invalid one. */
export function classify(value: unknown, spec: PropSpec, key: string): PropValue {
  if (value === undefined) return { kind: 'constant', value: evaluateConstant(spec.default, spec, key), set: false };
  if (!isExpression(value)) return { kind: 'constant', value: evaluateConstant(value, spec, key), set: true };
  const r = createPropertyExpression(value, key, spec as never);
  if (r.result === 'error') throw new PropError(r.value.map((e) => e.message).join('; '));
  const kind = (r.value as { kind: string }).kind;
  if (kind === 'constant') {
    const v = (r.value as { evaluate(g: unknown): unknown }).evaluate({ zoom: 0 });
    return { kind: 'constant', value: plain(v), set: true };
  }
  if (kind === 'camera') return { kind: 'camera', expr: value };
  return { kind: 'data', expr: value, zoom: kind === 'composite' };
}

function evaluateConstant(value: unknown, spec: PropSpec, key: string): unknown {
  if (value === undefined) return undefined;
  if (spec.type === 'colorArray' && Array.isArray(value)) return evaluateConstant(value[0], { ...spec, type: 'color' }, key);
  if (spec.type === 'numberArray' && Array.isArray(value)) return value[0];
  if ((spec.type === 'color' || spec.type === 'colorArray') && typeof value === 'string') {
    const c = Color.parse(value);
    if (!c) throw new PropError(`${key}: '${value}' is not a colour`);
    return plain(c);
  }
  return value; // an expression default (heatmap-color) stays an expression
}

/** The style-spec's values as plain JSON: a Color becomes '#rrggbbaa'. */
function plain(v: unknown): unknown {
  if (v instanceof Color) return hex(v);
  // ColorArray / NumberArray (multidirectional hillshade): the first value.
  if (v && typeof v === 'object' && Array.isArray((v as { values?: unknown }).values)) return plain((v as { values: unknown[] }).values[0]);
  if (v && typeof v === 'object' && 'r' in v && 'g' in v && 'b' in v && 'a' in v) return hex(v as Color);
  return v;
}

/** A style-spec Color (premultiplied) as straight '#rrggbbaa' (or '#rrggbb' when opaque). */
export function hex(c: { r: number; g: number; b: number; a: number }): string {
  const a = c.a;
  const ch = (x: number) =>
    Math.round(Math.min(1, Math.max(0, a > 0 ? x / a : 0)) * 255)
      .toString(16)
      .padStart(2, '0');
  const alpha = Math.round(Math.min(1, Math.max(0, a)) * 255);
  return `#${ch(c.r)}${ch(c.g)}${ch(c.b)}${alpha === 255 ? '' : alpha.toString(16).padStart(2, '0')}`;
}

/** A colour string as MapLibre reads it ('blue', 'rgba(...)', 'hsl(...)') in our '#rrggbb[aa]'. */
export function parseColor(s: string): string | undefined {
  const c = Color.parse(s);
  return c ? hex(c) : undefined;
}

/** Zooms at which a zoom curve is sampled for its range (whole and half zooms 0..24). */
const ZOOMS = Array.from({ length: 49 }, (_, i) => i / 2);

/**
 * The largest |value| a numeric expression can take: over zooms 0..24 for a zoom curve; for a
 * data expression, the largest number written in it (a stop output, a match result), at least
 * `fallback` when it reads numbers from the data that the expression does not bound.
 */
export function numberBound(pv: PropValue, spec: PropSpec, key: string, fallback: number): number {
  if (pv.kind === 'constant') return typeof pv.value === 'number' ? Math.abs(pv.value) : 0;
  let max = 0;
  if (pv.kind === 'camera') {
    const r = createPropertyExpression(pv.expr, key, spec as never);
    if (r.result === 'success') {
      const ex = r.value as { evaluate(g: unknown, f?: unknown): unknown };
      for (const z of ZOOMS) {
        const v = ex.evaluate({ zoom: z });
        if (typeof v === 'number' && Number.isFinite(v)) max = Math.max(max, Math.abs(v));
      }
    }
    return max;
  }
  const visit = (v: unknown): void => {
    if (typeof v === 'number' && Number.isFinite(v)) max = Math.max(max, Math.abs(v));
    else if (Array.isArray(v)) v.forEach(visit);
  };
  visit(pv.expr);
  return readsNumbers(pv.expr) ? Math.max(max, fallback) : max;
}

/** Whether an expression may pass a feature's number through (a `get` outside a match/case input). */
function readsNumbers(e: unknown): boolean {
  if (!Array.isArray(e)) return false;
  const op = e[0];
  if (op === 'get' || op === 'to-number' || op === 'number' || op === 'feature-state') return true;
  if (op === 'match') return e.slice(2).some((x, i) => (i % 2 === 1 || i === e.length - 3) && readsNumbers(x));
  if (op === 'case') return e.slice(1).some((x, i) => (i % 2 === 1 || i === e.length - 2) && readsNumbers(x));
  if (op === 'interpolate' || op === 'step' || op === 'interpolate-hcl' || op === 'interpolate-lab') {
    const start = op === 'step' ? 2 : 3;
    return e.slice(start).some((x, i) => (op === 'step' ? i % 2 === 0 : i % 2 === 1) && readsNumbers(x));
  }
  return e.slice(1).some(readsNumbers);
}

/** A value evaluated at one zoom (for properties we take once per layer, such as a dash array). */
export function valueAtZoom(pv: PropValue, spec: PropSpec, key: string, zoom: number): unknown {
  if (pv.kind === 'constant') return pv.value;
  const r = createPropertyExpression(pv.expr, key, spec as never);
  if (r.result === 'error') return undefined;
  return plain((r.value as { evaluate(g: unknown, f?: unknown): unknown }).evaluate({ zoom }, { type: 'Point', properties: {} }));
}

export type { NodeSpec };
