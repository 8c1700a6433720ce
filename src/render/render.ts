// render: execute a plan for one window with one set of param values on a backend.
import { CpuBackend } from '../backends/cpu/backend.js';
import { newRaster } from '../backends/cpu/raster.js';
import { RenderError, TilegraphError } from '../errors.js';
import type { PlanNode, Plan } from '../graph/build.js';
import type { OpContext } from '../ops/types.js';
import { ParamValues, parseHexColor } from '../params/index.js';
import type { SourceRegistry } from '../sources/types.js';
import { growWindow, type Canvas, type Kind, type RGBA, type Raster, type ScalarValue, type Value, type Window } from '../types.js';
import type { Backend, RenderStats } from '../backends/backend.js';

export interface RenderOptions {
  backend?: Backend;
  sources?: SourceRegistry;
  signal?: AbortSignal;
}

export interface RenderResult {
  raster: Raster;
  stats: RenderStats;
}

const noSources: SourceRegistry = {
  featureSource() {
    throw new RenderError('no sources are bound to this render');
  },
  demSource() {
    throw new RenderError('no sources are bound to this render');
  },
  async attribution() {
    return [];
  },
};

const defaultCpu: Backend = new CpuBackend();

function asNumber(v: ScalarValue, where: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  throw new RenderError(`${where}: expected a number but got a colour`);
}

/** Render the plan's output for a window. Each node runs once; the result is cropped to the window. */
export async function render(plan: Plan, window: Window, params?: ParamValues, options: RenderOptions = {}): Promise<RenderResult> {
  const backend = options.backend ?? defaultCpu;
  try {
    return await renderOnce(plan, window, params, options, backend);
  } catch (e) {
    // A backend that recovered (its GPU device was lost and replaced) gets one retry.
    if (backend.recover && !options.signal?.aborted && (await backend.recover(e))) return renderOnce(plan, window, params, options, backend);
    throw e;
  }
}

async function renderOnce(plan: Plan, window: Window, params: ParamValues | undefined, options: RenderOptions, shared: Backend): Promise<RenderResult> {
  const sources = options.sources ?? noSources;
  const values = params ?? new ParamValues(plan.params);
  const stats: RenderStats = { nodes: 0, passes: 0, submits: 0, readbacks: 0, bytesReadBack: 0 };
  const results = new Map<string, Value>();
  const canvases = new Map<string, Canvas>();
  const backend = shared.begin?.(stats) ?? shared;
  // How many consumers still have to read each node: at zero its storage goes back to the backend.
  const pending = new Map<string, number>();
  for (const id of plan.order) for (const from of new Set(plan.nodes.get(id)!.edges.map((e) => e.from))) pending.set(from, (pending.get(from) ?? 0) + 1);
  const fused = backend.paintTargets ? plan.fusions : new Map<string, string>();
  const paintedLater = new Set(fused.values());
  try {
    for (const id of plan.order) {
      options.signal?.throwIfAborted();
      if (paintedLater.has(id)) continue; // drawn straight onto its blend's base, below
      const n = plan.nodes.get(id)!;
      const canvas = growWindow(window, n.margin);
      canvases.set(id, canvas);
      const temps: Value[] = [];
      const ctx = makeContext(plan, n, canvas, window, values, results, canvases, backend, sources, options.signal, temps);
      let value: Value;
      let edges = n.edges;
      try {
        const paintId = fused.get(id);
        if (paintId) {
          // A plain normal blend of a paint layer: paint the layer's features onto (a copy of) the base.
          const p = plan.nodes.get(paintId)!;
          canvases.set(paintId, canvas);
          const pctx = makeContext(plan, p, canvas, window, values, results, canvases, backend, sources, options.signal, temps);
          pctx.target = ownedBase(ctx, n, plan, pending, results, temps);
          value = await backend.run(p.op, pctx);
          edges = [...n.edges.filter((e) => e.field !== 'over'), ...p.edges];
          pending.delete(paintId);
        } else {
          value = await backend.run(n.op, ctx);
        }
      } catch (e) {
        if (e instanceof TilegraphError) throw e;
        if ((e as Error)?.name === 'AbortError') throw e;
        throw new RenderError([{ pointer: n.pointer, message: `node '${id}' (${n.op.name}) failed: ${(e as Error).message ?? e}` }], { cause: e });
      }
      if (value.kind !== n.kind) throw new RenderError(`node '${id}' produced ${value.kind}, expected ${n.kind}`);
      results.set(id, value);
      stats.nodes++;
      if (backend.release) releaseDone(plan, edges, value, temps, pending, results, backend);
    }
    const out = results.get(plan.output)!;
    const cropped = backend.crop(out, canvases.get(plan.output)!, window);
    const raster = await backend.read(cropped);
    return { raster, stats };
  } finally {
    backend.end?.();
  }
}

/** Storage of a CPU value (the GPU backend manages its own textures and has no release()). */
const storage = (v: Value): unknown => (v as { data?: unknown }).data;

/** Give back the crops made for this node and every input whose last consumer has now run. */
function releaseDone(plan: Plan, edges: PlanNode['edges'], value: Value, temps: Value[], pending: Map<string, number>, results: Map<string, Value>, backend: Backend): void {
  const live = new Set<unknown>([storage(value)]);
  for (const t of temps) if (!live.has(storage(t)) && ![...results.values()].some((r) => storage(r) === storage(t))) backend.release!(t);
  for (const from of new Set(edges.map((e) => e.from))) {
    const left = (pending.get(from) ?? 1) - 1;
    pending.set(from, left);
    if (left > 0 || from === plan.output) continue;
    const v = results.get(from);
    if (!v) continue;
    results.delete(from);
    const s = storage(v);
    if (s !== undefined && !live.has(s) && ![...results.values()].some((r) => storage(r) === s)) backend.release!(v);
  }
}

/**
 * The base of a fused blend as a raster the paint op may draw on: the base itself when this blend
 * is its last reader (and nothing else holds its storage), the crop made for this node, or a copy.
 */
function ownedBase(ctx: OpContext, n: PlanNode, plan: Plan, pending: Map<string, number>, results: Map<string, Value>, temps: Value[]): Raster {
  const baseId = n.edges.find((e) => e.field === 'base')!.from;
  const source = results.get(baseId) as Raster;
  const base = ctx.input<'raster'>('base');
  const t = temps.indexOf(base);
  if (t >= 0) {
    temps.splice(t, 1); // a fresh crop: ours to draw on
    return base;
  }
  const shared = [...results.entries()].some(([k, r]) => k !== baseId && storage(r) === storage(source));
  if (pending.get(baseId) === 1 && baseId !== plan.output && !shared && base.data === source.data) {
    results.delete(baseId); // handed over: never released separately
    return base;
  }
  const copy = newRaster(base.width, base.height);
  copy.data.set(base.data);
  return copy;
}

function makeContext(
  plan: Plan,
  n: PlanNode,
  canvas: Canvas,
  window: Window,
  params: ParamValues,
  results: Map<string, Value>,
  canvases: Map<string, Canvas>,
  backend: Backend,
  sources: SourceRegistry,
  signal: AbortSignal | undefined,
  temps: Value[],
): OpContext {
  const spec = n.spec;
  const edge = (field: string) => n.edges.find((e) => e.field === field);
  const scalarOf = (v: unknown, field: string): ScalarValue | undefined => {
    if (typeof v === 'string') {
      if (v.startsWith('$')) return params.get(v.slice(1));
      if (v.startsWith('@')) {
        const e = edge(field);
        const r = e && results.get(e.from);
        if (r?.kind === 'scalar') return r.value;
        throw new RenderError(`node '${n.id}' field '${field}': '${v}' is not a scalar`);
      }
      const c = parseHexColor(v);
      if (c) return c;
      return undefined;
    }
    if (typeof v === 'number' || typeof v === 'boolean') return v;
    return undefined;
  };
  const ctx: OpContext = {
    id: n.id,
    node: spec,
    canvas,
    window,
    zoom: window.z,
    input<K extends Kind>(field: string, grow?: number) {
      const e = edge(field);
      if (!e) throw new RenderError(`node '${n.id}' has no input '${field}'`);
      const v = results.get(e.from)!;
      if (v.kind === 'features' || v.kind === 'scalar' || v.kind === 'sprite' || v.kind === 'brush') return v as never;
      const g = grow ?? (n.op.pad ? Math.ceil(n.op.pad((f) => n.bounds[f], field, spec)) : 0);
      const c = backend.crop(v, canvases.get(e.from)!, growWindow(canvas, g));
      if (c !== v && storage(c) !== storage(v)) temps.push(c); // a fresh copy, released after this node
      return c as never;
    },
    has(field) {
      return !!edge(field) || spec[field] !== undefined;
    },
    num(field, fallback) {
      const v = spec[field];
      const s = v === undefined ? fallback : scalarOf(v, field);
      if (s === undefined) {
        const d = (n.op.fields[field] as { default?: unknown } | undefined)?.default;
        if (typeof d === 'number') return d;
        throw new RenderError(`node '${n.id}' field '${field}' has no value`);
      }
      let x = asNumber(s, `node '${n.id}' field '${field}'`);
      // Port and param values above a padding field's static bound clamp to it.
      if (n.op.paddingFields?.includes(field) && n.bounds[field] !== undefined) x = Math.min(x, n.bounds[field]!);
      return x;
    },
    color(field, fallback) {
      const v = spec[field];
      const s = v === undefined ? fallback : scalarOf(v, field);
      if (Array.isArray(s)) return s as RGBA;
      if (s === undefined) throw new RenderError(`node '${n.id}' field '${field}' has no colour`);
      throw new RenderError(`node '${n.id}' field '${field}' is not a colour`);
    },
    bool(field, fallback) {
      const v = spec[field];
      const s = v === undefined ? fallback : scalarOf(v, field);
      if (typeof s === 'boolean') return s;
      if (typeof s === 'number') return s !== 0;
      const d = (n.op.fields[field] as { default?: unknown } | undefined)?.default;
      if (typeof d === 'boolean') return d;
      throw new RenderError(`node '${n.id}' field '${field}' is not a bool`);
    },
    resolve(v) {
      const s = scalarOf(v, '');
      if (s === undefined) throw new RenderError(`node '${n.id}': cannot resolve ${JSON.stringify(v)}`);
      return s;
    },
    bound(field) {
      const b = n.bounds[field];
      if (b === undefined) throw new RenderError(`node '${n.id}' field '${field}' has no static bound`);
      return b;
    },
    expr(field) {
      return n.exprs.get(field);
    },
    sources,
    signal,
  };
  void plan;
  return ctx;
}
