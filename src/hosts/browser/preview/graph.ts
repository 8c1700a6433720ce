// The node view: the style's top-level nodes and edges as a layered drawing (columns by depth
// from the sources), and the style that shows one node's output as the map: the same document
// with its `output` pointed at that node, or at a small wrapper that makes it visible (a scalar
// field through a grey ramp, features as outlines). The same engine renders it with the same params.
import type { StyleDoc } from '../../../style/types.js';
import type { Kind } from '../../../types.js';

export interface GraphNode {
  id: string;
  op: string;
  kind: Kind | undefined;
  /** Top-level nodes this one reads (`@name` anywhere in its fields). */
  inputs: string[];
  depth: number;
}

/** Node kinds as the build resolved them (function calls: the function's `output-kind`). */
export type KindOf = (id: string) => Kind | undefined;

function refsIn(v: unknown, names: Set<string>, out: Set<string>): void {
  if (typeof v === 'string') {
    const m = /^@([A-Za-z_][A-Za-z0-9_-]*)$/.exec(v);
    if (m && names.has(m[1]!)) out.add(m[1]!);
  } else if (Array.isArray(v)) for (const x of v) refsIn(x, names, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) refsIn(x, names, out);
}

export function graphOf(doc: StyleDoc, kindOf: KindOf): GraphNode[] {
  const names = new Set(Object.keys(doc.nodes));
  const nodes = Object.entries(doc.nodes).map(([id, spec]) => {
    const inputs = new Set<string>();
    for (const [field, v] of Object.entries(spec)) if (field !== 'op') refsIn(v, names, inputs);
    return { id, op: String(spec.op), kind: kindOf(id), inputs: [...inputs], depth: 0 };
  });
  const byId = new Map(nodes.map((n) => [n.id, n]));
  // Longest path from a node without inputs (the build rejected cycles).
  const depth = new Map<string, number>();
  const visit = (id: string, seen: Set<string>): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    if (seen.has(id)) return 0;
    seen.add(id);
    const n = byId.get(id)!;
    const d = n.inputs.length ? 1 + Math.max(...n.inputs.map((i) => visit(i, seen))) : 0;
    depth.set(id, d);
    return d;
  };
  for (const n of nodes) n.depth = visit(n.id, new Set());
  return nodes;
}

/** Whether a node's output can be shown as a map. */
export function viewable(kind: Kind | undefined): boolean {
  return kind === 'raster' || kind === 'scalar-field' || kind === 'features';
}

const VIEW = '__tilegraph_view';

/**
 * The style that renders node `id` as its output: a raster as it is, a scalar field through a
 * grey ramp from `range[0]` (black) to `range[1]` (white), features as red outlines and dots
 * over white. Undefined for kinds that are no map (scalar, sprite, brush).
 */
export function nodeViewStyle(doc: StyleDoc, id: string, kind: Kind | undefined, range: [number, number] = [0, 1]): StyleDoc | undefined {
  const nodes = { ...doc.nodes };
  let output = id;
  if (kind === 'scalar-field') {
    const [lo, hi] = range[0] < range[1] ? range : [range[1], range[0] + 1e-9];
    nodes[VIEW] = {
      op: 'color-ramp',
      field: `@${id}`,
      stops: [
        { value: lo, color: '#000000' },
        { value: hi, color: '#ffffff' },
      ],
    };
    output = VIEW;
  } else if (kind === 'features') {
    nodes[`${VIEW}_paper`] = { op: 'solid', color: '#ffffff' };
    nodes[`${VIEW}_fill`] = { op: 'fill-solid', features: `@${id}`, fill: '#d0312d', 'fill-alpha': 0.12 };
    nodes[`${VIEW}_lines`] = { op: 'stroke-solid', features: `@${id}`, color: '#d0312d', width: 1.25 };
    nodes[`${VIEW}_points`] = { op: 'circles', features: `@${id}`, color: '#d0312d', radius: 2.5 };
    nodes[`${VIEW}_a`] = { op: 'blend', base: `@${VIEW}_paper`, over: `@${VIEW}_fill` };
    nodes[`${VIEW}_b`] = { op: 'blend', base: `@${VIEW}_a`, over: `@${VIEW}_lines` };
    nodes[VIEW] = { op: 'blend', base: `@${VIEW}_b`, over: `@${VIEW}_points` };
    output = VIEW;
  } else if (kind !== 'raster') {
    return undefined;
  }
  // The legend names nodes of the original graph; it plays no part in a node's view.
  const { legend: _legend, ...rest } = doc;
  return { ...rest, nodes, output };
}

const SVG = 'http://www.w3.org/2000/svg';
const W = 118;
const H = 34;
const GAP_X = 34;
const GAP_Y = 10;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

export interface GraphView {
  /** Mark a node as the one shown (undefined: the style's output). */
  select(id: string | undefined): void;
}

/**
 * Draw the graph into `box`: one column per depth, a box per node (name, op, kind), an edge per
 * input. Clicking a viewable node (or pressing Enter on it) calls `onSelect`.
 */
export function drawGraph(box: HTMLElement, nodes: GraphNode[], output: string, onSelect: (id: string) => void): GraphView {
  const columns = new Map<number, GraphNode[]>();
  for (const n of nodes) columns.set(n.depth, [...(columns.get(n.depth) ?? []), n]);
  const pos = new Map<string, { x: number; y: number }>();
  let rows = 0;
  for (const [d, list] of columns) {
    list.forEach((n, i) => pos.set(n.id, { x: 8 + d * (W + GAP_X), y: 8 + i * (H + GAP_Y) }));
    rows = Math.max(rows, list.length);
  }
  const width = 16 + columns.size * (W + GAP_X) - GAP_X;
  const height = 16 + rows * (H + GAP_Y) - GAP_Y;
  const root = svg('svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'group', 'aria-label': 'Style graph' });
  const defs = svg('defs', {});
  const marker = svg('marker', { id: 'arrow', viewBox: '0 0 8 8', refX: 8, refY: 4, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' });
  marker.append(svg('path', { d: 'M0,0 L8,4 L0,8 z', fill: '#8a94a0' }));
  defs.append(marker);
  root.append(defs);
  for (const n of nodes) {
    const to = pos.get(n.id)!;
    for (const i of n.inputs) {
      const from = pos.get(i)!;
      const x1 = from.x + W;
      const y1 = from.y + H / 2;
      const x2 = to.x;
      const y2 = to.y + H / 2;
      const mx = (x1 + x2) / 2;
      root.append(
        svg('path', { d: `M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}`, class: 'edge', 'data-from': i, 'data-to': n.id, 'marker-end': 'url(#arrow)' }),
      );
    }
  }
  const boxes = new Map<string, SVGGElement>();
  for (const n of nodes) {
    const p = pos.get(n.id)!;
    const ok = viewable(n.kind);
    const g = svg('g', {
      class: `node kind-${n.kind ?? 'unknown'}${ok ? '' : ' not-viewable'}${n.id === output ? ' is-output' : ''}`,
      'data-node': n.id,
      transform: `translate(${p.x},${p.y})`,
    });
    if (ok) {
      g.setAttribute('tabindex', '0');
      g.setAttribute('role', 'button');
      g.setAttribute('aria-label', `show node ${n.id} (${n.op}, ${n.kind})`);
      g.addEventListener('click', () => onSelect(n.id));
      g.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onSelect(n.id);
        }
      });
    }
    const title = svg('title', {});
    title.textContent = `${n.id}: ${n.op} -> ${n.kind ?? '?'}${ok ? '' : ' (not a map)'}`;
    g.append(title, svg('rect', { width: W, height: H, rx: 5 }));
    const name = svg('text', { x: 7, y: 14, class: 'node-name' });
    name.textContent = n.id.length > 16 ? n.id.slice(0, 15) + '…' : n.id;
    const op = svg('text', { x: 7, y: 27, class: 'node-op' });
    op.textContent = `${n.op} · ${n.kind ?? '?'}`;
    g.append(name, op);
    root.append(g);
    boxes.set(n.id, g);
  }
  box.replaceChildren(root);
  return {
    select(id) {
      for (const [k, g] of boxes) {
        g.classList.toggle('is-selected', k === (id ?? output));
        if (g.hasAttribute('role')) g.setAttribute('aria-pressed', String(k === (id ?? output)));
      }
    },
  };
}
