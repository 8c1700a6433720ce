// The preview page served by the tile server at `/`: MapLibre shows tiles rendered in this browser
// (through the `tilegraph://` protocol) or by the server; the panel edits the style's params.
import { addProtocol, Map as MapLibreMap, NavigationControl, type RasterTileSource } from 'maplibre-gl';
import { paramStrings, Renderer, TilegraphError, type BackendChoice } from '../index.js';
import { buildPanel, shortColor } from './panel.js';
import { toRGBA8 } from '../../../render/encode.js';

/** The server's root: this script is served from <root>/preview/preview.js. */
const root = new URL('../', import.meta.url);
const SOURCE = 'tilegraph';
const TILE = /^tilegraph:\/\/(\d+)\/(\d+)\/(\d+)(?:\?(.*))?$/;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** What a test (or a curious person in the console) can reach: `window.tilegraphPreview`. */
export interface PreviewState {
  map?: MapLibreMap;
  renderer?: Renderer;
  /** Bumped every time the tiles are re-requested (params changed, compare switched). */
  generation: number;
  /** The generation the map last went idle at (all its tiles loaded). */
  idleGeneration: number;
  errors: string[];
  ready: Promise<void>;
}

function setStatus(text: string, isError = false): void {
  const s = $('status');
  s.textContent = text;
  s.classList.toggle('is-error', isError);
}

function hashOption(key: string): string | undefined {
  return new URLSearchParams(location.hash.slice(1)).get(key) ?? undefined;
}

function errorText(e: unknown): string {
  if (e instanceof TilegraphError) return e.problems.map((p) => p.message).join('; ');
  return (e as Error)?.message ?? String(e);
}

function renderLegend(renderer: Renderer): void {
  const legend = renderer.legend;
  const box = $('legend');
  box.hidden = !legend;
  if (!legend) return;
  $('legend-title').textContent = legend.title ?? 'Legend';
  const list = $<HTMLUListElement>('legend-entries');
  list.replaceChildren(
    ...(legend.entries ?? []).map((e) => {
      const li = document.createElement('li');
      const swatch = document.createElement('canvas');
      swatch.className = 'legend-swatch';
      swatch.width = swatch.height = SWATCH;
      swatch.setAttribute('aria-hidden', 'true');
      li.append(swatch);
      const label = document.createElement('span');
      label.className = 'legend-label';
      label.textContent = e.label;
      li.append(label);
      if (e.note) {
        const note = document.createElement('span');
        note.className = 'legend-entry-note';
        note.textContent = e.note;
        li.append(note);
      }
      return li;
    }),
  );
  const note = $('legend-note');
  note.textContent = legend.note ?? '';
  note.hidden = !legend.note;
  drawSwatches(renderer);
}

const SWATCH = 20;

/** Each entry's symbol: its node drawn over stand-in features with the current params (CPU, small). */
function drawSwatches(renderer: Renderer): void {
  const canvases = document.querySelectorAll<HTMLCanvasElement>('#legend-entries canvas.legend-swatch');
  canvases.forEach((canvas, i) => {
    renderer.core
      .renderLegendSwatch(i, renderer.params, { size: SWATCH })
      .then((raster) => {
        const rgba = toRGBA8(raster);
        canvas.getContext('2d')!.putImageData(new ImageData(new Uint8ClampedArray(rgba), raster.width, raster.height), 0, 0);
      })
      .catch(() => {
        canvas.hidden = true; // an entry whose node cannot be drawn over stand-ins (e.g. a DEM) shows its label only
      });
  });
}

async function main(state: PreviewState): Promise<void> {
  setStatus('Loading the style…');
  const asked = hashOption('backend');
  const backend: BackendChoice = asked === 'gpu' || asked === 'cpu' ? asked : 'auto';
  const renderer = await Renderer.create({ style: new URL('style', root), dataUrl: new URL('data/', root), backend });
  state.renderer = renderer;
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
  const compare = $<HTMLInputElement>('compare');
  const tileUrl = () => {
    const q = query();
    return compare.checked ? `${new URL('tiles', root).href}/{z}/{x}/{y}.png${q ? '?' + q : ''}` : `tilegraph://{z}/{x}/{y}${q ? '?' + q : ''}`;
  };
  const describe = () => (compare.checked ? 'Showing server-rendered tiles' : `Rendering in this browser (${renderer.backend === 'gpu' ? `WebGPU, ${renderer.adapter}` : 'CPU, in a worker'})`);

  let map: MapLibreMap | undefined;
  let pending: ReturnType<typeof setTimeout> | undefined;
  /** Re-request the visible tiles; slider drags coalesce into one refresh per ~frame or two. */
  const refresh = () => {
    const q = query();
    history.replaceState(history.state, '', `${location.pathname}${q ? '?' + q : ''}${location.hash}`);
    if (pending !== undefined) return;
    pending = setTimeout(() => {
      pending = undefined;
      state.generation++;
      (map?.getSource(SOURCE) as RasterTileSource | undefined)?.setTiles([tileUrl()]);
    }, 40);
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
      refresh();
      drawSwatches(renderer);
      return undefined;
    },
  });
  $('reset').addEventListener('click', () => {
    renderer.resetParams();
    panel.setValues(paramStrings(renderer.params));
    refresh();
    drawSwatches(renderer);
  });
  compare.addEventListener('change', () => {
    setStatus(describe());
    refresh();
  });
  renderLegend(renderer);

  addProtocol('tilegraph', async (req, abort) => {
    const m = TILE.exec(req.url);
    if (!m) throw new Error(`not a tilegraph tile URL: ${req.url}`);
    const params = Object.fromEntries(new URLSearchParams(m[4] ?? ''));
    const bitmap = await renderer.renderTileBitmap({ z: Number(m[1]), x: Number(m[2]), y: Number(m[3]) }, { params, signal: abort.signal });
    return { data: bitmap };
  });

  // Shown by MapLibre's attribution control (HTML allowed, spec §2.1).
  const attribution = (await renderer.attribution()).join(' | ');
  map = new MapLibreMap({
    container: 'map',
    hash: 'map',
    center: [0, 20],
    zoom: 1,
    attributionControl: { compact: false },
    style: {
      version: 8,
      sources: { [SOURCE]: { type: 'raster', tiles: [tileUrl()], tileSize: renderer.tileSize, attribution } },
      layers: [{ id: SOURCE, type: 'raster', source: SOURCE, paint: { 'raster-fade-duration': 0 } }],
    },
  });
  state.map = map;
  map.addControl(new NavigationControl({ showCompass: false }), 'top-left');
  map.on('idle', () => {
    state.idleGeneration = state.generation;
  });
  map.on('error', (ev) => {
    const msg = errorText(ev.error);
    if ((ev.error as Error)?.name === 'AbortError') return;
    state.errors.push(msg);
    setStatus(`A tile failed: ${msg}`, true);
  });
  await new Promise<void>((resolve) => map!.once('load', () => resolve()));
  // A tile that already failed keeps its message in the status line.
  if (bad.length) setStatus(`Ignored from the URL: ${bad.join('; ')}`, true);
  else if (state.errors.length === 0) setStatus(describe());
}

const state: PreviewState = { generation: 0, idleGeneration: -1, errors: [], ready: Promise.resolve() };
(window as unknown as { tilegraphPreview: PreviewState }).tilegraphPreview = state;
state.ready = main(state).catch((e) => {
  setStatus(`The preview could not start: ${errorText(e)}`, true);
  throw e;
});
