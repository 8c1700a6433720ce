// JSON Schema fragments for node fields. Each fragment may carry `x-scalar` (the scalar type a
// `$param` / `@node` in that position must have) and `x-expect` (the sentence used when a value
// fails every alternative), which the validator and the graph builder read.

export type Schema = Record<string, unknown>;

/**
 * The unit of a numeric field, declared on the field (`unit` of the helpers below; `x-unit` in the
 * JSON Schema and a column of docs/ops.md), as MapLibre's style spec says `"units": "pixels"`.
 * `px` is what the pixel ratio (@2x) reads: every `px` field, its `*-max` and its `*-expr` are
 * multiplied by the window's ratio when an op reads them (src/render/render.ts). The others say
 * what a number means and are never scaled.
 */
export type Unit = 'px' | 'device-px' | 'texel' | 'deg' | 'per-km2';

/** What each unit means (docs/format.md "Units"). */
export const UNITS: Readonly<Record<Unit, string>> = {
  px: 'pixels at pixel ratio 1: sizes on the map, multiplied by the pixel ratio (@2x draws them twice as large in pixels)',
  'device-px': 'pixels of the image itself, whatever its pixel ratio (anti-aliasing ramps); not scaled',
  texel: 'texels of a sprite (its own pixels, drawn at the scale of the op that draws it); not scaled',
  deg: 'degrees (angles, light directions); not scaled',
  'per-km2': 'per square kilometre on the ground; not scaled',
};

/** The unit a field's schema declares (`x-unit`), if any. */
export function unitOf(schema: Schema | undefined): Unit | undefined {
  return schema?.['x-unit'] as Unit | undefined;
}

export const NODE_REF = '^@?[A-Za-z_][A-Za-z0-9_-]*$';
const SCALAR_REF = '^[$@][A-Za-z_][A-Za-z0-9_-]*$';
const PARAM_REF = '^\\$[A-Za-z_][A-Za-z0-9_-]*$';
export const COLOR = '^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$';

interface NumOpts {
  min?: number;
  max?: number;
  exclusiveMin?: number;
  default?: number;
  description?: string;
  /** What the number measures; `px` scales with the pixel ratio (see Unit). */
  unit?: Unit;
}

/** The schema with its unit declared (`x-unit`), when there is one. */
function withUnit(s: Schema, unit: Unit | undefined): Schema {
  return unit ? { ...s, 'x-unit': unit } : s;
}

function range(o: NumOpts): string {
  const lo = o.min !== undefined ? `>= ${o.min}` : o.exclusiveMin !== undefined ? `> ${o.exclusiveMin}` : '';
  const hi = o.max !== undefined ? `<= ${o.max}` : '';
  return [lo, hi].filter(Boolean).join(' and ');
}

function numberSchema(type: 'number' | 'integer', o: NumOpts): Schema {
  const s: Schema = { type };
  if (o.min !== undefined) s.minimum = o.min;
  if (o.max !== undefined) s.maximum = o.max;
  if (o.exclusiveMin !== undefined) s.exclusiveMinimum = o.exclusiveMin;
  if (o.default !== undefined) s.default = o.default;
  if (o.description) s.description = o.description;
  return s;
}

/** A literal number. */
export function num(o: NumOpts = {}): Schema {
  const r = range(o);
  return withUnit({ ...numberSchema('number', o), 'x-expect': `a number${r ? ' ' + r : ''}` }, o.unit);
}

/** A literal integer. */
export function int(o: NumOpts = {}): Schema {
  const r = range(o);
  return withUnit({ ...numberSchema('integer', o), 'x-expect': `an integer${r ? ' ' + r : ''}` }, o.unit);
}

/** A number, or a `$param` / `@node` scalar reference (`num|ref`). */
export function numRef(o: NumOpts = {}, integer = false): Schema {
  const r = range(o);
  const lit = numberSchema(integer ? 'integer' : 'number', { ...o, default: undefined, description: undefined });
  const s: Schema = {
    anyOf: [lit, { type: 'string', pattern: SCALAR_REF }],
    'x-scalar': 'number',
    'x-expect': `${integer ? 'an integer' : 'a number'}${r ? ' ' + r : ''} or a $param / @node reference`,
  };
  if (o.default !== undefined) s.default = o.default;
  if (o.description) s.description = o.description;
  return withUnit(s, o.unit);
}

/** Two literal numbers `[x, y]` (an offset in world pixels). */
export function pair(o: { default?: [number, number]; description?: string; unit?: Unit } = {}): Schema {
  const s: Schema = { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2, 'x-expect': 'two numbers [x, y]' };
  if (o.default) s.default = [...o.default];
  if (o.description) s.description = o.description;
  return withUnit(s, o.unit);
}

/**
 * An opacity: a number 0..1 or a `$param` / `@node` reference, where a **bool** param or scalar
 * also fits (true = 1, false = 0), so a bool param switches a layer on and off (docs/format.md).
 */
export function opacityRef(description?: string): Schema {
  return {
    ...numRef({ min: 0, max: 1, default: 1, description }),
    'x-bool': true,
    'x-expect': 'a number >= 0 and <= 1 or a $param / @node reference (a bool reads as 1 or 0)',
  };
}

/** A number or a `$param` (table entries: never an `@node`). */
export function numParam(o: NumOpts = {}): Schema {
  const r = range(o);
  return {
    anyOf: [numberSchema('number', o), { type: 'string', pattern: PARAM_REF }],
    'x-scalar': 'number',
    'x-no-node': true,
    'x-expect': `a number${r ? ' ' + r : ''} or a $param`,
  };
}

/** `#rrggbb`, `#rrggbbaa` or a `$param` / `@node` reference. */
export function color(description?: string): Schema {
  const s: Schema = {
    type: 'string',
    anyOf: [{ pattern: COLOR }, { pattern: SCALAR_REF }],
    'x-scalar': 'color',
    'x-expect': 'a colour #rrggbb or #rrggbbaa, or a $param / @node reference',
  };
  if (description) s.description = description;
  return s;
}

/** A colour literal or a `$param` (table entries). */
export function colorParam(): Schema {
  return {
    type: 'string',
    anyOf: [{ pattern: COLOR }, { pattern: PARAM_REF }],
    'x-scalar': 'color',
    'x-no-node': true,
    'x-expect': 'a colour #rrggbb or #rrggbbaa, or a $param',
  };
}

export function boolRef(dflt?: boolean): Schema {
  const s: Schema = {
    anyOf: [{ type: 'boolean' }, { type: 'string', pattern: SCALAR_REF }],
    'x-scalar': 'bool',
    'x-expect': 'true, false or a $param / @node reference',
  };
  if (dflt !== undefined) s.default = dflt;
  return s;
}

export function bool(dflt?: boolean): Schema {
  const s: Schema = { type: 'boolean', 'x-expect': 'true or false' };
  if (dflt !== undefined) s.default = dflt;
  return s;
}

/** An `@node` reference (the `@` is optional). */
export function nodeRef(description?: string): Schema {
  const s: Schema = { type: 'string', pattern: NODE_REF, 'x-node': true, 'x-expect': 'a node reference such as "@roads"' };
  if (description) s.description = description;
  return s;
}

export function oneOfEnum(values: readonly string[], dflt?: string): Schema {
  const s: Schema = { type: 'string', enum: [...values], 'x-expect': `one of ${values.map((v) => `'${v}'`).join(', ')}` };
  if (dflt !== undefined) s.default = dflt;
  return s;
}

/** A raw map-style expression (JSON array or literal), compiled by the style-spec at build time. */
export function expr(type: 'number' | 'color' | 'filter' | 'ramp' | 'boolean' | 'string', description?: string, unit?: Unit): Schema {
  const s: Schema = { 'x-expr': type };
  if (description) s.description = description;
  return withUnit(s, unit);
}

export function str(description?: string): Schema {
  const s: Schema = { type: 'string' };
  if (description) s.description = description;
  return s;
}
