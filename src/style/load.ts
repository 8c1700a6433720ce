// Load a style document: parse, validate against the format's JSON Schema, report every problem.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { StyleError, type Problem } from '../errors.js';
import { formatInt, LIMITS } from '../limits.js';
import { levenshtein, nearest } from '../util/levenshtein.js';
import { OPS } from '../ops/index.js';
import { opSchema, styleSchema } from './schema.js';
import type { Schema } from './fields.js';
import type { StyleDoc } from './types.js';
import { convertMapLibre, type ConvertOptions } from '../maplibre/convert.js';
import { isMapLibreStyle, type Note } from '../maplibre/types.js';
import { mapLibreProblems } from '../maplibre/validate.js';

// The document is validated in two steps so a process compiles only what its style uses (the
// whole format's schema takes ~0.3 s to compile): the top level with nodes checked for a known
// `op`, then each node against its op's schema, compiled on first use.
let ajv: Ajv2020 | undefined;
let topValidator: ValidateFunction | undefined;
const opValidators = new Map<string, ValidateFunction>();

function getAjv(): Ajv2020 {
  return (ajv ??= new Ajv2020({ allErrors: true, verbose: true, strict: false }));
}

function getTopValidator(): ValidateFunction {
  if (!topValidator) {
    const full = styleSchema() as { $defs: Record<string, Schema> };
    const defs: Record<string, Schema> = {};
    for (const [k, v] of Object.entries(full.$defs)) if (!k.startsWith('op-')) defs[k] = v;
    defs.node = { type: 'object', required: ['op'], properties: { op: { type: 'string', enum: [...OPS.keys()].sort() } } };
    topValidator = getAjv().compile({ ...full, $id: undefined, $defs: defs });
  }
  return topValidator;
}

function getOpValidator(op: string): ValidateFunction {
  let v = opValidators.get(op);
  if (!v) opValidators.set(op, (v = getAjv().compile(opSchema(op))));
  return v;
}

/** Every node of the document (top level and function bodies) with its JSON pointer. */
function* allNodes(doc: Record<string, unknown>): Generator<[string, Record<string, unknown>]> {
  const obj = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? v : {}) as Record<string, unknown>;
  for (const [k, n] of Object.entries(obj(doc.nodes))) yield [`/nodes/${escapeToken(k)}`, n as Record<string, unknown>];
  for (const [f, fn] of Object.entries(obj(doc.functions))) {
    for (const [k, n] of Object.entries(obj(obj(fn).nodes))) yield [`/functions/${escapeToken(f)}/nodes/${escapeToken(k)}`, n as Record<string, unknown>];
  }
}

const escapeToken = (t: string) => t.replace(/~/g, '~0').replace(/\//g, '~1');

function validateDoc(doc: Record<string, unknown>): ErrorObject[] {
  const top = getTopValidator();
  const errors: ErrorObject[] = top(doc) ? [] : [...(top.errors ?? [])];
  for (const [pointer, node] of allNodes(doc)) {
    if (!node || typeof node !== 'object' || typeof node.op !== 'string' || !OPS.has(node.op)) continue;
    const v = getOpValidator(node.op);
    if (!v(node)) for (const e of v.errors ?? []) errors.push({ ...e, instancePath: pointer + e.instancePath });
  }
  return errors;
}

function describe(value: unknown): string {
  const s = JSON.stringify(value);
  return s === undefined ? String(value) : s.length > 60 ? s.slice(0, 57) + '...' : s;
}

function lastToken(pointer: string): string {
  const i = pointer.lastIndexOf('/');
  return pointer
    .slice(i + 1)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
}

/** Turn ajv's errors into one plain sentence per failing location. */
function translate(errors: ErrorObject[]): Problem[] {
  // Errors inside an anyOf branch are replaced by the anyOf's own sentence; if/then noise is dropped.
  const anyOfAt = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const e of errors) {
    if (e.keyword === 'if') continue;
    const inAnyOf = e.keyword !== 'anyOf' && [...anyOfAt].some((p) => e.instancePath === p && e.schemaPath.includes('/anyOf/'));
    if (inAnyOf) continue;
    const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
    let pointer = e.instancePath;
    let message: string;
    switch (e.keyword) {
      case 'anyOf':
      case 'type':
      case 'pattern':
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        message = `${describe(e.data)} is not valid: expected ${(parent['x-expect'] as string) ?? describeSchema(e)}`;
        break;
      case 'enum':
        if (lastToken(pointer) === 'op' && pointer.split('/').length >= 3) {
          const guess = nearest(String(e.data), OPS.keys());
          message = `unknown op '${String(e.data)}'${guess ? `; did you mean '${guess}'?` : ''}`;
        } else {
          message = `${describe(e.data)} is not valid: expected ${(parent['x-expect'] as string) ?? 'one of ' + (e.params as { allowedValues: unknown[] }).allowedValues.map((v) => `'${v}'`).join(', ')}`;
        }
        break;
      case 'required':
        message = `missing required field '${(e.params as { missingProperty: string }).missingProperty}'`;
        break;
      case 'unevaluatedProperties':
      case 'additionalProperties': {
        // A failing `then` leaves its fields "unevaluated": report the real failure, not those.
        const hidden =
          e.keyword === 'unevaluatedProperties' &&
          errors.some((o) => !['unevaluatedProperties', 'if'].includes(o.keyword) && (o.instancePath === pointer || o.instancePath.startsWith(pointer + '/')));
        if (hidden) continue;
        const prop =
          (e.params as { additionalProperty?: string; unevaluatedProperty?: string }).additionalProperty ??
          (e.params as { unevaluatedProperty: string }).unevaluatedProperty;
        const known = [parent, ...((parent.allOf as Record<string, Record<string, unknown>>[] | undefined) ?? []).map((a) => a.then ?? {})].flatMap((x) =>
          Object.keys((x.properties as Record<string, unknown>) ?? {}),
        );
        const guess = nearest(prop, known);
        pointer = `${pointer}/${prop.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        message = `unknown field '${prop}'${guess && levenshtein(prop, guess) <= 3 ? `; did you mean '${guess}'?` : ''}`;
        break;
      }
      case 'propertyNames': {
        const name = (e.params as { propertyName: string }).propertyName;
        pointer = `${pointer}/${name}`;
        message =
          name === 'v'
            ? "'v' is reserved (the tile server's style-version query key) and cannot be a param name"
            : `'${name}' is not a valid name: use letters, digits, '_' and '-'`;
        break;
      }
      case 'minItems':
        message = `needs at least ${(e.params as { limit: number }).limit} item(s)`;
        break;
      case 'const':
      case 'not':
        continue; // reported through propertyNames / op enum
      default:
        message = e.message ?? 'is not valid';
    }
    const key = `${pointer}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ pointer, message });
  }
  return out;
}

function describeSchema(e: ErrorObject): string {
  const s = (e.parentSchema ?? {}) as Record<string, unknown>;
  if (e.keyword === 'type') return `a value of type ${(e.params as { type: string }).type}`;
  if (e.keyword === 'pattern') return `a string matching ${s.pattern as string}`;
  return e.message ?? 'a valid value';
}

/**
 * The pointer of the first value nested deeper than LIMITS.maxStyleDepth, or undefined. Iterative:
 * a document nested 100,000 deep must not overflow the stack of the check meant to refuse it.
 */
export function tooDeep(doc: unknown, max: number = LIMITS.maxStyleDepth): string | undefined {
  const stack: [unknown, number, string][] = [[doc, 0, '']];
  while (stack.length) {
    const [v, depth, at] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (depth >= max) return at;
    for (const [k, c] of Object.entries(v)) if (c && typeof c === 'object') stack.push([c, depth + 1, `${at}/${escapeToken(k)}`]);
  }
  return undefined;
}

/** A loaded style: ours, or the graph a MapLibre style was converted to with what it cannot honour. */
export interface LoadedDoc {
  doc: StyleDoc;
  /** Set when the input was a MapLibre GL style: what the converted graph does not honour (empty: nothing). */
  maplibre?: Note[];
}

/** Parse and validate a style document. Throws StyleError listing every problem. */
export function loadStyle(input: string | object): StyleDoc {
  return loadAnyStyle(input).doc;
}

/**
 * Parse a style document, ours or a MapLibre GL v8 style (`"version": 8` and `layers`), which is
 * converted to a graph first (src/maplibre/); then validate it. Throws StyleError listing every problem.
 */
export function loadAnyStyle(input: string | object, options: { maplibre?: ConvertOptions } = {}): LoadedDoc {
  try {
    return loadUnchecked(input, options.maplibre);
  } catch (e) {
    // Whatever a strange document makes the parser or the validator do, the caller gets a StyleError.
    if (e instanceof StyleError) throw e;
    throw new StyleError(`the style cannot be read: ${(e as Error)?.message ?? String(e)}`);
  }
}

function loadUnchecked(input: string | object, convertOptions?: ConvertOptions): LoadedDoc {
  let doc: unknown;
  if (typeof input === 'string') {
    try {
      doc = JSON.parse(input);
    } catch (e) {
      throw new StyleError(`the style is not valid JSON: ${(e as Error).message}`);
    }
  } else {
    const deep = tooDeep(input);
    if (deep !== undefined) throw new StyleError([{ pointer: deep, message: `nested deeper than ${LIMITS.maxStyleDepth} levels (the limit)` }]);
    doc = structuredClone(input);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new StyleError('the style must be a JSON object');
  const deep = tooDeep(doc);
  if (deep !== undefined) throw new StyleError([{ pointer: deep, message: `nested deeper than ${LIMITS.maxStyleDepth} levels (the limit)` }]);
  let notes: Note[] | undefined;
  if (isMapLibreStyle(doc)) {
    const problems = mapLibreProblems(doc);
    if (problems.length) throw new StyleError(problems);
    const c = convertMapLibre(doc, convertOptions);
    doc = c.style;
    notes = c.notes;
  }
  // Counted before validation: 10,000 nodes would be validated one by one, then built.
  let count = 0;
  for (const _ of allNodes(doc as Record<string, unknown>)) count++;
  if (count > LIMITS.maxNodes) {
    throw new StyleError([
      { pointer: '/nodes', message: `the style has ${formatInt(count)} nodes; the limit is ${formatInt(LIMITS.maxNodes)} (functions included)` },
    ]);
  }
  const errors = validateDoc(doc as Record<string, unknown>);
  if (errors.length)
    throw new StyleError(translate(errors).map((p) => (notes ? { ...p, message: `${p.message} (in the graph converted from the MapLibre style)` } : p)));
  const sources = sourceProblems(doc as StyleDoc);
  if (sources.length) throw new StyleError(sources);
  return notes ? { doc: doc as StyleDoc, maplibre: notes } : { doc: doc as StyleDoc };
}

const FEATURE_TYPES = ['mvt', 'pmtiles', 'geojson'];

/**
 * Every `features` and `dem` node names a source that exists and has the right type (or, without
 * `source`, the style has exactly one), and a tiled vector source gets a `layer`: mistakes a
 * render would otherwise find on every tile.
 */
function sourceProblems(doc: StyleDoc): Problem[] {
  const out: Problem[] = [];
  const sources = doc.sources ?? {};
  const names = Object.keys(sources);
  for (const [pointer, node] of allNodes(doc as unknown as Record<string, unknown>)) {
    const op = node.op;
    if (op !== 'features' && op !== 'dem' && op !== 'raster') continue;
    const types = op === 'dem' || op === 'raster' ? [op] : FEATURE_TYPES;
    const what = op === 'dem' || op === 'raster' ? op : 'feature (mvt, pmtiles or geojson)';
    const name = node.source;
    let type: string | undefined;
    if (typeof name === 'string' && /^[$@]/.test(name)) continue; // a function argument, resolved at build
    if (typeof name === 'string') {
      if (!Object.hasOwn(sources, name)) {
        const guess = nearest(name, names, 3);
        out.push({
          pointer: `${pointer}/source`,
          message: `unknown source '${name}'${guess ? `; did you mean '${guess}'?` : names.length ? `; the style's sources: ${names.join(', ')}` : '; the style declares no sources'}`,
        });
        continue;
      }
      type = sources[name]!.type;
      if (!types.includes(type))
        out.push({ pointer: `${pointer}/source`, message: `source '${name}' is a ${type} source; a '${op}' node needs a ${what} source` });
    } else {
      const fit = names.filter((n) => types.includes(sources[n]!.type));
      if (fit.length !== 1) {
        out.push({
          pointer,
          message:
            fit.length === 0
              ? `the style has no ${what} source for this '${op}' node`
              : `the style has ${fit.length} ${what} sources (${fit.join(', ')}); name one with 'source'`,
        });
        continue;
      }
      type = sources[fit[0]!]!.type;
    }
    if (op === 'features' && (type === 'mvt' || type === 'pmtiles') && node.layer === undefined) {
      out.push({ pointer, message: `a '${type}' source holds several layers: name one with 'layer'` });
    }
  }
  return out;
}
