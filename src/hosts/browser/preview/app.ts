// The preview page served by the tile server at `/`: a style workbench. MapLibre shows tiles
// rendered in this browser (through the `tilegraph://` protocol) or by the server; the panel
// edits the params; the graph strip shows the style's nodes, and clicking one shows that node's
// output as the map; a click on the map lists the features under it; exports; live reload.
// This file puts the page together; each part is a module of its own:
//   state.ts      the page's state (`window.tilegraphPreview`), status line, URL (params, `#` options)
//   tiles.ts      the map's tiles: render feeds, tile protocols, per-tile errors, in-place updates
//   map.ts        the MapLibre map, its opening view and controls, feature inspection on click
//   panel.ts      the params panel (one control per param)
//   legend.ts     the legend's swatches and colour scales
//   node-view.ts  the graph strip and the node shown as the map
//   labels.ts     placed labels on click, label boxes over the map
//   export.ts     PNG and style exports
//   live.ts       live reload (serve --watch)
//   notes.ts      what a converted MapLibre style does not honour
import { type BackendChoice, paramStrings, Renderer } from '../index.js';
import type { StyleDoc } from '../../../style/types.js';
import type { Kind } from '../../../types.js';
import { setupExport } from './export.js';
import { setupLabels } from './labels.js';
import { drawSwatches, renderLegend } from './legend.js';
import { connectLiveReload } from './live.js';
import { showConversionNotes } from './notes.js';
import { inspectOnClick, openMap, tileZoom } from './map.js';
import { setupNodeView } from './node-view.js';
import { buildPanel } from './panel.js';
import { $, errorText, hashInt, hashOption, mark, paramsFromUrl, type PreviewState, root, setStatus, UrlParams } from './state.js';
import { Tiles } from './tiles.js';

export type { PreviewState } from './state.js';

async function main(state: PreviewState): Promise<void> {
  setStatus('Loading the style…');
  state.stage = 'renderer';
  const asked = hashOption('backend');
  const backend: BackendChoice = asked === 'gpu' || asked === 'cpu' ? asked : 'auto';
  const styleUrl = new URL('style', root);
  const dataUrl = new URL('data/', root);
  // One render worker per core (at most 4): while a param change renders, this thread only waits
  // (the tiles reach the map together afterwards), so it needs no core of its own. `#workers=N` overrides.
  const workers = hashInt('workers', 0, 8) ?? Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2));
  // `#nodecache=0`: workers keep no node results (bench/preview.mjs measures what the cache saves).
  const renderer = await Renderer.create({ style: styleUrl, dataUrl, backend, workers, nodeCache: hashOption('nodecache') !== '0' });
  // Tiles at the screen's pixel density (as MapLibre's @2x): crisp on a high-density display, every
  // size in pixels scaled, so the map looks as it will at that density. `#ratio=1` renders 1x tiles.
  const pixelRatio = hashInt('ratio', 1, 4) ?? Math.max(1, Math.min(4, Math.round(globalThis.devicePixelRatio || 1)));
  state.pixelRatio = pixelRatio;
  state.renderer = renderer;
  const doc = renderer.core.doc as StyleDoc;
  const url = new UrlParams(renderer, paramStrings(renderer.core.params()));
  document.title = `${renderer.name ?? 'tilegraph'} · tilegraph preview`;
  $('style-name').textContent = renderer.name ?? 'tilegraph';
  const bad = paramsFromUrl(renderer);

  const kindOf = (id: string): Kind | undefined => {
    const spec = doc.nodes[id];
    if (spec?.op === 'func') return doc.functions?.[String(spec.function)]?.['output-kind'];
    return renderer.core.plan.nodes.get(id)?.kind;
  };
  const compare = $<HTMLInputElement>('compare');
  const tiles = new Tiles({ state, renderer, pixelRatio, url, compare, kindOf });
  wireParams(state, renderer, tiles);
  compare.addEventListener('change', () => {
    setStatus(tiles.describe());
    tiles.refresh();
  });
  renderLegend(renderer);
  void showConversionNotes(root, renderer.core.maplibreNotes);
  const nodeView = setupNodeView({ state, doc, tiles, styleUrl, dataUrl, backend, kindOf });
  tiles.registerProtocols();

  state.stage = 'map';
  const map = await openMap({ state, renderer, doc, styleUrl, dataUrl, tileUrl: tiles.url() });
  tiles.map = map;
  inspectOnClick(map, renderer, state);
  // Labels: a clicked label's feature, candidate and placed boxes over the map (labels.ts).
  setupLabels({
    map,
    core: renderer.core,
    params: () => renderer.params,
    pixelRatio,
    tileZoom: () => tileZoom(map),
    state,
    onError: (m) => setStatus(m, true),
  });
  setupExport({ map, state, doc, renderer, shown: () => tiles.renderer, done: () => tiles.showErrors() });

  state.stage = 'map load';
  if (!map.loaded()) await new Promise<void>((resolve) => map.once('load', () => resolve()));
  state.stage = 'node view';
  await nodeView.showFromUrl();
  if (bad.length) setStatus(`Ignored from the URL: ${bad.join('; ')}`, true);
  else tiles.showErrors();
  connectLiveReload(state, renderer);
  state.stage = 'ready';
}

/** The params panel and the reset button: each change renders the tiles again and, a little later, the legend. */
function wireParams(state: PreviewState, renderer: Renderer, tiles: Tiles): void {
  // The legend's swatches render on this thread: after the tiles of a drag, not between them.
  let swatchTimer: ReturnType<typeof setTimeout> | undefined;
  const swatchesSoon = () => {
    clearTimeout(swatchTimer);
    swatchTimer = setTimeout(() => drawSwatches(renderer), 150);
  };
  const panel = buildPanel($<HTMLFormElement>('params'), {
    schema: renderer.paramsSchema,
    values: paramStrings(renderer.params),
    onChange(name, value) {
      try {
        renderer.setParam(name, value);
      } catch (e) {
        return errorText(e);
      }
      mark(state, 'input', `${name}=${value}`);
      tiles.refresh('params');
      swatchesSoon();
      return undefined;
    },
  });
  $('reset').addEventListener('click', () => {
    renderer.resetParams();
    panel.setValues(paramStrings(renderer.params));
    tiles.refresh('params');
    swatchesSoon();
  });
}

const state: PreviewState = { generation: 0, shownGeneration: 0, idleGeneration: -1, errors: [], live: false, ready: Promise.resolve() };
(window as unknown as { tilegraphPreview: PreviewState }).tilegraphPreview = state;
state.ready = main(state).catch((e) => {
  setStatus(`The preview could not start: ${errorText(e)}`, true);
  throw e;
});
