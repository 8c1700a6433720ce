// Params: typed inputs with defaults; overrides arrive as strings and are parsed against the declarations.
import { Color } from '@maplibre/maplibre-gl-style-spec';
import { ParamError, ptr, type Problem } from '../errors.js';
import type { ParamDecl } from '../style/types.js';
import type { RGBA, ScalarValue } from '../types.js';

const COLOR_RE = /^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
// Decimal numbers only: no hex (0x5), binary (0b1), blanks (' 0.5'), 'Infinity' or a bare sign.
const NUMBER_RE = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function parseHexColor(s: string): RGBA | undefined {
  if (!COLOR_RE.test(s)) return undefined;
  const h = s.slice(1);
  const c = (i: number) => parseInt(h.slice(i, i + 2), 16) / 255;
  return [c(0), c(2), c(4), h.length === 8 ? c(6) : 1];
}

/** Longest colour text parsed (`rgba(255, 255, 255, 0.5)` and every CSS name fit well within it). */
const MAX_COLOR_TEXT = 64;

/**
 * A colour override as a person writes it, in every host (query string, --param, setParam, the
 * workbench's text field): #rrggbb or #rrggbbaa, or any CSS colour the MapLibre style spec parses
 * (names like `beige`, #rgb, rgb(), hsl(); an addition to the spec's two hex forms, docs/format.md).
 * Channels are rounded to 8 bits, so `beige` and `#f5f5dc` are one value (one cache key).
 */
export function parseColor(s: string): RGBA | undefined {
  const hex = parseHexColor(s);
  if (hex) return hex;
  const t = s.trim();
  if (!t || t.length > MAX_COLOR_TEXT) return undefined;
  const c = Color.parse(t);
  if (!c) return undefined;
  const q = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 255) / 255;
  const [r, g, b, a] = c.rgb;
  return [q(r), q(g), q(b), q(a)];
}

/** Declaration checks beyond the JSON Schema: defaults inside their ranges, min <= max. */
export function checkDeclarations(params: Record<string, ParamDecl> | undefined): Problem[] {
  const out: Problem[] = [];
  for (const [name, d] of Object.entries(params ?? {})) {
    const at = ptr('params', name);
    if (name === 'v') out.push({ pointer: at, message: "'v' is reserved as a tile-server query key and cannot be a param name" });
    if (d.type !== 'number' && (d.min !== undefined || d.max !== undefined)) {
      out.push({ pointer: at, message: `'min' and 'max' apply to number params only, not to a ${d.type} param` });
    }
    if (d.type === 'number' && typeof d.default === 'number') {
      if (d.min !== undefined && d.max !== undefined && d.min > d.max) out.push({ pointer: at, message: `min ${d.min} is greater than max ${d.max}` });
      if (d.min !== undefined && d.default < d.min)
        out.push({ pointer: ptr('params', name, 'default'), message: `default ${d.default} is below min ${d.min}` });
      if (d.max !== undefined && d.default > d.max)
        out.push({ pointer: ptr('params', name, 'default'), message: `default ${d.default} is above max ${d.max}` });
    }
  }
  return out;
}

/** Parse one override string against its declaration; returns the value or a sentence saying why not. */
function parseParamValue(name: string, decl: ParamDecl, raw: string): { value: ScalarValue } | { error: string } {
  switch (decl.type) {
    case 'number': {
      const n = NUMBER_RE.test(raw) ? Number(raw) : NaN;
      if (!Number.isFinite(n)) return { error: `param '${name}': '${raw}' is not a number` };
      if (decl.min !== undefined && n < decl.min) return { error: `param '${name}': ${n} is below its min ${decl.min}` };
      if (decl.max !== undefined && n > decl.max) return { error: `param '${name}': ${n} is above its max ${decl.max}` };
      return { value: n };
    }
    case 'color': {
      const c = parseColor(raw);
      if (!c) return { error: `param '${name}': '${raw}' is not a colour; use #rrggbb, #rrggbbaa or a CSS colour name` };
      return { value: c };
    }
    case 'bool':
      if (raw === 'true') return { value: true };
      if (raw === 'false') return { value: false };
      return { error: `param '${name}': '${raw}' is not a bool; use true or false` };
  }
}

function defaultValue(decl: ParamDecl): ScalarValue {
  if (decl.type === 'color') return parseHexColor(String(decl.default)) ?? [0, 0, 0, 1];
  return decl.default as number | boolean;
}

/** Canonical text of a value, for cache keys and ETags. */
export function valueKey(v: ScalarValue): string {
  if (Array.isArray(v))
    return (
      '#' +
      v
        .map((c) =>
          Math.round(c * 255)
            .toString(16)
            .padStart(2, '0'),
        )
        .join('')
    );
  return String(v);
}

/**
 * A complete, validated set of param values for one render: every declared param has a value
 * (its default unless overridden). Build one with `ParamValues.from(decls, overrides)` or `set()`.
 */
export class ParamValues {
  readonly decls: Record<string, ParamDecl>;
  private readonly values = new Map<string, ScalarValue>();

  constructor(decls: Record<string, ParamDecl> = {}) {
    this.decls = decls;
    for (const [name, d] of Object.entries(decls)) this.values.set(name, defaultValue(d));
  }

  /** Parse and set one override. Throws ParamError naming the param, the value and the rule. */
  set(name: string, raw: string): this {
    // Names come from users (query strings, --param): 'constructor' or '__proto__' are not declared params.
    const decl = Object.hasOwn(this.decls, name) ? this.decls[name] : undefined;
    if (!decl) {
      const known = Object.keys(this.decls);
      throw new ParamError([
        {
          pointer: '',
          param: name,
          message: `unknown param '${name}'${known.length ? `; declared params: ${known.join(', ')}` : '; the style declares no params'}`,
        },
      ]);
    }
    const r = parseParamValue(name, decl, raw);
    if ('error' in r) throw new ParamError([{ pointer: '', param: name, message: r.error }]);
    this.values.set(name, r.value);
    return this;
  }

  /** Set many overrides, reporting every bad one at once. Keys in `ignore` are skipped (e.g. the server's `v`). */
  setAll(overrides: Record<string, string | string[] | undefined>, ignore: readonly string[] = []): this {
    const problems: Problem[] = [];
    for (const [name, raw] of Object.entries(overrides)) {
      if (ignore.includes(name) || raw === undefined) continue;
      if (typeof raw !== 'string' && !Array.isArray(raw)) {
        problems.push({ pointer: '', param: name, message: `param '${name}': expected one value, got a nested query` });
        continue;
      }
      const one = Array.isArray(raw) ? String(raw[raw.length - 1]) : raw;
      try {
        this.set(name, one);
      } catch (e) {
        if (e instanceof ParamError) problems.push(...e.problems);
        else throw e;
      }
    }
    if (problems.length) throw new ParamError(problems);
    return this;
  }

  static from(
    decls: Record<string, ParamDecl> | undefined,
    overrides: Record<string, string | string[] | undefined> = {},
    ignore: readonly string[] = [],
  ): ParamValues {
    return new ParamValues(decls ?? {}).setAll(overrides, ignore);
  }

  get(name: string): ScalarValue | undefined {
    return this.values.get(name);
  }

  /** Canonical key of the values of the given params (sorted), for caches. */
  key(names: Iterable<string>): string {
    return [...names]
      .sort()
      .map((n) => `${n}=${valueKey(this.values.get(n)!)}`)
      .join('&');
  }

  entries(): IterableIterator<[string, ScalarValue]> {
    return this.values.entries();
  }

  /** Every value as its canonical string (what `set` parses back into the same value). */
  strings(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of this.values) out[k] = valueKey(v);
    return out;
  }

  /** Every value as plain data, for postMessage: `ParamValues.fromValues` checks it on the other side. */
  toValues(): Record<string, ScalarValue> {
    return Object.fromEntries(this.values);
  }

  /**
   * Values that crossed a worker boundary (already parsed once): each is checked against its
   * declaration (type, range) but never parsed from a string again. Throws ParamError.
   */
  static fromValues(decls: Record<string, ParamDecl> | undefined, values: Record<string, unknown>): ParamValues {
    const out = new ParamValues(decls ?? {});
    const problems: Problem[] = [];
    for (const [name, v] of Object.entries(values)) {
      const decl = Object.hasOwn(out.decls, name) ? out.decls[name] : undefined;
      const error = !decl ? `unknown param '${name}'` : checkValue(name, decl, v);
      if (error) problems.push({ pointer: '', param: name, message: error });
      else out.values.set(name, v as ScalarValue);
    }
    if (problems.length) throw new ParamError(problems);
    return out;
  }
}

/** Why `v` is not a value of the declaration, or undefined when it is. */
function checkValue(name: string, decl: ParamDecl, v: unknown): string | undefined {
  switch (decl.type) {
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v)) return `param '${name}': ${String(v)} is not a number`;
      if (decl.min !== undefined && v < decl.min) return `param '${name}': ${v} is below its min ${decl.min}`;
      if (decl.max !== undefined && v > decl.max) return `param '${name}': ${v} is above its max ${decl.max}`;
      return undefined;
    case 'color':
      return Array.isArray(v) && v.length === 4 && v.every((c) => typeof c === 'number' && c >= 0 && c <= 1)
        ? undefined
        : `param '${name}': not an RGBA colour`;
    case 'bool':
      return typeof v === 'boolean' ? undefined : `param '${name}': ${String(v)} is not a bool`;
  }
}

/** The params' JSON Schema (draft 2020-12), served at /style/params and by the browser's paramsSchema. */
export function paramsJsonSchema(decls: Record<string, ParamDecl> | undefined, title?: string): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, d] of Object.entries(decls ?? {})) {
    const p: Record<string, unknown> = {};
    if (d.type === 'number') {
      p.type = 'number';
      if (d.min !== undefined) p.minimum = d.min;
      if (d.max !== undefined) p.maximum = d.max;
    } else if (d.type === 'bool') {
      p.type = 'boolean';
    } else {
      p.type = 'string';
      p.format = 'color';
      p.pattern = COLOR_RE.source;
    }
    p.default = d.default;
    if (d.description) p.description = d.description;
    if (d.label) p.title = d.label;
    if (d.group) p['x-group'] = d.group;
    p['x-param-type'] = d.type;
    properties[name] = p;
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: title ? `${title} params` : 'style params',
    type: 'object',
    additionalProperties: false,
    properties,
  };
}
