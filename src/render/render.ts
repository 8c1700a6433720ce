// render: execute a plan for one window with one set of param values on a backend session.
import { CpuBackend } from '../backends/cpu/backend.js';
import { checkWindow } from '../graph/limits.js';
import { padBounds, renderMargins, type RenderMargins } from '../graph/margins.js';
import { newRasterUninit } from '../backends/cpu/raster.js';
import { ownCopy, release } from '../backends/cpu/pool.js';
import { toRGBA8 } from './encode.js';
import { arenaAlloc, arenaFree, inArena } from '../util/wasm-arena.js';
import { forgetUniform, markUniform, takeUntouched, uniformOf } from '../backends/cpu/uniform.js';
import { isDeviceValue, storageOf, type Backend, type Handle, type RenderStats, type Session } from '../backends/backend.js';
import { RenderError, TilegraphError } from '../errors.js';
import { inputField, type Fusion, type Plan, type PlanNode } from '../graph/build.js';
import { demandPlan, demandRuns } from '../graph/demand.js';
import type { OpContext } from '../ops/types.js';
import { ParamValues, parseHexColor } from '../params/index.js';
import type { SourceRegistry } from '../sources/types.js';
import type { NodeCache } from './node-cache.js';
import { isPixelField } from './pixel-ratio.js';
import { growWindow, type Canvas, type Kind, type RGBA, type Raster, type ScalarValue, type ValueOf, type Window } from '../types.js';

export interface RenderOptions {
  backend?: Backend;
  sources?: SourceRegistry;
  signal?: AbortSignal;
  /** Node results kept across renders: a node whose key (window, params it reads) is there is not re-run. */
  nodeCache?: NodeCache;
  /**
   * The caller reads the output raster and gives it back (releaseRaster) without keeping or
   * transferring its buffer (a tile server's worker encoding it): a raster in the CPU backend's
   * canvas arena is handed out where it lies, not copied into a buffer of the caller's own.
   */
  arenaOutput?: boolean;
  /**
   * The caller wants the output as 8-bit straight-alpha RGBA (toRGBA8; the preview's tiles):
   * converted where the raster lies (the canvas arena, the node cache's array), with no float copy
   * for the caller; the result's `rgba8` holds it, and its raster has no pixels (`data` empty).
   * An array instead of `true`: the pixels go into it when it holds exactly the output's bytes (a
   * buffer the caller recycles: the preview's workers get theirs back from the page, issue 25),
   * else into a new one.
   */
  rgba8?: boolean | Uint8ClampedArray;
}

export interface RenderResult {
  raster: Raster;
  stats: RenderStats;
  /** The output as 8-bit straight-alpha RGBA, when asked for (RenderOptions.rgba8). */
  rgba8?: Uint8ClampedArray;
}

const noSources: SourceRegistry = {
  featureSource() {
    throw new RenderError('no sources are bound to this render');
  },
  demSource() {
    throw new RenderError('no sources are bound to this render');
  },
  rasterSource() {
    throw new RenderError('no sources are bound to this render');
  },
  async attribution() {
    return [];
  },
};

/** The default backend; stateless (each render begins its own session). */
const defaultCpu: Backend = new CpuBackend();

/** What one render holds while it runs. */
interface RenderState {
  plan: Plan;
  window: Window;
  params: ParamValues;
  session: Session;
  sources: SourceRegistry;
  signal?: AbortSignal;
  /** Each node's output, until its last consumer has run. */
  results: Map<string, Handle>;
  canvases: Map<string, Canvas>;
  /** How many consumers still have to read each node: at zero its storage goes back to the session. */
  pending: Map<string, number>;
  /** Storage owned by the node cache: never released to the pool, never painted on. */
  pinned: Set<object>;
  /** What nodes published beside their values (OpContext.publish), by node id. */
  published: Map<string, unknown>;
  /** Each node's margin and pad bounds in this render (src/graph/margins.ts). */
  margins: RenderMargins;
}

/**
 * The zoom that expressions, `zoom` nodes and `features` zoom ranges see: the window's zoom, or
 * with a style's `zoom-basis` (MapLibre styles: 512) the zoom at which a map of `basis` px tiles
 * shows this window at its density: z + log2(tileSize / pixelRatio / basis), fractional where
 * the window is not drawn at that tile size (a 256 px tile at z sees z - 1).
 */
export function expressionZoom(window: Window, basis: number | undefined): number {
  if (!basis) return window.z;
  return window.z + Math.log2(window.tileSize / (window.pixelRatio ?? 1) / basis);
}

function asNumber(v: ScalarValue, where: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  throw new RenderError(`${where}: expected a number but got a colour`);
}

/** Render the plan's output for a window. Each node runs once; the result is cropped to the window. */
export async function render(plan: Plan, window: Window, params?: ParamValues, options: RenderOptions = {}): Promise<RenderResult> {
  checkWindow(plan, window); // malformed windows, canvas and memory bounds: a LimitError before anything allocates
  const backend = options.backend ?? defaultCpu;
  const run = async () => {
    const r = await renderOnce(plan, window, params, options, backend);
    return r.rgba8 ? { raster: r.raster!, stats: r.stats, rgba8: r.rgba8 } : { raster: r.raster!, stats: r.stats };
  };
  try {
    return await run();
  } catch (e) {
    // A backend that recovered (its GPU device was lost and replaced) gets one retry.
    if (!options.signal?.aborted && (await backend.recover(e))) return run();
    throw e;
  }
}

/**
 * What nodes `ids` publish for a window (a text node: its candidate and placed labels, world
 * pixels; TextPlacement), decided as a render of that window decides them: only these nodes and
 * what they read run, and a node whose op has `decide` runs that instead of its kernel (nothing
 * is drawn). Nodes that publish nothing are absent from the map.
 */
export async function decide(
  plan: Plan,
  window: Window,
  ids: readonly string[],
  params?: ParamValues,
  options: RenderOptions = {},
): Promise<Map<string, unknown>> {
  checkWindow(plan, window);
  for (const id of ids) if (!plan.nodes.has(id)) throw new RenderError(`no node '${id}' in this style`);
  const r = await renderOnce(plan, window, params, options, options.backend ?? defaultCpu, new Set(ids));
  return new Map(ids.filter((id) => r.published.has(id)).map((id) => [id, r.published.get(id)]));
}

/** The nodes `ids` read, directly or not, and themselves. */
function upstream(plan: Plan, ids: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  const visit = (id: string) => {
    if (out.has(id)) return;
    out.add(id);
    for (const e of plan.nodes.get(id)!.edges) visit(e.from);
  };
  for (const id of ids) visit(id);
  return out;
}

async function renderOnce(
  plan: Plan,
  window: Window,
  params: ParamValues | undefined,
  options: RenderOptions,
  backend: Backend,
  targets?: ReadonlySet<string>,
): Promise<{ raster?: Raster; rgba8?: Uint8ClampedArray; stats: RenderStats; published: Map<string, unknown> }> {
  // decide(): only what the targets read runs, and ops that can decide without drawing do.
  const needed = targets && upstream(plan, targets);
  const session = backend.begin();
  // Demand (src/graph/demand.ts): on the CPU, without a node cache, a noise read only by
  // displaces computes the pixels they can move, after their inputs.
  const demand = session.paintTargets && !needed && !options.nodeCache ? demandPlan(plan) : undefined;
  const order = needed ? plan.order.filter((id) => needed.has(id)) : (demand?.order ?? plan.order);
  const values = params ?? new ParamValues(plan.params);
  const st: RenderState = {
    plan,
    window,
    params: values,
    session,
    sources: options.sources ?? noSources,
    signal: options.signal,
    results: new Map(),
    canvases: new Map(),
    pending: new Map(),
    pinned: new Set(),
    published: new Map(),
    // With a node cache (the preview: params change between renders) the plan's margins: a value
    // that grew a reach would re-run every node upstream of it, though none reads that param.
    margins: renderMargins(plan, options.nodeCache ? undefined : values, window.pixelRatio ?? 1),
  };
  const cache = options.nodeCache;
  for (const id of order) for (const from of new Set(plan.nodes.get(id)!.edges.map((e) => e.from))) st.pending.set(from, (st.pending.get(from) ?? 0) + 1);
  const fused = session.paintTargets && !needed ? fusionsFor(plan, !!cache) : new Map<string, Fusion>();
  const paintedLater = new Set([...fused.values()].map((f) => f.paintId));
  try {
    for (const id of order) {
      options.signal?.throwIfAborted();
      if (paintedLater.has(id)) continue; // drawn straight onto its composite's base, below
      const n = plan.nodes.get(id)!;
      const canvas = growWindow(window, st.margins.margin.get(id)!);
      st.canvases.set(id, canvas);
      const temps: Handle[] = [];
      const ctx = makeContext(st, n, canvas, temps);
      if (demand?.readers.has(id) && n.op.honoursDemand?.(n.spec, canvas)) ctx.demand = demandOf(st, demand.readers.get(id)!, canvas);
      if (needed && n.op.decide) {
        // Decided, not drawn: what it publishes is all its readers here take from it.
        try {
          st.published.set(id, await n.op.decide(ctx));
        } catch (e) {
          if (e instanceof TilegraphError || (e as Error)?.name === 'AbortError') throw e;
          throw new RenderError([{ pointer: n.pointer, message: `node '${n.copyOf ?? id}' (${n.op.name}) failed: ${(e as Error).message ?? e}` }], {
            cause: e,
          });
        }
        releaseDone(st, n.edges, undefined, temps);
        continue;
      }
      let value: Handle;
      let edges = n.edges;
      const fusion = fused.get(id);
      const key = cache?.key(plan, n, window, st.params);
      const cached = key === undefined ? undefined : cache!.get(key, canvas);
      const hit = cached?.value;
      try {
        if (cached) {
          // Computed over a canvas holding this one (a render whose values needed more margin): the
          // same pixels where they overlap, and readers crop from the canvas it has.
          value = cached.value;
          st.canvases.set(id, cached.canvas);
          const pub = cache!.published(key!);
          if (pub !== undefined) st.published.set(id, pub);
          if (fusion) {
            edges = [...n.edges.filter((e) => e.field !== fusion.paint), ...plan.nodes.get(fusion.paintId)!.edges];
            st.pending.delete(fusion.paintId);
          }
        } else if (fusion) {
          // A plain source-over of a paint layer: paint the layer's features onto (a copy of) the base.
          const p = plan.nodes.get(fusion.paintId)!;
          st.canvases.set(fusion.paintId, canvas);
          const pctx = makeContext(st, p, canvas, temps);
          const target = ownedBase(st, ctx, n, fusion, temps);
          // The paint writes into the target: its one-value mark (src/backends/cpu/uniform.ts)
          // holds afterwards only if the op reports it drew nothing.
          const mark = uniformOf(target.data);
          forgetUniform(target.data);
          pctx.target = target;
          value = await session.run(p.op, pctx);
          if (takeUntouched(target.data) && mark && storageOf(value) === target.data) markUniform(target.data, mark);
          edges = [...n.edges.filter((e) => e.field !== fusion.paint), ...p.edges];
          st.pending.delete(fusion.paintId);
        } else {
          value = await session.run(n.op, ctx);
        }
      } catch (e) {
        if (e instanceof TilegraphError) throw e;
        if ((e as Error)?.name === 'AbortError') throw e;
        throw new RenderError([{ pointer: n.pointer, message: `node '${n.copyOf ?? id}' (${n.op.name}) failed: ${(e as Error).message ?? e}` }], { cause: e });
      }
      if (value.kind !== n.kind) throw new RenderError(`node '${id}' produced ${value.kind}, expected ${n.kind}`);
      st.results.set(id, value);
      if (hit) session.stats.cached++;
      else session.stats.nodes++;
      if (key !== undefined && !hit && !isDeviceValue(value)) cache!.set(key, value, canvas, st.published.get(id));
      const s = storageOf(value);
      if (key !== undefined && s && !isDeviceValue(value)) st.pinned.add(s);
      releaseDone(st, edges, value, temps);
    }
    if (needed) return { stats: session.stats, published: st.published };
    const out = st.results.get(plan.output)!;
    const cropped = session.crop(out, st.canvases.get(plan.output)!, window);
    return { ...callersOutput(st, await session.read(cropped), options), stats: session.stats, published: st.published };
  } finally {
    session.end();
  }
}

/** The output as its caller asked for it: 8-bit RGBA converted where it lies (RenderOptions.rgba8), else callersRaster. */
function callersOutput(st: RenderState, read: Raster, options: RenderOptions): { raster: Raster; rgba8?: Uint8ClampedArray } {
  if (!options.rgba8) return { raster: callersRaster(st, read, options) };
  const into = options.rgba8 instanceof Uint8ClampedArray && options.rgba8.length === read.width * read.height * 4 ? options.rgba8 : undefined;
  const rgba8 = toRGBA8(read, into);
  // The render's own raster goes back to the pool; the node cache's stays the cache's.
  if (!st.pinned.has(read.data)) release(read.data);
  return { raster: { ...read, data: new Float32Array(0) }, rgba8 };
}

/**
 * The output raster as its caller gets it, its own (it may transfer it): never the node cache's
 * array (a copy), nor a view of the CPU backend's canvas arena (its buffer is the arena's memory,
 * which cannot be transferred: the pixels go into a pooled buffer of the caller's own, the arena's
 * back to the pool), unless the caller only reads it and gives it back (arenaOutput).
 */
function callersRaster(st: RenderState, raster: Raster, options: RenderOptions): Raster {
  if (st.pinned.has(raster.data)) return { ...raster, data: raster.data.slice() };
  if (!options.arenaOutput && inArena(raster.data)) return { ...raster, data: ownCopy(raster.data) };
  return raster;
}

/**
 * What a demand node's readers read of it (OpDef.demand, over its canvas) as runs of pixels
 * (demandRuns), or undefined where a reader cannot tell (every pixel).
 */
function demandOf(st: RenderState, readers: { id: string; field: string }[], canvas: Canvas): Int32Array | undefined {
  // In the canvas arena where it has room, so a reader's WebAssembly marks it in place.
  const n = canvas.width * canvas.height;
  const block = arenaAlloc(Math.ceil(n / 4), true);
  try {
    const mask = block ? new Uint8Array(block.buffer, block.byteOffset, n) : new Uint8Array(n);
    return demandMarks(st, readers, canvas, mask) ? demandRuns(mask, canvas.width, canvas.height) : undefined;
  } finally {
    if (block) arenaFree(block);
  }
}

/** Each reader's marks (OpDef.demand) in `mask`; false where one cannot tell. */
function demandMarks(st: RenderState, readers: { id: string; field: string }[], canvas: Canvas, mask: Uint8Array): boolean {
  for (const { id, field } of readers) {
    const r = st.plan.nodes.get(id)!;
    const temps: Handle[] = [];
    const ctx = makeContext(st, r, growWindow(st.window, st.margins.margin.get(id)!), temps);
    const read = (f: string) => {
      const e = r.edges.find((x) => x.field === f);
      const value = e && st.results.get(e.from);
      if (!e || !value || isDeviceValue(value)) throw new RenderError(`node '${id}': its input '${f}' is not drawn yet`);
      return { value, canvas: st.canvases.get(e.from)! };
    };
    if (!r.op.demand!(inputField(field), ctx, read, mask, canvas)) return false;
  }
  return true;
}

/** Whether storage `s` must be kept: the node cache owns it, or a result other than `except` holds it. */
function held(st: RenderState, s: object | undefined, except?: string): boolean {
  if (s && st.pinned.has(s)) return true;
  for (const [k, r] of st.results) if (k !== except && storageOf(r) === s) return true;
  return false;
}

/** Give back the crops made for this node and every input whose last consumer has now run. */
function releaseDone(st: RenderState, edges: PlanNode['edges'], value: Handle | undefined, temps: Handle[]): void {
  const live = new Set<unknown>(value ? [storageOf(value)] : []);
  for (const t of temps) if (!live.has(storageOf(t)) && !held(st, storageOf(t))) st.session.release(t);
  for (const from of new Set(edges.map((e) => e.from))) {
    const left = (st.pending.get(from) ?? 1) - 1;
    st.pending.set(from, left);
    if (left > 0 || from === st.plan.output) continue;
    const v = st.results.get(from);
    if (!v) continue;
    st.results.delete(from);
    const s = storageOf(v);
    if (s !== undefined && !live.has(s) && !held(st, s)) st.session.release(v);
  }
}

/**
 * The fusions a render uses (on sessions that paint onto targets). With a node cache, a paint whose
 * params are a strict subset of its composite's stays its own node: a change that reaches only the
 * base (a shadow, a background) then reuses the cached paint and re-runs one composite instead of
 * rasterizing the paint again. (The composite reads every param its paint reads, so comparing sizes
 * is the subset test.)
 */
export function fusionsFor(plan: Plan, withNodeCache: boolean): Map<string, Fusion> {
  if (!withNodeCache) return plan.fusions;
  return new Map([...plan.fusions].filter(([id, f]) => plan.nodes.get(f.paintId)!.params.size === plan.nodes.get(id)!.params.size));
}

/**
 * The base of a fused composite as a raster the paint op may draw on: what takeInput hands over
 * (the base itself when this node is its last reader and nothing else holds its storage, or the
 * crop made for this node), else a copy. Only sessions with paintTargets (the CPU) fuse, so the base is a CPU raster.
 */
function ownedBase(st: RenderState, ctx: OpContext, n: PlanNode, fusion: Fusion, temps: Handle[]): Raster {
  const base = ctx.input<'raster'>(fusion.base);
  const owned = takeInput(st, n, fusion.base, base, temps);
  if (owned) return owned;
  const copy = newRasterUninit(base.width, base.height); // every value is copied in below
  copy.data.set(base.data);
  const mark = uniformOf(base.data);
  if (mark) markUniform(copy.data, mark);
  return copy;
}

/**
 * OpContext.takeInput: the raster an input gave, for the op to write into, where nothing else can
 * read it afterwards (a fresh crop made for this node, or the input's own storage when this node is
 * its last reader); else undefined. No other input of the node may share its storage.
 */
function takeInput(st: RenderState, n: PlanNode, field: string, raster: Raster, temps: Handle[]): Raster | undefined {
  const e = n.edges.find((x) => x.field === field);
  if (!e || raster.kind !== 'raster' || isDeviceValue(raster)) return undefined;
  for (const x of n.edges) {
    if (x === e) continue;
    const other = st.results.get(x.from);
    if (x.from === e.from || (other && !isDeviceValue(other) && other.kind === 'raster' && overlaps(other.data, raster.data))) return undefined;
  }
  const t = temps.indexOf(raster);
  if (t >= 0) {
    temps.splice(t, 1); // a fresh crop: ours
    st.session.stats.inPlace++;
    return raster;
  }
  const source = st.results.get(e.from);
  if (!source || isDeviceValue(source) || source.kind !== 'raster' || source.data !== raster.data) return undefined;
  if (st.pending.get(e.from) !== 1 || e.from === st.plan.output || held(st, source.data, e.from)) return undefined;
  st.results.delete(e.from); // handed over: never released as an input
  st.session.stats.inPlace++;
  return raster;
}

/** Whether two arrays share any bytes. */
function overlaps(a: Float32Array, b: Float32Array): boolean {
  return a.buffer === b.buffer && a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength;
}

function makeContext(st: RenderState, n: PlanNode, canvas: Canvas, temps: Handle[]): OpContext {
  const spec = n.spec;
  // @2x: sizes in pixels (fields declared `unit: 'px'`) scale with the window's pixel ratio
  // (src/render/pixel-ratio.ts): the pad of an input grows with them.
  const ratio = st.window.pixelRatio ?? 1;
  // This render's bounds (values where the op sizes its pad from them, src/graph/margins.ts).
  const scaledBound = padBounds(n, st.margins.bounds.get(n.id), ratio);
  const handle = (field: string, grow?: number): Handle => {
    const e = n.edges.find((x) => x.field === field);
    if (!e) throw new RenderError(`node '${n.id}' has no input '${field}'`);
    const v = st.results.get(e.from)!;
    if (v.kind === 'features' || v.kind === 'scalar' || v.kind === 'sprite' || v.kind === 'brush') return v;
    // The pad of the sizes this render uses: pixel fields' bounds times the ratio (what ctx.bound
    // hands the kernel), fixed pads (a 1 px neighbour read) as they are. Scaling the pad itself
    // instead would misplace the kernel's window: ceil(3 x 1.5) x 2 = 10, but a blur of sigma 3 reads 9.
    const g = grow ?? (n.op.pad ? Math.ceil(n.op.pad((f) => scaledBound(f), field, spec)) : 0);
    const c = st.session.crop(v, st.canvases.get(e.from)!, growWindow(canvas, g));
    if (c !== v && storageOf(c) !== storageOf(v)) temps.push(c); // a fresh copy, released after this node
    return c;
  };
  return {
    id: n.id,
    node: spec,
    canvas,
    planCanvas: growWindow(st.window, n.margin * ratio),
    window: st.window,
    zoom: expressionZoom(st.window, st.plan.doc['zoom-basis']),
    handle,
    input<K extends Kind>(field: string, grow?: number): ValueOf<K> {
      const h = handle(field, grow);
      // Sessions that run a CPU kernel on device data hand it a context of downloaded values.
      if (isDeviceValue(h)) throw new RenderError(`node '${n.id}' input '${field}' is on the device; a CPU kernel cannot read it`);
      return h as ValueOf<K>;
    },
    has(field) {
      return n.edges.some((e) => e.field === field) || spec[field] !== undefined;
    },
    takeInput: st.session.paintTargets ? (field, raster) => takeInput(st, n, field, raster, temps) : undefined,
    ...fieldReaders(st, n),
    sources: st.sources,
    signal: st.signal,
    reach: n.reach * ratio,
    groupsUnread: n.groupsUnread,
    channels: n.channelsRead,
    publish(data) {
      st.published.set(n.id, data);
    },
    published(field) {
      const e = n.edges.find((x) => x.field === field);
      return e ? st.published.get(e.from) : undefined;
    },
  };
}

/** The context's readers of a node's scalar fields: literals, `$param`s and `@node` scalars, schema defaults, pixel sizes times the ratio. */
function fieldReaders(st: RenderState, n: PlanNode): Pick<OpContext, 'num' | 'nums' | 'color' | 'bool' | 'resolve' | 'bound' | 'expr'> {
  const spec = n.spec;
  const where = (field: string) => `node '${n.id}' field '${field}'`;
  // @2x: sizes in pixels (fields declared `unit: 'px'`) scale with the window's pixel ratio
  // (src/render/pixel-ratio.ts).
  const ratio = st.window.pixelRatio ?? 1;
  const px = (field: string) => ratio !== 1 && isPixelField(n.op, field);
  // ctx.bound: this render's bound (where the kernel's input pad lies), src/graph/margins.ts.
  const scaledBound = padBounds(n, st.margins.bounds.get(n.id), ratio);
  const slotValue = (field: string): ScalarValue | undefined => {
    const slot = n.slots.get(field);
    if (!slot) return undefined;
    if (slot.kind === 'literal') return slot.value;
    if (slot.kind === 'param') return st.params.get(slot.name);
    const r = st.results.get(slot.id);
    if (r?.kind === 'scalar') return r.value;
    throw new RenderError(`${where(field)}: '@${slot.id}' is not a scalar`);
  };
  const scalar = (field: string, fallback: ScalarValue | undefined): ScalarValue | undefined => (spec[field] === undefined ? fallback : slotValue(field));
  const schemaDefault = (field: string): unknown => (n.op.fields[field] as { default?: unknown } | undefined)?.default;
  return {
    num(field, fallback) {
      const s = scalar(field, fallback);
      if (s === undefined) {
        const d = schemaDefault(field);
        if (typeof d === 'number') return px(field) ? d * ratio : d;
        throw new RenderError(`${where(field)} has no value`);
      }
      const x = asNumber(s, where(field));
      // Port and param values above a padding field's static bound clamp to it.
      const b = n.bounds[field];
      const v = b !== undefined && n.op.paddingFields?.includes(field) ? Math.min(x, b) : x;
      return px(field) ? v * ratio : v;
    },
    nums(field) {
      const v = spec[field] ?? schemaDefault(field);
      if (v === undefined) return undefined;
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'number')) throw new RenderError(`${where(field)} is not a list of numbers`);
      return px(field) ? v.map((x: number) => x * ratio) : [...(v as number[])];
    },
    color(field, fallback) {
      const s = scalar(field, fallback);
      if (Array.isArray(s)) return s as RGBA;
      if (s === undefined) throw new RenderError(`${where(field)} has no colour`);
      throw new RenderError(`${where(field)} is not a colour`);
    },
    bool(field, fallback) {
      const s = scalar(field, fallback);
      if (typeof s === 'boolean') return s;
      if (typeof s === 'number') return s !== 0;
      const d = schemaDefault(field);
      if (typeof d === 'boolean') return d;
      throw new RenderError(`${where(field)} is not a bool`);
    },
    resolve(v) {
      // Table entries (ramp stops, palettes, levels): a literal or a $param, never an @node.
      if (typeof v === 'number' || typeof v === 'boolean') return v;
      if (typeof v === 'string') {
        const p = v.startsWith('$') ? st.params.get(v.slice(1)) : undefined;
        if (p !== undefined) return p;
        const c = parseHexColor(v);
        if (c) return c;
      }
      throw new RenderError(`node '${n.id}': cannot resolve ${JSON.stringify(v)}`);
    },
    bound(field) {
      const b = scaledBound(field);
      if (b === undefined) throw new RenderError(`${where(field)} has no static bound`);
      return b;
    },
    expr(field) {
      const e = n.exprs.get(field);
      if (!e || !px(field)) return e;
      return {
        ...e,
        evaluate: (z, f, d) => {
          const v = e.evaluate(z, f, d);
          return typeof v === 'number' ? v * ratio : v;
        },
      };
    },
  };
}
