// The map: MapLibre GL with our one raster source, opened where the style's data is (unless the
// URL names a view), its controls and zoom readout, and a click that lists the features under it.
import { Map as MapLibreMap, NavigationControl, Popup, ScaleControl } from 'maplibre-gl';
import { FetchLoader, type Renderer } from '../index.js';
import type { StyleDoc } from '../../../style/types.js';
import { dataExtent } from '../../../sources/extent.js';
import { featuresAt, type InspectedFeature } from './inspect.js';
import { el } from './panel.js';
import { $, errorText, mark, type PreviewState, setStatus } from './state.js';
import { SOURCE } from './tiles.js';

/** The zoom of the 256 px tiles the map shows at its current zoom. */
export const tileZoom = (map: MapLibreMap) => Math.max(0, Math.min(22, Math.round(map.getZoom() + 1)));

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

type View = { center: [number, number]; zoom: number } | { bounds: [number, number, number, number] };

/** Where the map opens: where the data is, and no further out than the deepest source minzoom. */
async function openingView(doc: StyleDoc, renderer: Renderer, styleUrl: URL, dataUrl: URL): Promise<{ view: View; openZoom: number }> {
  let view: View = { center: [0, 20], zoom: 1 };
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
  return { view, openZoom };
}

export interface MapOptions {
  state: PreviewState;
  renderer: Renderer;
  doc: StyleDoc;
  styleUrl: URL;
  dataUrl: URL;
  /** The tile URL to start with. */
  tileUrl: string;
}

/** The map, with its controls, readout and error line; `state.map` set. */
export async function openMap(o: MapOptions): Promise<MapLibreMap> {
  const { state, renderer } = o;
  const { view, openZoom } = await openingView(o.doc, renderer, o.styleUrl, o.dataUrl);
  const urlNamesView = /[#&]map=/.test(location.hash);
  // Shown by MapLibre's attribution control (HTML allowed, spec §2.1).
  const attribution = (await renderer.attribution()).join(' | ');
  const map = new MapLibreMap({
    container: 'map',
    hash: 'map',
    ...('bounds' in view ? { bounds: view.bounds, fitBoundsOptions: { padding: 20 } } : view),
    attributionControl: { compact: false },
    style: {
      version: 8,
      sources: { [SOURCE]: { type: 'raster', tiles: [o.tileUrl], tileSize: renderer.tileSize, attribution } },
      layers: [{ id: SOURCE, type: 'raster', source: SOURCE, paint: { 'raster-fade-duration': 0 } }],
    },
  });
  state.map = map;
  if (!urlNamesView && map.getZoom() < openZoom) map.setZoom(openZoom);
  map.addControl(new NavigationControl({ showCompass: false }), 'top-left');
  map.addControl(new ScaleControl({ unit: 'metric' }), 'bottom-left');
  const readout = $('readout');
  const updateReadout = () => {
    readout.textContent = `zoom ${map.getZoom().toFixed(2)} · tiles z${tileZoom(map)} · ${scaleText(map)}`;
  };
  map.on('move', updateReadout);
  updateReadout();
  map.on('idle', () => {
    state.idleGeneration = state.shownGeneration;
    mark(state, 'idle', String(state.shownGeneration));
  });
  map.on('error', (ev) => {
    // Tile failures are tracked per tile by the protocols (tiles.ts); anything else is shown as it is.
    if ((ev.error as Error)?.name === 'AbortError' || (ev as { tile?: unknown }).tile || (ev as { sourceId?: string }).sourceId === SOURCE) return;
    setStatus(`The map failed: ${errorText(ev.error)}`, true);
  });
  // The browser can take the map's WebGL context away (its GPU process restarted or was overloaded):
  // MapLibre draws nothing until the browser gives it back, so say so rather than look stuck.
  map.on('webglcontextlost', () =>
    setStatus("The map's WebGL context was lost (the browser's GPU process restarted); the map comes back when the browser restores it", true),
  );
  map.on('webglcontextrestored', () => setStatus("The map's WebGL context is back."));
  return map;
}

/** Click a feature: the features of every `features` node under the cursor, in a popup and the side panel. */
export function inspectOnClick(map: MapLibreMap, renderer: Renderer, state: PreviewState): void {
  const popup = new Popup({ maxWidth: '22rem', closeOnClick: true });
  map.on('click', (ev) => {
    const z = tileZoom(map);
    void featuresAt(renderer.core, ev.lngLat.lng, ev.lngLat.lat, z)
      .then((list) => {
        state.inspected = list;
        const table = inspectTable(list);
        $('inspect').replaceChildren(table.cloneNode(true));
        popup.setLngLat(ev.lngLat).setDOMContent(table).addTo(map);
      })
      .catch((e) => setStatus(`Inspecting failed: ${errorText(e)}`, true));
  });
}

function inspectTable(list: InspectedFeature[]): HTMLElement {
  const box = el('div', { class: 'inspect' });
  if (list.length === 0) {
    box.append(el('p', { class: 'help' }, 'No features here.'));
    return box;
  }
  for (const f of list.slice(0, 20)) {
    const section = el('section', { class: 'feature', 'data-node': f.node });
    section.append(el('h3', {}, `${f.node} · ${f.geometry}`));
    section.append(propertiesTable(f.properties));
    box.append(section);
  }
  if (list.length > 20) box.append(el('p', { class: 'help' }, `and ${list.length - 20} more`));
  return box;
}

/** A feature's properties as a table, a row each (strings as they are, other values as JSON). */
export function propertiesTable(properties: Record<string, unknown>): HTMLTableElement {
  const table = el('table');
  const entries = Object.entries(properties);
  if (entries.length === 0) table.append(el('tr', {}, '(no properties)'));
  for (const [k, v] of entries) {
    const tr = el('tr');
    tr.append(el('th', { scope: 'row' }, k), el('td', {}, typeof v === 'string' ? v : JSON.stringify(v)));
    table.append(tr);
  }
  return table;
}
