// What a layer converter works with: its properties, classified, and writers that put them into
// our fields (a literal, a `*-expr` field, or an `expr` node), noting what cannot be honoured.
import type { NodeSpec } from '../ops/types.js';
import type { Graph, Scalar } from './graph.js';
import { classify, numberBound, propSpec, PropError, specProps, type PropValue } from './props.js';
import type { MlLayer, MlStyle } from './types.js';
import type { SourceMap } from './sources.js';

/** Fallback bound (pixels) of a data-driven size whose expression passes feature values through. */
export const DATA_SIZE_BOUND = 64;

export interface NumberTarget {
  /** The plain field (literal, `@node`). */
  field: string;
  /** The field taking a per-feature expression, when the op has one. */
  exprField?: string;
  /** The op's bound field for a port or an expression (`width-max`): set from the value's range. */
  maxField?: string;
  /** Multiplies the MapLibre value (a number, or inside an expression). */
  scale?: number;
}

export class LayerContext {
  /** Fontstack name -> font files (ConvertOptions.fonts over the style's metadata["tilegraph:fonts"]). */
  fonts: Record<string, string | string[]> = {};
  /** Properties the converter read: the rest of what the layer sets is reported as ignored. */
  private readonly read = new Set<string>();

  constructor(
    readonly g: Graph,
    readonly layer: MlLayer,
    readonly style: MlStyle,
    readonly sources: SourceMap,
    /** Sub-pixel shift of geometry (render tests) added to the layer's translate. */
    readonly shift: [number, number],
    /** The render is one viewport, as MapLibre's (ConvertOptions.viewport). */
    readonly viewport = false,
  ) {}

  get id(): string {
    return this.layer.id;
  }

  note(property: string | undefined, message: string): void {
    this.g.notes.push({ layer: this.layer.id, property, message });
  }

  /** A paint or layout property, classified; its spec default when unset. */
  prop(name: string): PropValue {
    const group = this.groupOf(name);
    this.read.add(name);
    const spec = propSpec(this.layer.type, group, name);
    if (!spec) return { kind: 'constant', value: undefined, set: false };
    const raw = (group === 'layout' ? this.layer.layout : this.layer.paint)?.[name];
    try {
      return classify(raw, spec, name);
    } catch (e) {
      this.note(name, `${e instanceof PropError ? e.message : String(e)}; the default is used`);
      return classify(undefined, spec, name);
    }
  }

  /** Whether the layer sets a property (not its default). */
  isSet(name: string): boolean {
    return (this.layer.paint ?? {})[name] !== undefined || (this.layer.layout ?? {})[name] !== undefined;
  }

  /** Mark properties as read without converting them (honoured by construction, or noted already). */
  touch(...names: string[]): void {
    for (const n of names) this.read.add(n);
  }

  /** The properties the layer sets that no converter read: each is reported. */
  reportUnread(reason: (prop: string) => string | undefined): void {
    for (const group of ['layout', 'paint'] as const) {
      for (const p of Object.keys(this.layer[group] ?? {})) {
        if (this.read.has(p) || p.endsWith('-transition')) continue;
        if (!specProps(this.layer.type, group).includes(p)) continue; // unknown properties: validation's job
        const why = reason(p);
        if (why) this.note(p, why);
      }
    }
  }

  /** A number property as a scalar (literal or zoom curve node); data-driven values are noted and the default used. */
  scalar(prop: string, scale = 1): Scalar {
    const pv = this.prop(prop);
    const spec = propSpec(this.layer.type, this.groupOf(prop), prop)!;
    if (pv.kind === 'constant') return { v: typeof pv.value === 'number' ? pv.value * scale : 0, bound: Math.abs(Number(pv.value) * scale) || 0 };
    if (pv.kind === 'data') {
      this.note(prop, 'data-driven values are not supported for this property; its default is used');
      const d = classify(undefined, spec, prop) as { value: unknown };
      return { v: Number(d.value ?? 0) * scale, bound: Math.abs(Number(d.value ?? 0) * scale) };
    }
    const bound = numberBound(pv, spec, prop, 0) * Math.abs(scale);
    const expr = scale === 1 ? pv.expr : scaled(pv.expr, scale);
    return { v: '@' + this.g.add(`${this.id}-${prop}`, { op: 'expr', expr, type: 'number' }), bound };
  }

  /** A colour property as a field value: '#rrggbbaa' or an `@node` of a colour zoom curve (data-driven: noted). */
  colorScalar(prop: string): string {
    const pv = this.prop(prop);
    if (pv.kind === 'constant') return typeof pv.value === 'string' ? pv.value : '#000000';
    if (pv.kind === 'data') {
      this.note(prop, 'data-driven values are not supported for this property; its default is used');
      const d = classify(undefined, propSpec(this.layer.type, this.groupOf(prop), prop)!, prop) as { value: unknown };
      return typeof d.value === 'string' ? d.value : '#000000';
    }
    return '@' + this.g.add(`${this.id}-${prop}`, { op: 'expr', expr: pv.expr, type: 'color' });
  }

  /**
   * Write a number property into a node: a literal; a zoom curve into `exprField` when the op has
   * one (else an `expr` node); a data-driven value into `exprField` (noted when there is none).
   * `maxField` gets the value's largest magnitude when the value varies.
   */
  setNumber(node: NodeSpec, prop: string, t: NumberTarget): PropValue {
    const pv = this.prop(prop);
    const k = t.scale ?? 1;
    const spec = propSpec(this.layer.type, this.groupOf(prop), prop)!;
    if (pv.kind === 'constant') {
      if (typeof pv.value === 'number') node[t.field] = pv.value * k;
      return pv;
    }
    if (!t.exprField) {
      const s = this.scalar(prop, k);
      node[t.field] = s.v;
      if (t.maxField && typeof s.v === 'string') node[t.maxField] = Math.max(s.bound, 0);
      return pv;
    }
    node[t.exprField] = k === 1 ? pv.expr : scaled(pv.expr, k);
    // The plain field keeps MapLibre's default: what a feature whose expression fails draws with.
    const d = classify(undefined, spec, prop) as { value: unknown };
    if (typeof d.value === 'number') node[t.field] = d.value * k;
    if (t.maxField) node[t.maxField] = Math.max(numberBound(pv, spec, prop, DATA_SIZE_BOUND) * Math.abs(k), 0);
    return pv;
  }

  /** Write a colour property: a literal, `exprField` for zoom curves and data, else an `expr` node. */
  setColor(node: NodeSpec, prop: string, field: string, exprField?: string): PropValue {
    const pv = this.prop(prop);
    if (pv.kind === 'constant') {
      if (typeof pv.value === 'string') node[field] = pv.value;
      return pv;
    }
    if (!exprField) {
      node[field] = this.colorScalar(prop);
      return pv;
    }
    node[exprField] = pv.expr;
    const d = classify(undefined, propSpec(this.layer.type, this.groupOf(prop), prop)!, prop) as { value: unknown };
    if (typeof d.value === 'string') node[field] = d.value;
    return pv;
  }

  private groupOf(prop: string): 'paint' | 'layout' {
    return propSpec(this.layer.type, 'layout', prop) ? 'layout' : 'paint';
  }
}

/**
 * An expression times k. A zoom curve must stay the top-level `interpolate` / `step` (the
 * style-spec's rule), so k goes into each stop output; anything else is wrapped in `*`.
 */
export function scaled(e: unknown, k: number): unknown {
  if (k === 1) return e;
  if (Array.isArray(e)) {
    const op = e[0];
    if (op === 'interpolate' || op === 'interpolate-hcl' || op === 'interpolate-lab') {
      return [...e.slice(0, 3), ...e.slice(3).map((x, i) => (i % 2 === 1 ? scaled(x, k) : x))];
    }
    if (op === 'step') return [...e.slice(0, 2), scaled(e[2], k), ...e.slice(3).map((x, i) => (i % 2 === 1 ? scaled(x, k) : x))];
    if (op === 'let') return [...e.slice(0, -1), scaled(e[e.length - 1], k)];
    if (op === 'coalesce') return ['coalesce', ...e.slice(1).map((x) => scaled(x, k))];
  }
  if (typeof e === 'number') return e * k;
  return ['*', e, k];
}
