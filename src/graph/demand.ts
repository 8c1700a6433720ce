// Demand (issue 25, tenth round): a node whose kernel can compute only some of its pixels
// (OpDef.honoursDemand: noise), read only by nodes that can say which of its pixels change their
// output once their other inputs are drawn (OpDef.demandFrom / demand: displace, whose
// displacement moves nothing where its input is one value within the amplitude), computes only
// the union of what its readers demand. Terrain's `wobble-field` then runs near the contours its
// displace moves, not over the whole tile.
//
// The render (src/render/render.ts) uses it on the CPU backend for renders without a node cache
// (a cached node's pixels must not depend on what its readers saw in one render: the preview's
// node cache keeps the whole field, as before) and outside decide(). Its order is the plan's with
// each such node moved after its readers' other inputs (and everything those read), still before
// its first reader: a topological order of the same nodes.
import { inputField, type Plan } from './build.js';

export interface DemandPlan {
  /** The plan's order with each demand node placed after its readers' other inputs. */
  order: string[];
  /** Demand node id -> its readers (node id and the edge field it is read through). */
  readers: Map<string, { id: string; field: string }[]>;
}

const plans = new WeakMap<Plan, DemandPlan>();

/** The plan's demand nodes and the order that computes their readers' other inputs first (cached per plan). */
export function demandPlan(plan: Plan): DemandPlan {
  let d = plans.get(plan);
  if (!d) plans.set(plan, (d = build(plan)));
  return d;
}

function build(plan: Plan): DemandPlan {
  const readersOf = new Map<string, { id: string; field: string; role: string }[]>();
  for (const id of plan.order)
    for (const e of plan.nodes.get(id)!.edges) {
      const list = readersOf.get(e.from) ?? [];
      list.push({ id, field: e.field, role: e.role });
      readersOf.set(e.from, list);
    }
  // Read whole from outside the graph: the output and the legend's entries.
  const whole = new Set([plan.output, ...(plan.legend?.entries ?? []).map((e) => e.from)]);
  let order = plan.order;
  const readers = new Map<string, { id: string; field: string }[]>();
  for (const id of plan.order) {
    const n = plan.nodes.get(id)!;
    const rs = readersOf.get(id);
    if (!n.op.honoursDemand?.(n.spec) || whole.has(id) || !rs?.length) continue;
    const ok = rs.every((r) => {
      const op = plan.nodes.get(r.id)!.op;
      return r.role === 'node' && !!op.demand && !!op.demandFrom?.(inputField(r.field), plan.nodes.get(r.id)!.spec);
    });
    if (!ok) continue;
    // Everything the readers read but this node, and what that reads: drawn before it.
    const first = new Set<string>();
    const visit = (x: string) => {
      if (first.has(x)) return;
      first.add(x);
      for (const e of plan.nodes.get(x)!.edges) visit(e.from);
    };
    for (const r of rs) for (const e of plan.nodes.get(r.id)!.edges) if (e.from !== id) visit(e.from);
    if (first.has(id)) continue; // a reader's other input depends on this node
    const at = Math.min(...rs.map((r) => order.indexOf(r.id)));
    const before = order.slice(0, at).filter((x) => x !== id);
    const moved = order.slice(at).filter((x) => first.has(x));
    const rest = order.slice(at).filter((x) => !first.has(x) && x !== id);
    order = [...before, ...moved, id, ...rest];
    readers.set(
      id,
      rs.map((r) => ({ id: r.id, field: r.field })),
    );
  }
  return { order, readers };
}

/**
 * The runs of marked pixels of a w x h mask, three ints each (row, first column, count), rows
 * ascending; runs of one row closer than `gap` pixels are joined (a few pixels more to compute is
 * cheaper than a run's start). At most ceil(w / (gap + 1)) runs a row.
 */
export function demandRuns(mask: Uint8Array, w: number, h: number, gap = 8): Int32Array {
  const out: number[] = [];
  for (let j = 0; j < h; j++) {
    const row = j * w;
    let i = 0;
    let open = -1;
    let end = -1;
    while (i < w) {
      if (mask[row + i]) {
        if (open >= 0 && i - end <= gap) end = i + 1;
        else {
          if (open >= 0) out.push(j, open, end - open);
          open = i;
          end = i + 1;
        }
      }
      i++;
    }
    if (open >= 0) out.push(j, open, end - open);
  }
  return Int32Array.from(out);
}
