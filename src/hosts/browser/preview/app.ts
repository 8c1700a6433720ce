// The preview page served by the tile server at `/`: a style workbench. MapLibre shows tiles
// rendered in this browser (through the `tilegraph://` protocol) or by the server; the panel
// edits the params; the graph strip shows the style's nodes, and clicking one shows that node's
// output as the map; a click on the map lists the features under it; exports; live reload.
import { addProtocol, Map as MapLibreMap, NavigationControl, Popup, ScaleControl, type RasterTileSource } from 'maplibre-gl';
import { FetchLoader, paramStrings, Renderer, TilegraphError, type BackendChoice } from '../index.js';
import { buildPanel, el, shortColor } from './panel.js';
import { showConversionNotes } from './notes.js';
import { toRGBA8 } from '../../../render/encode.js';
import type { StyleDoc } from '../../../style/types.js';
import type { Kind, Raster, Window } from '../../../types.js';
import { lngLatToPixel } from '../../../sources/tiles.js';
import { dataExtent } from '../../../sources/extent.js';
import { drawGraph, graphOf, nodeViewStyle, viewable, type GraphView } from './graph.js';
import { featuresAt, type InspectedFeature } from './inspect.js';
import { TileFeed } from './feed.js';
import { setupLabels, type LabelsState } from './labels.js';

/** The server's root: this script is served from <root>/preview/preview.js. */
const root = new URL('../', import.meta.url);
const SOURCE = 'tilegraph';
const TILE = /^tilegraph(-node|-server)?:\/\/(\d+)\/(\d+)\/(\d+)(?:\?(.*))?$/;
/** The largest export, in pixels (a bbox render on this page's thread). */
const MAX_EXPORT_PIXELS = 4096 * 4096;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** What a test (or a curious person in the console) can reach: `window.tilegraphPreview`. */
export interface PreviewState extends LabelsState {
  map?: MapLibreMap;
  renderer?: Renderer;
  /** Bumped every time the tiles are re-requested (params changed, compare switched, node shown). */
  generation: number;
  /** The newest generation whose tiles were all handed to the map (a param change updates the tiles in place). */
  shownGeneration: number;
  /** The generation the map last went idle at (all its tiles loaded and, after a param change, updated). */
  idleGeneration: number;
  /** The tiles (z/x/y) the last in-place update covered, and its generation. */
  lastUpdate?: { generation: number; tiles: string[] };
  /** Set to an array to record timing marks `[what, performance.now(), detail]` (bench/preview.mjs). */
  trace?: [string, number, string?][];
  /** The messages of the tiles that failed and have not rendered since (one per tile). */
  errors: string[];
  /** The node shown as the map (undefined: the style's output). */
  node?: string;
  /** Features listed by the last click on the map. */
  inspected?: InspectedFeature[];
  /** The last export: file name and size in bytes (PNG: also the window). */
  lastExport?: { name: string; bytes: number; window?: Window };
  /** Live reload: the server's events are connected. */
  live: boolean;
  /** Pixel density the tiles render at: the screen's (1..4, rounded), or `#ratio=N`. */
  pixelRatio?: number;
  ready: Promise<void>;
}

function setStatus(text: string, isError = false): void {
  const s = $('status');
  if (s.textContent === text && s.classList.contains('is-error') === isError) return;
  s.textContent = text;
  s.classList.toggle('is-error', isError);
}

function hashOption(key: string): string | undefined {
  return new URLSearchParams(location.hash.slice(1)).get(key) ?? undefined;
}

function setHashOption(key: string, value: string | undefined): void {
  const h = new URLSearchParams(location.hash.slice(1));
  if (value === undefined) h.delete(key);
  else h.set(key, value);
  // URLSearchParams escapes the '/' of MapLibre's map=z/lat/lon; keep it readable.
  history.replaceState(history.state, '', `${location.pathname}${location.search}#${h.toString().replace(/%2F/g, '/')}`);
}

function errorText(e: unknown): string {
  if (e instanceof TilegraphError) return e.problems.map((p) => p.message).join('; ');
  return (e as Error)?.message ?? String(e);
}

/** A failed server answer in the server's words: `HTTP 502: source 'dem': cannot fetch …: unknown host`. */
async function serverErrorText(res: Response): Promise<string> {
  let text = res.statusText;
  try {
    const body = (await res.json()) as { error?: string; details?: { message?: string }[] };
    const details = (body.details ?? []).map((d) => d.message).filter(Boolean);
    text = details.join('; ') || body.error || text; // the details name the source and the cause
  } catch {
    // not our JSON error body (a proxy's page): the status line says it
  }
  return `HTTP ${res.status}${text ? `: ${text}` : ''}`;
}

function download(name: string, blob: Blob): void {
  const a = el('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

const SWATCH = 20;
/** A colour scale's bar, in CSS pixels. */
const SCALE_WIDTH = 180;
const SCALE_HEIGHT = 12;

function renderLegend(renderer: Renderer): void {
  const legend = renderer.legend;
  const box = $('legend');
  box.hidden = !legend;
  if (!legend) return;
  $('legend-title').textContent = legend.title ?? 'Legend';
  $<HTMLUListElement>('legend-entries').replaceChildren(
    ...(legend.entries ?? []).map((e, i) => {
      const li = el('li');
      // A color-ramp entry is its colour scale: a bar from the ramp's first value to its last.
      const scale = renderer.core.renderLegendScale(i, renderer.params, { width: SCALE_WIDTH, height: SCALE_HEIGHT });
      if (scale) {
        const bar = el('canvas', { class: 'legend-scale', 'data-entry': String(i), role: 'img', 'aria-label': `${e.label}: colour scale` });
        bar.width = SCALE_WIDTH;
        bar.height = SCALE_HEIGHT;
        const ends = el('span', { class: 'legend-scale-ends' });
        ends.append(el('span', {}, scaleNumber(scale.min)), el('span', {}, scaleNumber(scale.max)));
        li.append(el('span', { class: 'legend-label' }, e.label), bar, ends);
      } else {
        const swatch = el('canvas', { class: 'legend-swatch', 'aria-hidden': 'true', 'data-entry': String(i) });
        swatch.width = swatch.height = SWATCH;
        li.append(swatch, el('span', { class: 'legend-label' }, e.label));
      }
      if (e.note) li.append(el('span', { class: 'legend-entry-note' }, e.note));
      return li;
    }),
  );
  const note = $('legend-note');
  note.textContent = legend.note ?? '';
  note.hidden = !legend.note;
  drawSwatches(renderer);
}

/** A scale's end value as a person reads it: 3 significant digits. */
const scaleNumber = (v: number) => String(Number(v.toPrecision(3)));

const putRaster = (canvas: HTMLCanvasElement, raster: Raster) =>
  canvas.getContext('2d')!.putImageData(new ImageData(new Uint8ClampedArray(toRGBA8(raster)), raster.width, raster.height), 0, 0);

/** Each entry's symbol: its node drawn over stand-in features with the current params (CPU, small); a scale's colours. */
function drawSwatches(renderer: Renderer): void {
  document.querySelectorAll<HTMLCanvasElement>('#legend-entries canvas.legend-scale').forEach((canvas) => {
    const scale = renderer.core.renderLegendScale(Number(canvas.dataset.entry), renderer.params, { width: canvas.width, height: canvas.height });
    if (!scale) return;
    putRaster(canvas, scale.raster);
    const ends = canvas.nextElementSibling?.children;
    if (ends?.length === 2) {
      ends[0]!.textContent = scaleNumber(scale.min);
      ends[1]!.textContent = scaleNumber(scale.max);
    }
  });
  document.querySelectorAll<HTMLCanvasElement>('#legend-entries canvas.legend-swatch').forEach((canvas) => {
    const i = Number(canvas.dataset.entry);
    renderer.core
      .renderLegendSwatch(i, renderer.params, { size: SWATCH })
      .then((raster) => putRaster(canvas, raster))
      .catch(() => {
        canvas.hidden = true; // an entry whose node cannot be drawn over stand-ins (e.g. a DEM) shows its label only
      });
  });
}

/** "1:12,300" style scale of the map's centre (96 dpi screens, MapLibre's 512 px world at zoom 0). */
function scaleText(map: MapLibreMap): string {
  const lat = map.getCenter().lat;
  const metresPerPx = (40075016.686 * Math.cos((lat * Math.PI) / 180)) / (512 * 2 ** map.getZoom());
  const n = (metresPerPx / 0.0254) * 96;
  const round = (x: number) => {
    const p = 10 ** Math.max(0, Math.floor(Math.log10(x)) - 1);
    return Math.round(x / p) * p;
  };
  return `1:${round(n).toLocaleString('en-US')}`;
}

/** The zoom of the 256 px tiles the map shows at its current zoom. */
const tileZoom = (map: MapLibreMap) => Math.max(0, Math.min(22, Math.round(map.getZoom() + 1)));

function inspectTable(list: InspectedFeature[]): HTMLElement {
  const box = el('div', { class: 'inspect' });
  if (list.length === 0) {
    box.append(el('p', { class: 'help' }, 'No features here.'));
    return box;
  }
  for (const f of list.slice(0, 20)) {
    const section = el('section', { class: 'feature', 'data-node': f.node });
    section.append(el('h3', {}, `${f.node} · ${f.geometry}`));
    const table = el('table');
    const entries = Object.entries(f.properties);
    if (entries.length === 0) table.append(el('tr', {}, '(no properties)'));
    for (const [k, v] of entries) {
      const tr = el('tr');
      tr.append(el('th', { scope: 'row' }, k), el('td', {}, typeof v === 'string' ? v : JSON.stringify(v)));
      table.append(tr);
    }
    section.append(table);
    box.append(section);
  }
  if (list.length > 20) box.append(el('p', { class: 'help' }, `and ${list.length - 20} more`));
  return box;
}

/** Live reload: keep the params that still exist (and still validate), then reload the page. */
async function reloadKeeping(): Promise<void> {
  const schema = (await (await fetch(new URL('style/params', root), { cache: 'no-store' })).json()) as { properties?: Record<string, unknown> };
  const q = new URLSearchParams(location.search);
  for (const name of [...q.keys()]) if (!(name in (schema.properties ?? {}))) q.delete(name);
  const s = q.toString();
  history.replaceState(history.state, '', `${location.pathname}${s ? '?' + s : ''}${location.hash}`);
  location.reload();
}

async function main(state: PreviewState): Promise<void> {
  setStatus('Loading the style…');
  const asked = hashOption('backend');
  const backend: BackendChoice = asked === 'gpu' || asked === 'cpu' ? asked : 'auto';
  const styleUrl = new URL('style', root);
  const dataUrl = new URL('data/', root);
  // One render worker per core (at most 4): while a param change renders, this thread only waits
  // (the tiles reach the map together afterwards), so it needs no core of its own. `#workers=N` overrides.
  const workersAsked = Number(hashOption('workers') ?? Number.NaN);
  const workers =
    Number.isInteger(workersAsked) && workersAsked >= 0 && workersAsked <= 8 ? workersAsked : Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2));
  // `#nodecache=0`: workers keep no node results (bench/preview.mjs measures what the cache saves).
  const renderer = await Renderer.create({ style: styleUrl, dataUrl, backend, workers, nodeCache: hashOption('nodecache') !== '0' });
  // Tiles at the screen's pixel density (as MapLibre's @2x): crisp on a high-density display, every
  // size in pixels scaled, so the map looks as it will at that density. `#ratio=1` renders 1x tiles.
  const ratioAsked = Number(hashOption('ratio') ?? Number.NaN);
  const pixelRatio =
    Number.isInteger(ratioAsked) && ratioAsked >= 1 && ratioAsked <= 4 ? ratioAsked : Math.max(1, Math.min(4, Math.round(globalThis.devicePixelRatio || 1)));
  state.pixelRatio = pixelRatio;
  state.renderer = renderer;
  const doc = renderer.core.doc as StyleDoc;
  const defaults = paramStrings(renderer.core.params());
  document.title = `${renderer.name ?? 'tilegraph'} · tilegraph preview`;
  $('style-name').textContent = renderer.name ?? 'tilegraph';

  // Params from the page URL (the tile server's query keys); a bad one is reported and dropped.
  const bad: string[] = [];
  for (const [name, value] of new URLSearchParams(location.search)) {
    try {
      renderer.setParam(name, value);
    } catch (e) {
      bad.push(errorText(e));
    }
  }

  /** The non-default params as a query string: what the page URL and the tile URLs carry. */
  const query = () => {
    const q = new URLSearchParams();
    for (const [name, v] of Object.entries(paramStrings(renderer.params))) if (v !== defaults[name]) q.set(name, shortColor(v));
    return q.toString();
  };

  // The node view: a second renderer on a style whose output is the chosen node.
  const kindOf = (id: string): Kind | undefined => {
    const spec = doc.nodes[id];
    if (spec?.op === 'func') return doc.functions?.[String(spec.function)]?.['output-kind'];
    return renderer.core.plan.nodes.get(id)?.kind;
  };
  const graph = graphOf(doc, kindOf);
  let nodeRenderer: { id: string; renderer: Renderer } | undefined;
  const rangeLo = $<HTMLInputElement>('node-range-lo');
  const rangeHi = $<HTMLInputElement>('node-range-hi');

  const compare = $<HTMLInputElement>('compare');
  const tileUrl = () => {
    const q = query();
    const qs = q ? '?' + q : '';
    if (nodeRenderer) return `tilegraph-node://{z}/{x}/{y}${qs}`;
    // Server tiles go through a protocol of ours too, so that a failed or undecodable one is
    // counted and its error shown like a tile rendered here (MapLibre would only log it).
    return compare.checked ? `tilegraph-server://{z}/{x}/{y}${qs}` : `tilegraph://{z}/{x}/{y}${qs}`;
  };
  /** The server's URL of a tile; the server has @2x tiles, and a denser screen compares against those. */
  const serverTileUrl = (key: string, q: string) => `${new URL('tiles', root).href}/${key}${pixelRatio > 1 ? '@2x' : ''}.png${q ? '?' + q : ''}`;
  const describe = () => {
    if (state.node) return `Showing node '${state.node}' (${kindOf(state.node)}), rendered in this browser`;
    return compare.checked
      ? 'Showing server-rendered tiles'
      : `Rendering in this browser (${renderer.backend === 'gpu' ? `WebGPU, ${renderer.adapter}` : 'CPU, in a worker'})`;
  };

  // Errors per tile: a tile that renders later clears its own error.
  const tileErrors = new Map<string, string>();
  const showErrors = () => {
    state.errors = [...new Set(tileErrors.values())];
    const n = tileErrors.size;
    const what = compare.checked && !state.node ? `server tile${n > 1 ? 's' : ''}` : `tile${n > 1 ? 's' : ''}`;
    if (state.errors.length) setStatus(`${n} ${what} failed: ${state.errors[0]}`, true);
    else setStatus(describe());
  };

  let map: MapLibreMap | undefined;
  const mark = (what: string, detail?: string) => state.trace?.push([what, performance.now(), detail]);

  // The page URL follows the params, at most every 100 ms while a slider moves (browsers throttle
  // history updates), and at once when the tiles of a change are shown.
  let urlTimer: ReturnType<typeof setTimeout> | undefined;
  let urlAt = 0;
  const writeUrl = () => {
    clearTimeout(urlTimer);
    urlTimer = undefined;
    urlAt = performance.now();
    const q = query();
    const next = `${location.pathname}${q ? '?' + q : ''}${location.hash}`;
    if (next !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, '', next);
  };
  const updateUrl = () => {
    const wait = urlAt + 100 - performance.now();
    if (wait <= 0) writeUrl();
    else urlTimer ??= setTimeout(writeUrl, wait);
  };

  // Tiles rendered in this page go through a feed (feed.ts): a newer value supersedes a tile's
  // render that has not started, and finished tiles reach the map together (one repaint).
  const tileOf = (key: string) => {
    const [z, x, y] = key.split('/').map(Number) as [number, number, number];
    return { z, x, y };
  };
  /** Renders start nearest the view's centre: squared distance in tiles at the tile's zoom. */
  const priorityOf = (key: string) => {
    if (!map) return 0;
    const { z, x, y } = tileOf(key);
    const c = map.getCenter();
    const [cx, cy] = lngLatToPixel(c.lng, c.lat, z, 1);
    return (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2;
  };
  const feedFor = (r: () => Renderer | undefined) =>
    new TileFeed<ImageBitmap>({
      render(key, q, o) {
        const which = r();
        if (!which) return Promise.reject(new DOMException('the node view was closed', 'AbortError'));
        mark('render', key);
        return which.renderTileBitmap(tileOf(key), {
          pixelRatio,
          params: Object.fromEntries(new URLSearchParams(q)),
          signal: o.signal,
          superseded: o.superseded,
          priority: priorityOf(key),
          onTiming: state.trace
            ? (w) => mark('worker', `${key} ${(w.start - performance.timeOrigin).toFixed(1)} ${(w.end - performance.timeOrigin).toFixed(1)}`)
            : undefined,
        });
      },
      // A repaint costs much more than a tile on a software-GL browser (and blocks this thread there): few hand-overs.
      maxHoldMs: 250,
      onFlush: (keys) => mark('flush', keys.join(' ')),
    });
  const outputFeed = feedFor(() => renderer);
  let nodeFeed = feedFor(() => nodeRenderer?.renderer);
  const currentFeed = () => (nodeRenderer ? nodeFeed : outputFeed);

  /** MapLibre's tiles of our source (internal API, feature-tested): a param change updates their textures in place. */
  interface LiveTile {
    tileID: { canonical: { z: number; x: number; y: number } };
    state: string;
    texture?: { update(image: ImageBitmap, options: { useMipmap: boolean; premultiply: boolean }): void } | null;
  }
  interface LiveTiles {
    getIds(): string[];
    getTileByID(id: string): LiveTile | undefined;
    _outOfViewCache?: { reset(): void };
  }
  const liveTiles = (): LiveTiles | undefined => {
    const style = (map as unknown as { style?: { tileManagers?: Record<string, LiveTiles>; sourceCaches?: Record<string, LiveTiles> } })?.style;
    const tm = style?.tileManagers?.[SOURCE] ?? style?.sourceCaches?.[SOURCE];
    return tm && typeof tm.getIds === 'function' && typeof tm.getTileByID === 'function' ? tm : undefined;
  };

  let tilesTimer: ReturnType<typeof setTimeout> | undefined;
  let tilesAt = 0;
  const setTilesNow = () => {
    clearTimeout(tilesTimer);
    tilesTimer = undefined;
    tilesAt = performance.now();
    state.shownGeneration = state.generation;
    (map?.getSource(SOURCE) as RasterTileSource | undefined)?.setTiles([tileUrl()]);
  };

  /**
   * Show the current params. A param change with tiles rendered here renders the tiles the map
   * holds at once (no debounce), nearest the centre first, and uploads them into the tiles'
   * textures; everything else (compare switched, node shown, no access to MapLibre's tiles)
   * re-requests the tiles from a new URL.
   */
  const refresh = (what: 'params' | 'source' = 'source') => {
    mark('refresh', what);
    updateUrl();
    state.generation++;
    const g = state.generation;
    tileErrors.clear();
    showErrors();
    if (!map) return;
    const tm = what === 'params' && !compare.checked ? liveTiles() : undefined;
    if (!tm) {
      // A new tile URL: at once for a new source, at most every 100 ms for a moving slider (the
      // compared server tiles are HTTP requests, and MapLibre does not cancel those it re-requests).
      const wait = tilesAt + 100 - performance.now();
      if (what === 'source' || wait <= 0) setTilesNow();
      else tilesTimer ??= setTimeout(setTilesNow, wait);
      return;
    }
    clearTimeout(tilesTimer);
    tilesTimer = undefined;
    // Tiles kept for views left earlier hold old params: drop them (they render again if the view returns).
    tm._outOfViewCache?.reset();
    const feed = currentFeed();
    const q = query();
    const keys: string[] = [];
    const jobs = tm.getIds().map((id) => {
      const tile = tm.getTileByID(id);
      if (!tile) return undefined;
      const { z, x, y } = tile.tileID.canonical;
      const key = `${z}/${x}/${y}`;
      keys.push(key);
      return feed.get(key, q).then(
        (bitmap) => {
          // Still the same tile with a texture (a tile that is loading gets its image from its own request).
          const now = tm.getTileByID(id);
          if (now?.texture && now.state !== 'loading') now.texture.update(bitmap, { useMipmap: true, premultiply: true });
          map!.triggerRepaint(); // one frame for all the tiles handed over together
          if (tileErrors.delete(key)) showErrors();
        },
        (e) => {
          if ((e as Error)?.name === 'AbortError') return;
          tileErrors.set(key, errorText(e));
          showErrors();
        },
      );
    });
    void Promise.all(jobs).then(() => {
      if (state.generation !== g) return;
      state.shownGeneration = g;
      state.lastUpdate = { generation: g, tiles: keys };
      writeUrl();
      mark('shown', String(g));
      map!.triggerRepaint();
    });
  };

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
      mark('input', `${name}=${value}`);
      refresh('params');
      swatchesSoon();
      return undefined;
    },
  });
  $('reset').addEventListener('click', () => {
    renderer.resetParams();
    panel.setValues(paramStrings(renderer.params));
    refresh('params');
    swatchesSoon();
  });
  compare.addEventListener('change', () => {
    setStatus(describe());
    refresh();
  });
  renderLegend(renderer);
  void showConversionNotes(root, renderer.core.maplibreNotes);

  let graphView: GraphView | undefined;
  /** Show node `id` as the map (undefined: the style's output). */
  const showNode = async (id: string | undefined) => {
    const kind = id === undefined ? undefined : kindOf(id);
    if (id === doc.output.replace(/^@/, '')) id = undefined;
    const rangeBox = $('node-range');
    rangeBox.hidden = kind !== 'scalar-field' || id === undefined;
    nodeRenderer?.renderer.destroy();
    nodeRenderer = undefined;
    nodeFeed.clear();
    nodeFeed = feedFor(() => nodeRenderer?.renderer);
    state.node = undefined;
    if (id !== undefined) {
      const range: [number, number] = [Number(rangeLo.value), Number(rangeHi.value)];
      const derived = nodeViewStyle(doc, id, kind, range);
      if (!derived) return;
      setStatus(`Building the view of node '${id}'…`);
      nodeRenderer = { id, renderer: await Renderer.create({ style: derived, baseUrl: styleUrl, dataUrl, backend, workers: 1 }) };
      state.node = id;
    }
    setHashOption('node', id);
    $('show-output').hidden = id === undefined;
    $('node-shown').textContent = id === undefined ? 'the output' : `node '${id}' (${kind})`;
    graphView?.select(id);
    refresh();
  };
  graphView = drawGraph(
    $('graph'),
    graph,
    doc.output.replace(/^@/, ''),
    (id) => void showNode(id).catch((e) => setStatus(`The node view failed: ${errorText(e)}`, true)),
  );
  graphView.select(undefined);
  $('show-output').addEventListener('click', () => void showNode(undefined));
  for (const i of [rangeLo, rangeHi]) i.addEventListener('change', () => state.node && void showNode(state.node));

  // MapLibre's tile requests (new tiles on a move or zoom, all tiles after a new URL): always the
  // current params, through the same feed as the in-place updates.
  const tileRequest = (feed: () => TileFeed<ImageBitmap>) => async (req: { url: string }, abort: AbortController) => {
    const m = TILE.exec(req.url);
    if (!m) throw new Error(`not a tilegraph tile URL: ${req.url}`);
    const key = `${m[2]}/${m[3]}/${m[4]}`;
    try {
      const bitmap = await feed().get(key, query(), abort.signal);
      if (tileErrors.delete(key)) showErrors();
      return { data: bitmap };
    } catch (e) {
      if ((e as Error)?.name !== 'AbortError') {
        tileErrors.set(key, errorText(e));
        showErrors();
      }
      throw e;
    }
  };
  addProtocol(
    'tilegraph',
    tileRequest(() => outputFeed),
  );
  addProtocol(
    'tilegraph-node',
    tileRequest(() => nodeFeed),
  );
  // Compare: the server's tile, its failure in the server's own words (the JSON error body).
  addProtocol('tilegraph-server', async (req: { url: string }, abort: AbortController) => {
    const m = TILE.exec(req.url);
    if (!m) throw new Error(`not a tilegraph tile URL: ${req.url}`);
    const key = `${m[2]}/${m[3]}/${m[4]}`;
    try {
      const res = await fetch(serverTileUrl(key, m[5] ?? ''), { signal: abort.signal });
      if (!res.ok) throw new Error(await serverErrorText(res));
      const blob = await res.blob();
      const bitmap = await createImageBitmap(blob).catch(() => {
        throw new Error(`the server's tile ${key} is not an image this browser decodes (${blob.type || 'no type'}, ${blob.size} bytes)`);
      });
      if (tileErrors.delete(key)) showErrors();
      return { data: bitmap };
    } catch (e) {
      if ((e as Error)?.name !== 'AbortError') {
        tileErrors.set(key, errorText(e));
        showErrors();
      }
      throw e;
    }
  });

  // Open where the data is, unless the URL names a view.
  let view: { center: [number, number]; zoom: number } | { bounds: [number, number, number, number] } = { center: [0, 20], zoom: 1 };
  const extent = await dataExtent(doc, new FetchLoader({ baseUrl: styleUrl.href, dataUrl: dataUrl.href })).catch(() => undefined);
  if (extent && extent.bounds[2] - extent.bounds[0] < 300) {
    // A header centre with a real zoom (archives often say 0) wins; else fit the bounds.
    view = extent.center && extent.zoom ? { center: extent.center, zoom: Math.max(0, extent.zoom - 1) } : { bounds: extent.bounds };
  }
  // Below every source's minzoom nothing but the background draws: open no further out than the
  // deepest declared minzoom (street tiles that exist only at z13 open at z13, not at the fit).
  const minzooms = Object.values(doc.sources ?? {})
    .map((s) => Number((s as { minzoom?: unknown }).minzoom ?? 0))
    .filter(Number.isFinite);
  // Map zoom is in 512 px units: tiles of zoom z show from map zoom z - log2(512 / tileSize).
  const openZoom = Math.max(0, (minzooms.length ? Math.max(...minzooms) : 0) - Math.log2(512 / renderer.tileSize));
  const urlNamesView = /[#&]map=/.test(location.hash);

  // Shown by MapLibre's attribution control (HTML allowed, spec §2.1).
  const attribution = (await renderer.attribution()).join(' | ');
  map = new MapLibreMap({
    container: 'map',
    hash: 'map',
    ...('bounds' in view ? { bounds: view.bounds, fitBoundsOptions: { padding: 20 } } : view),
    attributionControl: { compact: false },
    style: {
      version: 8,
      sources: { [SOURCE]: { type: 'raster', tiles: [tileUrl()], tileSize: renderer.tileSize, attribution } },
      layers: [{ id: SOURCE, type: 'raster', source: SOURCE, paint: { 'raster-fade-duration': 0 } }],
    },
  });
  state.map = map;
  if (!urlNamesView && map.getZoom() < openZoom) map.setZoom(openZoom);
  map.addControl(new NavigationControl({ showCompass: false }), 'top-left');
  map.addControl(new ScaleControl({ unit: 'metric' }), 'bottom-left');
  const readout = $('readout');
  const updateReadout = () => {
    readout.textContent = `zoom ${map!.getZoom().toFixed(2)} · tiles z${tileZoom(map!)} · ${scaleText(map!)}`;
  };
  map.on('move', updateReadout);
  updateReadout();
  map.on('idle', () => {
    state.idleGeneration = state.shownGeneration;
    mark('idle', String(state.shownGeneration));
  });
  map.on('error', (ev) => {
    // Tile failures are tracked per tile by the protocol above; anything else is shown as it is.
    if ((ev.error as Error)?.name === 'AbortError' || (ev as { tile?: unknown }).tile || (ev as { sourceId?: string }).sourceId === SOURCE) return;
    setStatus(`The map failed: ${errorText(ev.error)}`, true);
  });

  // Click a feature: the features of every `features` node under the cursor.
  const popup = new Popup({ maxWidth: '22rem', closeOnClick: true });
  map.on('click', (ev) => {
    const z = tileZoom(map!);
    void featuresAt(renderer.core, ev.lngLat.lng, ev.lngLat.lat, z)
      .then((list) => {
        state.inspected = list;
        const table = inspectTable(list);
        $('inspect').replaceChildren(table.cloneNode(true));
        popup.setLngLat(ev.lngLat).setDOMContent(table).addTo(map!);
      })
      .catch((e) => setStatus(`Inspecting failed: ${errorText(e)}`, true));
  });

  // Labels: a clicked label's feature, candidate and placed boxes over the map (labels.ts).
  setupLabels({
    map,
    core: renderer.core,
    params: () => renderer.params,
    pixelRatio,
    tileZoom: () => tileZoom(map!),
    state,
    onError: (m) => setStatus(m, true),
  });

  // Export the view as PNG (a bbox render of what the map shows, at the tiles' zoom) and the style.
  $('export-png').addEventListener('click', () => {
    void (async () => {
      const z = tileZoom(map!);
      const b = map!.getBounds();
      const [x0, y0] = lngLatToPixel(b.getWest(), b.getNorth(), z, 256);
      const [x1, y1] = lngLatToPixel(b.getEast(), b.getSouth(), z, 256);
      const window: Window = {
        z,
        x0: Math.floor(x0),
        y0: Math.max(0, Math.floor(y0)),
        width: Math.ceil(x1) - Math.floor(x0),
        height: Math.min(256 * 2 ** z, Math.ceil(y1)) - Math.max(0, Math.floor(y0)),
        tileSize: 256,
      };
      if (window.width * window.height > MAX_EXPORT_PIXELS)
        throw new Error(`the view is ${window.width}x${window.height} pixels at zoom ${z}; zoom in to export it`);
      setStatus(`Exporting ${window.width}x${window.height} px…`);
      const core = nodeRenderer?.renderer.core ?? renderer.core;
      const { raster } = await core.renderWindow(window, core.params(paramStrings(renderer.params)));
      const canvas = el('canvas');
      canvas.width = raster.width;
      canvas.height = raster.height;
      canvas.getContext('2d')!.putImageData(new ImageData(new Uint8ClampedArray(toRGBA8(raster)), raster.width, raster.height), 0, 0);
      const blob = await new Promise<Blob>((resolve, reject) =>
        canvas.toBlob((bl) => (bl ? resolve(bl) : reject(new Error('the canvas could not be encoded'))), 'image/png'),
      );
      const name = `${(renderer.name ?? 'tilegraph').replace(/[^\w-]+/g, '-')}${state.node ? '-' + state.node : ''}-z${z}.png`;
      state.lastExport = { name, bytes: blob.size, window };
      download(name, blob);
      showErrors();
    })().catch((e) => setStatus(`Export failed: ${errorText(e)}`, true));
  });
  $('export-style').addEventListener('click', () => {
    // The document as loaded, with every param's current value as its default.
    const out = structuredClone(doc) as StyleDoc;
    const values = paramStrings(renderer.params);
    for (const [name, decl] of Object.entries(out.params ?? {})) {
      const v = values[name]!;
      decl.default = decl.type === 'number' ? Number(v) : decl.type === 'bool' ? v === 'true' : shortColor(v);
    }
    const text = JSON.stringify(out, null, 2) + '\n';
    const name = `${(renderer.name ?? 'style').replace(/[^\w-]+/g, '-')}.style.json`;
    state.lastExport = { name, bytes: text.length };
    download(name, new Blob([text], { type: 'application/json' }));
  });

  await new Promise<void>((resolve) => map!.once('load', () => resolve()));
  const fromHash = hashOption('node');
  if (fromHash && doc.nodes[fromHash] && viewable(kindOf(fromHash))) await showNode(fromHash);
  if (bad.length) setStatus(`Ignored from the URL: ${bad.join('; ')}`, true);
  else showErrors();

  // Live reload: the server pushes `reload` after `serve --watch` reloads the style.
  if (typeof EventSource !== 'undefined') {
    const events = new EventSource(new URL('events', root));
    events.addEventListener('hello', () => (state.live = true));
    events.addEventListener('reload', (ev) => {
      const r = JSON.parse((ev as MessageEvent<string>).data) as { ok: boolean; version: string; error?: string };
      if (r.ok && r.version !== renderer.version) void reloadKeeping();
      else if (!r.ok) setStatus(`The style file changed but does not load (still showing the previous version): ${r.error}`, true);
    });
  }
}

const state: PreviewState = { generation: 0, shownGeneration: 0, idleGeneration: -1, errors: [], live: false, ready: Promise.resolve() };
(window as unknown as { tilegraphPreview: PreviewState }).tilegraphPreview = state;
state.ready = main(state).catch((e) => {
  setStatus(`The preview could not start: ${errorText(e)}`, true);
  throw e;
});
