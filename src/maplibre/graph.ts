// The graph a conversion writes: unique node names, and scalars that are a number or a node port
// (an `expr` node for a zoom curve, `math` nodes to combine them), each with a static bound.
import type { NodeSpec } from '../ops/types.js';
import type { Note } from './types.js';

/** A number, or an `@node` scalar port, with the largest |value| it can take. */
export interface Scalar {
  v: number | string;
  bound: number;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export class Graph {
  readonly nodes: Record<string, NodeSpec> = {};
  readonly notes: Note[] = [];
  private readonly used = new Set<string>();

  /** A node name from `base` (a layer id, made valid) not used before. */
  name(base: string): string {
    let n = base.replace(/[^A-Za-z0-9_-]+/g, '_');
    if (!NAME.test(n)) n = `_${n}`;
    let out = n;
    for (let i = 2; this.used.has(out); i++) out = `${n}-${i}`;
    this.used.add(out);
    return out;
  }

  /** Add a node; returns its name. */
  add(base: string, node: NodeSpec): string {
    const name = this.name(base);
    this.nodes[name] = node;
    return name;
  }

  /** Nodes added through `shared`, by their fields (JSON). */
  private readonly byFields = new Map<string, string>();

  /**
   * The name of a node with these fields added through `shared` before, or a new node's: layers
   * that read the same features (a road's casing and its fill, a park's fill and its outline)
   * share one selection, made once a render instead of once a layer.
   */
  shared(base: string, node: NodeSpec): string {
    const key = JSON.stringify(node);
    const had = this.byFields.get(key);
    if (had !== undefined) return had;
    const name = this.add(base, node);
    this.byFields.set(key, name);
    return name;
  }

  /** `a + b` as a scalar (a math node when either is a port). */
  sum(base: string, a: Scalar, b: Scalar): Scalar {
    if (typeof a.v === 'number' && typeof b.v === 'number') return { v: a.v + b.v, bound: Math.abs(a.v + b.v) };
    if (a.v === 0) return b;
    if (b.v === 0) return a;
    return { v: '@' + this.add(base, { op: 'math', fn: 'add', a: a.v, b: b.v }), bound: a.bound + b.bound };
  }

  /** `a * k` for a number k. */
  scale(base: string, a: Scalar, k: number): Scalar {
    if (typeof a.v === 'number') return { v: a.v * k, bound: Math.abs(a.v * k) };
    if (k === 1) return a;
    return { v: '@' + this.add(base, { op: 'math', fn: 'mul', a: a.v, b: k }), bound: a.bound * Math.abs(k) };
  }

  /** The square root of a (>= 0). */
  sqrt(base: string, a: Scalar): Scalar {
    if (typeof a.v === 'number') return { v: Math.sqrt(Math.max(0, a.v)), bound: Math.sqrt(Math.max(0, a.v)) };
    return { v: '@' + this.add(base, { op: 'math', fn: 'sqrt', a: a.v }), bound: Math.sqrt(a.bound) };
  }

  /** `a * b`. */
  product(base: string, a: Scalar, b: Scalar): Scalar {
    if (typeof b.v === 'number') return this.scale(base, a, b.v);
    if (typeof a.v === 'number') return this.scale(base, b, a.v);
    return { v: '@' + this.add(base, { op: 'math', fn: 'mul', a: a.v, b: b.v }), bound: a.bound * b.bound };
  }
}
