// The graph view: the style's nodes as a strip (graph.ts); clicking one shows that node's output
// as the map, through a second renderer on a style whose output is that node (`#node=` keeps it).
import { type BackendChoice, Renderer } from '../index.js';
import type { StyleDoc } from '../../../style/types.js';
import type { Kind } from '../../../types.js';
import { drawGraph, graphOf, nodeViewStyle, viewable } from './graph.js';
import { $, errorText, hashOption, type PreviewState, setHashOption, setStatus } from './state.js';
import type { Tiles } from './tiles.js';

export interface NodeViewOptions {
  state: PreviewState;
  doc: StyleDoc;
  tiles: Tiles;
  styleUrl: URL;
  dataUrl: URL;
  backend: BackendChoice;
  kindOf(id: string): Kind | undefined;
}

export interface NodeView {
  /** Show node `id` as the map (undefined: the style's output). */
  show(id: string | undefined): Promise<void>;
  /** Show the node `#node=` names, if it names one that can be shown. */
  showFromUrl(): Promise<void>;
}

export function setupNodeView(o: NodeViewOptions): NodeView {
  const { state, doc, tiles, kindOf } = o;
  const output = doc.output.replace(/^@/, '');
  const rangeLo = $<HTMLInputElement>('node-range-lo');
  const rangeHi = $<HTMLInputElement>('node-range-hi');
  const show = async (asked: string | undefined) => {
    const kind = asked === undefined ? undefined : kindOf(asked);
    const id = asked === output ? undefined : asked;
    $('node-range').hidden = kind !== 'scalar-field' || id === undefined;
    tiles.closeNode();
    state.node = undefined;
    if (id !== undefined) {
      const range: [number, number] = [Number(rangeLo.value), Number(rangeHi.value)];
      const derived = nodeViewStyle(doc, id, kind, range);
      if (!derived) return;
      setStatus(`Building the view of node '${id}'…`);
      tiles.openNode(await Renderer.create({ style: derived, baseUrl: o.styleUrl, dataUrl: o.dataUrl, backend: o.backend, workers: 1 }));
      state.node = id;
    }
    setHashOption('node', id);
    $('show-output').hidden = id === undefined;
    $('node-shown').textContent = id === undefined ? 'the output' : `node '${id}' (${kind})`;
    graphView.select(id);
    tiles.refresh();
  };
  const graphView = drawGraph(
    $('graph'),
    graphOf(doc, kindOf),
    output,
    (id) => void show(id).catch((e) => setStatus(`The node view failed: ${errorText(e)}`, true)),
  );
  graphView.select(undefined);
  $('show-output').addEventListener('click', () => void show(undefined));
  for (const i of [rangeLo, rangeHi]) i.addEventListener('change', () => state.node && void show(state.node));
  return {
    show,
    async showFromUrl() {
      const id = hashOption('node');
      if (id && doc.nodes[id] && viewable(kindOf(id))) await show(id);
    },
  };
}
