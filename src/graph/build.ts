// build: resolve refs, inline functions, check kinds, reject cycles, compute margins and the
// params each node reads. Runs once per style; every render of every host uses the result.
import { BuildError, ptr, type Problem } from '../errors.js';
import { compileExpr, ExprError, type CompiledExpr } from '../expr/index.js';
import { OPS } from '../ops/index.js';
import type { NodeSpec, OpDef } from '../ops/types.js';
import { checkDeclarations, paramsJsonSchema } from '../params/index.js';
import type { Schema } from '../style/fields.js';
import type { ParamDecl, StyleDoc } from '../style/types.js';
import { parseHexColor } from '../params/index.js';
import type { Kind, ScalarValue } from '../types.js';
import { styleVersion } from './hash.js';
import { checkLimits } from './limits.js';
import { levenshtein } from '../util/levenshtein.js';
import { formatInt, LIMITS } from '../limits.js';

/** One input edge of a plan node. */
export interface Edge {
  field: string;
  from: string;
  /** 'node' for declared node inputs, 'scalar' for `@node` scalar ports. */
  role: 'node' | 'scalar';
}

/**
 * A scalar field resolved at build time: a literal (colours parsed), a param slot, or a scalar
 * node's output. Render reads slots; it never re-parses `$name` / `@node` strings.
 */
export type Slot = { kind: 'literal'; value: ScalarValue } | { kind: 'param'; name: string } | { kind: 'node'; id: string };

/** A fused blend: its base field, and the paint op drawn straight onto that base. */
export interface Fusion {
  base: string;
  paint: string;
  /** Plan id of the paint node. */
  paintId: string;
}

export interface PlanNode {
  id: string;
  /** Where the node is written in the style document. */
  pointer: string;
  op: OpDef;
  spec: NodeSpec;
  kind: Kind;
  edges: Edge[];
  /** Margin in pixels: this node's canvas is the window grown by it. */
  margin: number;
  /**
   * Set on the copies `splitFeatures` makes of a `features` node (the style's node id): a copy is
   * the same node sampled over a smaller margin, for the readers that need no more.
   */
  copyOf?: string;
  /**
   * A `features` node (or copy) whose every reader reads it through an OpDef.readsWhole field:
   * where its source gives whole features or tile pieces, nothing reads its groups, so it samples
   * none (the text op reads a 448 px margin of a tiled source only as pieces).
   */
  groupsUnread?: boolean;
  /**
   * A raster node whose every reader reads only some of its channels (OpDef.readsChannels): their
   * union (bits 1 R, 2 G, 4 B, 8 A); the kernel may leave the others unset (a raster noise read
   * only by displaces computes no B). Undefined: all four (the output's and legend entries' too).
   */
  channelsRead?: number;
  /**
   * How far beyond its canvas this node must publish what it decided (a text node's placed
   * labels), for consumers that read only that (OpDef.reach): its inputs reach as far, its canvas
   * does not grow.
   */
  reach: number;
  /** Static bounds of padding-determining (and other boundable) fields. */
  bounds: Record<string, number>;
  /** Params this node reads directly. */
  directParams: Set<string>;
  /** Params this node reads, transitively through its inputs (cache keys). */
  params: Set<string>;
  exprs: Map<string, CompiledExpr>;
  /** Scalar fields (literal, param or node port) by field name. */
  slots: Map<string, Slot>;
}

export interface Plan {
  doc: StyleDoc;
  version: string;
  nodes: Map<string, PlanNode>;
  /** Topological order of the nodes the output depends on (inputs first). */
  order: string[];
  output: string;
  params: Record<string, ParamDecl>;
  paramsSchema: Record<string, unknown>;
  /** Legend entries with `from` resolved to plan ids. */
  legend: StyleDoc['legend'];
  /** Plain source-over composites whose layer is a paint op read by nothing else: composite node id -> fusion. */
  fusions: Map<string, Fusion>;
}

interface Raw {
  spec: NodeSpec;
  pointer: string;
  /** Call chain, for messages. */
  via: string;
}

/** The declared input of an edge field: `avoid/2` is an entry of the list input `avoid`. */
export const inputField = (edgeField: string): string => edgeField.split('/')[0]!;

const strip = (ref: string) => (ref.startsWith('@') || ref.startsWith('$') ? ref.slice(1) : ref);
const isExprField = (schema: Schema | undefined) => !!schema && 'x-expr' in schema;

/** Replace `@x` / `$x` strings throughout a value (not inside `*-expr` fields). */
function substitute(value: unknown, map: (s: string) => unknown): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((v) => substitute(v, map));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = k.endsWith('-expr') || k === 'expr' ? v : substitute(v, map);
    return out;
  }
  return value;
}

/** Thrown inside `inline` when the calls make more nodes than LIMITS.maxNodes: stops the expansion. */
class TooManyNodes extends Error {}

/**
 * Inline function calls. Recursive once per level of calls, which LIMITS.maxFunctionNesting bounds;
 * the nodes made are counted as they are made (calls that double at each level would make 2^n).
 */
function inline(
  doc: StyleDoc,
  problems: Problem[],
): { raw: Map<string, Raw>; aliases: Map<string, { target: string; kind: Kind; pointer: string }>; limited: boolean } {
  const raw = new Map<string, Raw>();
  const aliases = new Map<string, { target: string; kind: Kind; pointer: string }>();
  const functions = doc.functions ?? {};
  let made = 0;
  let limited = false;
  const reported = new Set<string>();
  const report = (p: Problem) => {
    const k = p.pointer + '|' + p.message;
    if (!reported.has(k)) problems.push(p);
    reported.add(k);
  };

  const expand = (nodes: Record<string, NodeSpec>, prefix: string, basePointer: string, args: Record<string, unknown> | null, stack: string[]) => {
    const local = new Set(Object.keys(nodes));
    const map = (s: string): unknown => {
      const m = /^([@$])([A-Za-z_][A-Za-z0-9_-]*)$/.exec(s);
      if (!m) return s;
      const [, sigil, name] = m as unknown as [string, string, string];
      if (sigil === '@' && local.has(name)) return '@' + prefix + name;
      if (args && name in args) return structuredClone(args[name]);
      return s;
    };
    for (const [name, node] of Object.entries(nodes)) {
      const pointer = basePointer + ptr(name);
      if (++made > LIMITS.maxNodes) throw new TooManyNodes();
      const spec = substitute(node, map) as NodeSpec;
      const id = prefix + name;
      if (spec.op !== 'func') {
        raw.set(id, { spec, pointer, via: stack.join(' > ') });
        continue;
      }
      const fname = String(spec.function ?? '');
      const fn = functions[fname];
      if (!fn) {
        problems.push({
          pointer: pointer + '/function',
          message: `unknown function '${fname}'${Object.keys(functions).length ? `; defined: ${Object.keys(functions).join(', ')}` : ''}`,
        });
        continue;
      }
      if (stack.includes(fname)) {
        report({ pointer: pointer + '/function', message: `function '${fname}' calls itself (${[...stack, fname].join(' > ')})` });
        continue;
      }
      if (stack.length >= LIMITS.maxFunctionNesting) {
        limited = true;
        report({
          pointer: pointer + '/function',
          message: `function calls nested ${stack.length + 1} deep (${[...stack, fname].join(' > ')}); the limit is ${LIMITS.maxFunctionNesting}`,
        });
        continue;
      }
      const given = (spec.inputs ?? {}) as Record<string, unknown>;
      const callArgs: Record<string, unknown> = {};
      for (const k of Object.keys(given)) {
        if (!fn.inputs || !(k in fn.inputs)) problems.push({ pointer: pointer + ptr('inputs', k), message: `function '${fname}' has no input '${k}'` });
      }
      for (const [k, decl] of Object.entries(fn.inputs ?? {})) {
        if (given[k] !== undefined) callArgs[k] = given[k];
        else if (decl.default !== undefined) callArgs[k] = decl.default;
        else problems.push({ pointer: pointer + '/inputs', message: `call to '${fname}' is missing input '${k}' (kind ${decl.kind}, no default)` });
      }
      const fnPointer = ptr('functions', fname, 'nodes');
      expand(fn.nodes, id + '/', fnPointer, callArgs, [...stack, fname]);
      const out = strip(fn.output);
      if (!(out in fn.nodes)) {
        problems.push({ pointer: ptr('functions', fname, 'output'), message: `output '${fn.output}' is not a node of function '${fname}'` });
        continue;
      }
      aliases.set(id, { target: id + '/' + out, kind: fn['output-kind'], pointer });
      // Record the declared kinds of node-valued arguments for checking once kinds are known.
      for (const [k, decl] of Object.entries(fn.inputs ?? {})) {
        const a = callArgs[k];
        if (typeof a === 'string' && a.startsWith('@')) {
          argChecks.push({ pointer: pointer + ptr('inputs', k), ref: a.slice(1), kind: decl.kind, fname, input: k });
        }
      }
    }
  };
  const argChecks: { pointer: string; ref: string; kind: Kind; fname: string; input: string }[] = [];
  // Top-level nodes one at a time, so the node-limit problem names the call that passed it.
  for (const [name, node] of Object.entries(doc.nodes)) {
    try {
      expand({ [name]: node }, '', '/nodes', null, []);
    } catch (e) {
      if (!(e instanceof TooManyNodes)) throw e;
      limited = true;
      problems.push({
        pointer: '/nodes' + ptr(name),
        message: `inlining the function calls makes more than ${formatInt(LIMITS.maxNodes)} nodes (the limit)`,
      });
      break;
    }
  }
  (raw as unknown as { argChecks: typeof argChecks }).argChecks = argChecks;
  return { raw, aliases, limited };
}

type ArgCheck = { pointer: string; ref: string; kind: Kind; fname: string; input: string };

/** What the passes of buildPlan share: the nodes, the problems found so far, the params, alias resolution. */
interface Build {
  nodes: Map<string, PlanNode>;
  problems: Problem[];
  params: Record<string, ParamDecl>;
  /** The node an id (or a function call's alias) stands for, or undefined. */
  resolveId: (name: string) => string | undefined;
}

export function buildPlan(doc: StyleDoc): Plan {
  const problems: Problem[] = [...checkDeclarations(doc.params)];
  const params = doc.params ?? {};
  const { raw, aliases, limited } = inline(doc, problems);
  // Past a size limit the inlined graph is cut short: what else it lacks is noise.
  if (limited) throw new BuildError(problems);
  const argChecks = (raw as unknown as { argChecks: ArgCheck[] }).argChecks;

  const resolveId = (name: string): string | undefined => {
    let id = name;
    for (let i = 0; i < 64 && aliases.has(id); i++) id = aliases.get(id)!.target;
    return raw.has(id) ? id : undefined;
  };
  const b: Build = { nodes: planNodes(raw), problems, params, resolveId };
  for (const n of b.nodes.values()) linkNode(b, n);
  // Scalar slots: what render reads for each scalar field.
  for (const n of b.nodes.values()) {
    for (const [field, value] of Object.entries(n.spec)) {
      if (field === 'op' || n.op.inputs[field] || isExprField(n.op.fields[field])) continue;
      const slot = slotOf(n, field, value);
      if (slot) n.slots.set(field, slot);
    }
  }
  checkKinds(b, aliases, argChecks);

  // Output.
  const outputId = resolveId(strip(doc.output));
  const outKind = outputId ? b.nodes.get(outputId)?.kind : undefined;
  if (!outputId) problems.push({ pointer: '/output', message: `output '${doc.output}' names no node` });
  else if (outKind && outKind !== 'raster') {
    problems.push({ pointer: '/output', message: `output '${doc.output}' produces ${outKind}; the output must produce a raster` });
  }
  const legend = legendOf(b, doc);
  checkCycles(b);
  if (problems.length) throw new BuildError(problems);

  // Bounds of padding fields.
  for (const n of b.nodes.values()) {
    for (const field of Object.keys(n.op.fields)) {
      const bound = staticBound(n, field, params);
      if (bound.value !== undefined) n.bounds[field] = bound.value;
      else if (n.op.paddingFields?.includes(field) && bound.error) problems.push({ pointer: n.pointer + ptr(field), message: bound.error });
    }
  }
  if (problems.length) throw new BuildError(problems);

  const order = topoOrder(b.nodes, outputId!);
  spreadMargins(b.nodes, order);
  markChannelsRead(b.nodes, order, [outputId!, ...(legend?.entries ?? []).map((e) => e.from)]);
  const plan: Plan = {
    fusions: findFusions(b.nodes, order),
    doc,
    version: styleVersion(doc),
    nodes: b.nodes,
    order,
    output: outputId!,
    params,
    paramsSchema: paramsJsonSchema(params, doc.name),
    legend,
  };
  checkLimits(plan); // margins past the limit: a build error at the field (docs/format.md, Limits)
  return plan;
}

/** Pass 1: each inlined node's op and output kind (an unknown op the schema already reported is left out). */
function planNodes(raw: ReturnType<typeof inline>['raw']): Map<string, PlanNode> {
  const nodes = new Map<string, PlanNode>();
  for (const [id, r] of raw) {
    const op = OPS.get(r.spec.op);
    if (!op) continue;
    const kind = typeof op.output === 'function' ? op.output(r.spec) : op.output;
    nodes.set(id, {
      id,
      pointer: r.pointer,
      op,
      spec: r.spec,
      kind,
      edges: [],
      margin: 0,
      reach: 0,
      bounds: {},
      directParams: new Set(),
      params: new Set(),
      exprs: new Map(),
      slots: new Map(),
    });
  }
  return nodes;
}

/** Pass 2 for one node: its op's own checks, its edges (node inputs, `@node` scalars), its params and expressions. */
function linkNode(b: Build, n: PlanNode): void {
  const { problems } = b;
  const { op, spec } = n;
  for (const check of op.check?.(spec) ?? []) problems.push({ pointer: n.pointer + ptr(check.field), message: check.message });
  for (const [field, value] of Object.entries(spec)) {
    if (field === 'op') continue;
    const schema = op.fields[field];
    const at = n.pointer + ptr(field);
    if (op.inputs[field]) {
      // Asset fields (x-asset) take an `@node` or a literal asset path; only the former is an edge.
      if (schema?.['x-asset'] && typeof value === 'string' && !value.startsWith('@')) continue;
      linkInputs(b, n, field, value, at);
    } else if (isExprField(schema)) {
      try {
        n.exprs.set(field, compileExpr(value, schema!['x-expr'] as never, `${n.pointer}/${field}`));
      } catch (e) {
        if (e instanceof ExprError) problems.push({ pointer: at, message: `invalid expression: ${e.message}` });
        else throw e;
      }
    } else {
      walkRefs(value, schema, at, (s, sch, where) => linkScalar(b, n, field, s, sch, where));
    }
  }
}

/** The edges of an input field: one node reference, or a list of them (text `avoid`: field `<field>/<index>`). */
function linkInputs(b: Build, n: PlanNode, field: string, value: unknown, at: string): void {
  const refs: [string, unknown, string][] = Array.isArray(value) ? value.map((v, i) => [`${field}/${i}`, v, `${at}/${i}`]) : [[field, value, at]];
  for (const [edgeField, v, where] of refs) {
    const target = b.resolveId(strip(String(v)));
    if (!target) {
      b.problems.push({ pointer: where, message: `'${String(v)}' names no node${suggestNode(String(v), b.nodes, n)}` });
      continue;
    }
    if (target === n.id) {
      b.problems.push({ pointer: where, message: `a node cannot read itself` });
      continue;
    }
    n.edges.push({ field: edgeField, from: target, role: 'node' });
  }
}

/** One `$param` or `@node` reference in a scalar field: the param's type, or a scalar edge. */
function linkScalar(b: Build, n: PlanNode, field: string, s: string, sch: Schema, where: string): void {
  const { problems, params } = b;
  const type = sch['x-scalar'] as string;
  if (s.startsWith('$')) {
    const name = s.slice(1);
    const d = params[name];
    if (!d) {
      problems.push({
        pointer: where,
        message: `'${s}' names no declared param${Object.keys(params).length ? `; declared: ${Object.keys(params).join(', ')}` : ''}`,
      });
      return;
    }
    // An opacity takes a bool too (true = 1, false = 0): a bool param switches a layer.
    const fits = d.type === type || (d.type === 'bool' && sch['x-bool'] === true);
    if (!fits) problems.push({ pointer: where, message: `param '${name}' is a ${d.type} but this field takes a ${type}` });
    n.directParams.add(name);
    return;
  }
  if (sch['x-no-node']) {
    problems.push({ pointer: where, message: `'${s}': table entries accept a literal or a $param, never an @node` });
    return;
  }
  const target = b.resolveId(s.slice(1));
  if (!target) {
    problems.push({ pointer: where, message: `'${s}' names no node${suggestNode(s, b.nodes, n)}` });
    return;
  }
  n.edges.push({ field, from: target, role: 'scalar' });
  const made = scalarTypeOf(b.nodes.get(target));
  if (made && (made === 'color') !== (type === 'color')) {
    problems.push({ pointer: where, message: `'${s}' produces a ${made} but this field takes a ${type}` });
  }
}

/** Pass 3: the kind of every edge, of every function call's output and of its node-valued arguments. */
function checkKinds(b: Build, aliases: ReturnType<typeof inline>['aliases'], argChecks: ArgCheck[]): void {
  const { nodes, problems, resolveId } = b;
  for (const n of nodes.values()) {
    for (const e of n.edges) {
      const from = nodes.get(e.from);
      if (!from) continue;
      const expected = e.role === 'scalar' ? ['scalar'] : n.op.inputs[inputField(e.field)]!;
      if (!expected.includes(from.kind)) {
        problems.push({
          pointer: n.pointer + ptr(e.field),
          message: `node '${n.id}' field '${e.field}' expects ${expected.join(' or ')} but '${e.from}' produces ${from.kind}`,
        });
      }
    }
  }
  for (const [id, a] of aliases) {
    const t = resolveId(id);
    const tk = t ? nodes.get(t)?.kind : undefined;
    if (tk && tk !== a.kind)
      problems.push({ pointer: a.pointer, message: `function call '${id}' declares output-kind ${a.kind} but its output produces ${tk}` });
  }
  for (const c of argChecks) {
    const t = resolveId(c.ref);
    const tk = t ? nodes.get(t)?.kind : undefined;
    if (!t) problems.push({ pointer: c.pointer, message: `'@${c.ref}' names no node` });
    else if (tk && tk !== c.kind)
      problems.push({ pointer: c.pointer, message: `input '${c.input}' of function '${c.fname}' is a ${c.kind} but '@${c.ref}' produces ${tk}` });
  }
}

/** The legend with each entry's `from` resolved to its node (a raster node). */
function legendOf(b: Build, doc: StyleDoc): StyleDoc['legend'] {
  const legend = doc.legend ? structuredClone(doc.legend) : undefined;
  legend?.entries?.forEach((entry, i) => {
    const id = b.resolveId(strip(entry.from));
    if (!id) b.problems.push({ pointer: ptr('legend', 'entries', i, 'from'), message: `'${entry.from}' names no node` });
    else if (b.nodes.get(id)!.kind !== 'raster')
      b.problems.push({
        pointer: ptr('legend', 'entries', i, 'from'),
        message: `legend entries draw from a raster node; '${entry.from}' produces ${b.nodes.get(id)!.kind}`,
      });
    else entry.from = id;
  });
  return legend;
}

/** Cycles (over all nodes, so a cycle off the output's path is still reported), else chains too deep. */
function checkCycles(b: Build): void {
  const cycle = findCycle(b.nodes);
  if (cycle) {
    // A long cycle: its ends and how many between (the message stays a line).
    const refs = cycle.map((c) => '@' + c);
    const shown = refs.length > 13 ? [...refs.slice(0, 6), `... (${formatInt(refs.length - 12)} more)`, ...refs.slice(-6)] : refs;
    b.problems.push({ pointer: b.nodes.get(cycle[0]!)!.pointer, message: `the graph has a cycle: ${shown.join(' -> ')}` });
  } else {
    const deep = depthProblem(b.nodes);
    if (deep) b.problems.push(deep);
  }
}

/** Margins (consumers before their inputs: how far beyond the window each node draws) and the params each node reads. */
function spreadMargins(nodes: Map<string, PlanNode>, order: string[]): void {
  const featureNeeds = new Map<string, Map<number, Edge[]>>();
  for (let i = order.length - 1; i >= 0; i--) {
    const n = nodes.get(order[i]!)!;
    for (const e of n.edges) {
      if (e.role !== 'node') continue;
      const from = nodes.get(e.from)!;
      const reach = n.op.reach?.((f) => n.bounds[f], e.field, n.spec);
      if (reach !== undefined) {
        // Read only through what the input publishes: it decides farther out, draws no more.
        from.reach = Math.max(from.reach, n.margin + n.reach + Math.max(0, Math.ceil(reach)) - from.margin);
        continue;
      }
      const pad = n.op.pad ? Math.ceil(n.op.pad((f) => n.bounds[f], e.field, n.spec)) : 0;
      const need = n.margin + n.reach + Math.max(0, pad);
      if (from.op.name === 'features') {
        // Decided once every reader is seen (below): readers that need less get their own copy.
        let byNeed = featureNeeds.get(from.id);
        if (!byNeed) featureNeeds.set(from.id, (byNeed = new Map()));
        byNeed.set(need, [...(byNeed.get(need) ?? []), e]);
      }
      from.margin = Math.max(from.margin, need);
    }
  }
  splitFeatures(nodes, order, featureNeeds);
  markGroupsUnread(nodes, order);
  for (const id of order) {
    const n = nodes.get(id)!;
    n.params = new Set(n.directParams);
    for (const e of n.edges) for (const p of nodes.get(e.from)!.params) n.params.add(p);
  }
}

/** Pixels a features copy samples beyond its readers' need (splitFeatures). */
const SPLIT_SLACK = 16;

/**
 * A `features` node is sampled over the widest margin among its readers. Where readers need less
 * (a stroke beside a text node whose margin is hundreds of pixels), each smaller margin gets a copy
 * of the node, sampled over that margin only, so a fill or stroke is not computed over the
 * features of the text's whole margin: the same pixels (the reader draws within its own canvas),
 * less geometry. The copies are plan nodes only (id `<node>#<margin>`, `copyOf` set), placed in
 * the order where the node is; the style, the graph view and feature inspection see one node.
 * Pixels are the same: a reader draws within its own canvas, which its need covers.
 */
function splitFeatures(nodes: Map<string, PlanNode>, order: string[], needs: Map<string, Map<number, Edge[]>>): void {
  for (const [id, byNeed] of needs) {
    if (byNeed.size < 2) continue;
    const node = nodes.get(id)!;
    const at = order.indexOf(id);
    // Widest first; a new copy only where a reader needs under half the last copy's margin (a
    // copy is a second sampling of the source: not worth it for a few pixels). A copy samples
    // SPLIT_SLACK pixels more than its readers need: copies at exactly the need changed pixels
    // (the tile mosaics of the stipple, toner and world examples and four golden cases differed
    // by a few pixels; not yet explained which op's pad is short), with 16 to spare none do.
    let current = node;
    for (const need of [...byNeed.keys()].sort((a, b) => b - a)) {
      const margin = need + SPLIT_SLACK;
      if (margin < current.margin / 2) {
        current = { ...node, id: `${id}#${margin}`, copyOf: id, margin, reach: 0, edges: [...node.edges] };
        nodes.set(current.id, current);
        order.splice(at + 1, 0, current.id);
      }
      for (const e of byNeed.get(need)!) e.from = current.id;
    }
  }
}

/** Sets PlanNode.groupsUnread on the `features` nodes read only through OpDef.readsWhole fields. */
function markGroupsUnread(nodes: Map<string, PlanNode>, order: string[]): void {
  const readers = new Map<string, boolean>();
  for (const id of order)
    for (const e of nodes.get(id)!.edges) {
      if (nodes.get(e.from)?.op.name !== 'features') continue;
      const whole = e.role === 'node' && !!nodes.get(id)!.op.readsWhole?.includes(inputField(e.field));
      readers.set(e.from, (readers.get(e.from) ?? true) && whole);
    }
  for (const [id, whole] of readers) if (whole) nodes.get(id)!.groupsUnread = true;
}

/**
 * Sets PlanNode.channelsRead on the raster nodes whose readers all read fewer than four channels
 * (OpDef.readsChannels); `whole`: nodes read whole from outside the graph (the output, legend entries).
 */
function markChannelsRead(nodes: Map<string, PlanNode>, order: string[], whole: string[]): void {
  const read = new Map<string, number>(whole.map((id) => [id, 15]));
  for (const id of order) {
    const n = nodes.get(id)!;
    for (const e of n.edges) {
      if (e.role !== 'node' || nodes.get(e.from)?.kind !== 'raster') continue;
      read.set(e.from, (read.get(e.from) ?? 0) | (n.op.readsChannels?.(inputField(e.field), n.spec) ?? 15));
    }
  }
  for (const [id, mask] of read) if (mask !== 15 && nodes.has(id)) nodes.get(id)!.channelsRead = mask;
}

/** The scalar type a scalar node emits (its op's `scalarType`, else number). */
function scalarTypeOf(t: PlanNode | undefined): 'number' | 'color' | 'bool' | undefined {
  if (!t || t.kind !== 'scalar') return undefined;
  return t.op.scalarType?.(t.spec) ?? 'number';
}

function slotOf(n: PlanNode, field: string, value: unknown): Slot | undefined {
  if (typeof value === 'number' || typeof value === 'boolean') return { kind: 'literal', value };
  if (typeof value !== 'string') return undefined;
  if (value.startsWith('$')) return { kind: 'param', name: value.slice(1) };
  if (value.startsWith('@')) {
    const e = n.edges.find((x) => x.field === field && x.role === 'scalar');
    return e ? { kind: 'node', id: e.from } : undefined;
  }
  const c = parseHexColor(value);
  return c ? { kind: 'literal', value: c } : undefined;
}

function suggestNode(ref: string, nodes: Map<string, PlanNode>, from: PlanNode): string {
  const scope = from.id.includes('/') ? from.id.slice(0, from.id.lastIndexOf('/') + 1) : '';
  const names = [...nodes.keys()].filter((k) => k.startsWith(scope) && !k.slice(scope.length).includes('/')).map((k) => k.slice(scope.length));
  let best = '';
  let bestD = 4;
  for (const c of names) {
    const d = levenshtein(strip(ref), c);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best ? `; did you mean '@${best}'?` : '';
}

/** Visit every `$x` / `@x` string at a position whose schema takes a scalar reference. */
function walkRefs(value: unknown, schema: Schema | undefined, at: string, visit: (s: string, schema: Schema, at: string) => void): void {
  if (!schema) return;
  if (typeof value === 'string') {
    // `@call/body` ids appear after function inlining.
    if (schema['x-scalar'] && /^(\$[A-Za-z_][A-Za-z0-9_-]*|@[A-Za-z_][A-Za-z0-9_/-]*)$/.test(value)) visit(value, schema, at);
    return;
  }
  if (Array.isArray(value)) {
    const items = schema.items as Schema | undefined;
    value.forEach((v, i) => walkRefs(v, items, `${at}/${i}`, visit));
    return;
  }
  if (value && typeof value === 'object') {
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [k, v] of Object.entries(value)) walkRefs(v, props[k], at + ptr(k), visit);
  }
}

function staticBound(n: PlanNode, field: string, params: Record<string, ParamDecl>): { value?: number; error?: string } {
  const v = n.spec[field];
  if (v === undefined) {
    const d = (n.op.fields[field] as Schema).default;
    return typeof d === 'number' ? { value: d } : {};
  }
  if (typeof v === 'number') return { value: v };
  if (typeof v !== 'string') return {};
  if (v.startsWith('$')) {
    const d = params[v.slice(1)];
    if (d?.max !== undefined) return { value: d.max };
    return {
      error: `padding-determining field '${field}' takes param '${v}', which declares no max; add "max" to the param so the canvas padding can be fixed at build time`,
    };
  }
  if (v.startsWith('@')) {
    const m = n.spec[`${field}-max`];
    if (typeof m === 'number') return { value: m };
    return {
      error: `padding-determining field '${field}' takes the node port '${v}' but the node has no '${field}-max'; add "${field}-max" to bound the padding`,
    };
  }
  return {};
}

/**
 * Depth-first over the inputs, with an explicit stack (a chain of 10,000 nodes recursed 10,000
 * deep): calls `done` for each node after all its inputs (post-order), and returns the first cycle
 * met, as the path around it, or undefined. `state` carries over between calls.
 */
function walkInputs(nodes: Map<string, PlanNode>, root: string, state: Map<string, 1 | 2>, done: (id: string) => void = () => undefined): string[] | undefined {
  if (state.has(root)) return undefined;
  const path: string[] = [root];
  const next: number[] = [0];
  state.set(root, 1);
  while (path.length) {
    const id = path[path.length - 1]!;
    const edges = nodes.get(id)?.edges ?? [];
    const i = next[next.length - 1]!++;
    if (i >= edges.length) {
      state.set(id, 2);
      path.pop();
      next.pop();
      done(id);
      continue;
    }
    const to = edges[i]!.from;
    const s = state.get(to);
    if (s === 1) return [...path.slice(path.indexOf(to)), to];
    if (!s) {
      state.set(to, 1);
      path.push(to);
      next.push(0);
    }
  }
  return undefined;
}

function findCycle(nodes: Map<string, PlanNode>): string[] | undefined {
  const state = new Map<string, 1 | 2>();
  for (const id of nodes.keys()) {
    const c = walkInputs(nodes, id, state);
    if (c) return c.reverse();
  }
  return undefined;
}

/** The nodes `roots` depend on, inputs first (the graph has no cycle). */
export function topoOrder(nodes: Map<string, PlanNode>, ...roots: string[]): string[] {
  const out: string[] = [];
  const state = new Map<string, 1 | 2>();
  for (const r of roots) walkInputs(nodes, r, state, (id) => out.push(id));
  return out;
}

/**
 * The first node (inputs first) reached by a chain longer than LIMITS.maxGraphDepth, as a problem;
 * every node, read by the output or not (a legend draws from others).
 */
function depthProblem(nodes: Map<string, PlanNode>): Problem | undefined {
  const depth = new Map<string, number>();
  /** Where each node's longest chain starts. */
  const start = new Map<string, string>();
  for (const id of topoOrder(nodes, ...nodes.keys())) {
    let d = 0;
    let from = id;
    for (const e of nodes.get(id)!.edges) {
      const de = depth.get(e.from) ?? 0;
      if (de > d) {
        d = de;
        from = start.get(e.from)!;
      }
    }
    depth.set(id, d + 1);
    start.set(id, from);
    if (d + 1 > LIMITS.maxGraphDepth) {
      return {
        pointer: nodes.get(id)!.pointer,
        message: `a chain of ${formatInt(d + 1)} nodes leads to this node (from @${from}); the limit is ${LIMITS.maxGraphDepth} nodes deep`,
      };
    }
  }
  return undefined;
}

/**
 * Composites that can run as "paint the layer directly onto (a copy of) the base": the op says
 * when a node is a plain source-over (OpDef.fusesPaint), and the layer is a paint op
 * (OpDef.paintsOnto) with no other consumer.
 */
function findFusions(nodes: Map<string, PlanNode>, order: string[]): Map<string, Fusion> {
  const readers = new Map<string, number>();
  for (const id of order) for (const e of nodes.get(id)!.edges) readers.set(e.from, (readers.get(e.from) ?? 0) + 1);
  const out = new Map<string, Fusion>();
  for (const id of order) {
    const n = nodes.get(id)!;
    const f = n.op.fusesPaint?.(n.spec);
    if (!f) continue;
    const paintId = n.edges.find((e) => e.field === f.paint)?.from;
    const baseId = n.edges.find((e) => e.field === f.base)?.from;
    if (!paintId || !baseId || paintId === baseId || readers.get(paintId) !== 1 || !nodes.get(paintId)!.op.paintsOnto) continue;
    out.set(id, { ...f, paintId });
  }
  return out;
}
