// Margins of one render: each node's canvas sized from the param values this render uses, not from
// the params' maxima. build.ts sizes every margin from the static bounds (a `$param`'s max), so a
// blur whose sigma may reach 8 gets 24 px of pad even when its sigma is 2.5 and it reads 8. Where
// an op says how little it reads for a value (OpDef.valueBound: blur, displace), this render's
// pads, and through them every canvas upstream, shrink to what is read.
//
// Pixels stay the same: a raster op's pixel depends only on its inputs within its pad of it (the
// property that lets tiles continue each other), so a canvas that still holds every pixel its
// readers read gives them the same values. Nodes that decide over their whole canvas keep the
// plan's margin: features (their geometry is clipped to it), ops that decide what they publish
// (text), ops whose pixels depend on the canvas's extent or origin (OpDef.keepsCanvas:
// Floyd-Steinberg dither, brush strokes), and the nodes read only through what they publish (reach). So do the nodes of an op
// with valueBound whose size this render cannot bound by its value: an `@node` port (known only
// as the render runs), or a value for which the kernel reads farther than the static bound's pad
// (a decimated blur reads ceil(3 sigma) + 4k + 2 px: at its bound that is past its pad, so its
// pixels near the canvas edge depend on where the input ends, and its canvas must stay put).
import type { ParamValues } from '../params/index.js';
import { isPixelField } from '../render/pixel-ratio.js';
import type { Plan, PlanNode } from './build.js';

/** What one render's canvases are: per node, its margin and the pad bounds its kernel uses. */
export interface RenderMargins {
  /** Margin of each node's canvas in render pixels (the window's pixel ratio applied). */
  margin: Map<string, number>;
  /** Per node, the bounds of its padding fields this render uses, in render pixels where the field is in px (ctx.bound, the input crops). */
  bounds: Map<string, Record<string, number>>;
}

/** A padding field of an op with valueBound: node, field, where its value comes from (a literal, a param, or unknown: a port). */
interface ValueField {
  node: PlanNode;
  field: string;
  param?: string;
  literal?: number;
}

interface PlanMargins {
  fields: ValueField[];
  /** RenderMargins by the key of the values they were made for (a few: the server's one set, a preview's recent ones). */
  made: Map<string, RenderMargins>;
}

const byPlan = new WeakMap<Plan, PlanMargins>();
/** Sets of values kept per plan; past it the oldest goes (the preview's drag makes one per value). */
const KEPT = 32;

/** Whether a node's canvas may be smaller than the plan's margin in any render (see the file's comment). */
export function sizedByValues(n: PlanNode): boolean {
  if (n.kind !== 'raster' && n.kind !== 'scalar-field') return false;
  if (n.reach > 0 || n.op.decide) return false;
  return !n.op.keepsCanvas?.(n.spec);
}

/** The bounded padding fields of the plan's ops with valueBound, with where each value comes from. */
function valueFields(plan: Plan): ValueField[] {
  const out: ValueField[] = [];
  for (const id of plan.order) {
    const n = plan.nodes.get(id)!;
    if (!n.op.valueBound) continue;
    for (const field of n.op.paddingFields ?? []) {
      if (n.bounds[field] === undefined) continue;
      const slot = n.slots.get(field);
      if (slot?.kind === 'param') out.push({ node: n, field, param: slot.name });
      else if (slot?.kind === 'node') out.push({ node: n, field });
      else out.push({ node: n, field, literal: typeof slot?.value === 'number' ? slot.value : n.bounds[field] });
    }
  }
  return out;
}

/**
 * The margins and pad bounds of a render of `plan` at pixel ratio `ratio` with these values
 * (cached per plan); without values, the plan's margins (from the maxima), for renders whose
 * params change between them over a node cache: there a value that grows a reach would re-run
 * every node upstream of it (their canvas grew), though none of them reads that param.
 */
export function renderMargins(plan: Plan, params: ParamValues | undefined, ratio: number): RenderMargins {
  let pm = byPlan.get(plan);
  if (!pm) byPlan.set(plan, (pm = { fields: valueFields(plan), made: new Map() }));
  let key = String(ratio);
  if (!params) key += '|max';
  else for (const f of pm.fields) if (f.param !== undefined) key += '|' + String(params.get(f.param));
  let m = pm.made.get(key);
  if (m) return m;
  m = params
    ? computeMargins(plan, pm.fields, params, ratio)
    : { margin: new Map(plan.order.map((id) => [id, plan.nodes.get(id)!.margin * ratio])), bounds: new Map() };
  if (pm.made.size >= KEPT) pm.made.delete(pm.made.keys().next().value!);
  pm.made.set(key, m);
  return m;
}

/**
 * The bound of a padding field this render uses (render pixels for px fields): OpDef.valueBound of
 * its value, clamped as ctx.num clamps it; undefined where the value is unknown (a port) or reads
 * past the static bound's pad.
 */
function valueBoundOf(f: ValueField, params: ParamValues, ratio: number): number | undefined {
  const { node: n, field } = f;
  const raw = f.param !== undefined ? params.get(f.param) : f.literal;
  const x = typeof raw === 'number' ? raw : typeof raw === 'boolean' ? (raw ? 1 : 0) : undefined;
  const bound = n.bounds[field]!;
  if (x === undefined || !(x === x)) return undefined;
  const scale = ratio !== 1 && isPixelField(n.op, field) ? ratio : 1;
  const b = n.op.valueBound!(field, Math.min(x, bound) * scale, bound * scale, n.spec);
  // Never above the static bound: the plan's margins are the most any render may need.
  return b === undefined || !(b <= bound * scale) ? undefined : b;
}

/**
 * Consumers before their inputs, as build.ts spreads the plan's margins, with each node's pads of
 * this render's bounds: a node sized by values gets the largest of its readers' needs, the others
 * keep the plan's margin.
 */
function computeMargins(plan: Plan, fields: ValueField[], params: ParamValues, ratio: number): RenderMargins {
  const bounds = new Map<string, Record<string, number>>();
  /** Nodes whose canvas stays the plan's in this render: a size not bounded by its value. */
  const kept = new Set<string>();
  for (const f of fields) {
    const b = valueBoundOf(f, params, ratio);
    if (b === undefined) {
      kept.add(f.node.id);
      continue;
    }
    let rec = bounds.get(f.node.id);
    if (!rec) bounds.set(f.node.id, (rec = {}));
    rec[f.field] = b;
  }
  for (const id of kept) bounds.delete(id); // every pad of a kept node from its static bounds
  const margin = new Map<string, number>();
  for (const id of plan.order) if (kept.has(id) || !sizedByValues(plan.nodes.get(id)!)) margin.set(id, plan.nodes.get(id)!.margin * ratio);
  for (let i = plan.order.length - 1; i >= 0; i--) {
    const n = plan.nodes.get(plan.order[i]!)!;
    const own = margin.get(n.id) ?? 0;
    margin.set(n.id, own);
    const bound = padBounds(n, bounds.get(n.id), ratio);
    for (const e of n.edges) {
      if (e.role !== 'node') continue;
      const from = plan.nodes.get(e.from)!;
      if (kept.has(from.id) || !sizedByValues(from) || n.op.reach?.((f) => n.bounds[f], e.field, n.spec) !== undefined) continue;
      const pad = n.op.pad ? Math.ceil(n.op.pad(bound, e.field, n.spec)) : 0;
      const need = own + n.reach * ratio + Math.max(0, pad);
      margin.set(from.id, Math.max(margin.get(from.id) ?? 0, need));
    }
  }
  return { margin, bounds };
}

/**
 * The bounds a node's pads are computed from in a render at `ratio`: this render's value bounds
 * where it has them, else the static bounds, pixel fields times the ratio (as ctx.bound gives them).
 */
export function padBounds(n: PlanNode, values: Record<string, number> | undefined, ratio: number): (field: string) => number | undefined {
  return (field) => {
    const v = values?.[field];
    if (v !== undefined) return v;
    const b = n.bounds[field];
    return b !== undefined && ratio !== 1 && isPixelField(n.op, field) ? b * ratio : b;
  };
}
