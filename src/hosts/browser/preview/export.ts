// Exports: the view as PNG (a bbox render of what the map shows, at the tiles' zoom, on this
// page's thread) and the style document with the current params as its defaults.
import type { Map as MapLibreMap } from 'maplibre-gl';
import { paramStrings, type Renderer } from '../index.js';
import { toRGBA8 } from '../../../render/encode.js';
import type { StyleDoc } from '../../../style/types.js';
import type { Window } from '../../../types.js';
import { lngLatToPixel } from '../../../sources/tiles.js';
import { tileZoom } from './map.js';
import { el, shortColor } from './panel.js';
import { $, errorText, type PreviewState, setStatus } from './state.js';

/** The largest export, in pixels (a bbox render on this page's thread). */
const MAX_EXPORT_PIXELS = 4096 * 4096;

export interface ExportOptions {
  map: MapLibreMap;
  state: PreviewState;
  doc: StyleDoc;
  renderer: Renderer;
  /** The renderer of the view shown (a node view's, else the style's). */
  shown(): Renderer;
  /** After an export: the status line as it was. */
  done(): void;
}

/** The export buttons. */
export function setupExport(o: ExportOptions): void {
  $('export-png').addEventListener('click', () => {
    void exportPng(o).catch((e) => setStatus(`Export failed: ${errorText(e)}`, true));
  });
  $('export-style').addEventListener('click', () => exportStyle(o));
}

/** The window of what the map shows, in 256 px tiles at the tiles' zoom (clamped to the world's rows). */
function viewWindow(map: MapLibreMap): Window {
  const z = tileZoom(map);
  const b = map.getBounds();
  const [x0, y0] = lngLatToPixel(b.getWest(), b.getNorth(), z, 256);
  const [x1, y1] = lngLatToPixel(b.getEast(), b.getSouth(), z, 256);
  return {
    z,
    x0: Math.floor(x0),
    y0: Math.max(0, Math.floor(y0)),
    width: Math.ceil(x1) - Math.floor(x0),
    height: Math.min(256 * 2 ** z, Math.ceil(y1)) - Math.max(0, Math.floor(y0)),
    tileSize: 256,
  };
}

async function exportPng(o: ExportOptions): Promise<void> {
  const { renderer, state } = o;
  const window = viewWindow(o.map);
  const { z } = window;
  if (window.width * window.height > MAX_EXPORT_PIXELS)
    throw new Error(`the view is ${window.width}x${window.height} pixels at zoom ${z}; zoom in to export it`);
  setStatus(`Exporting ${window.width}x${window.height} px…`);
  const core = o.shown().core;
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
  o.done();
}

/** The document as loaded, with every param's current value as its default. */
function exportStyle(o: ExportOptions): void {
  const out = structuredClone(o.doc) as StyleDoc;
  const values = paramStrings(o.renderer.params);
  for (const [name, decl] of Object.entries(out.params ?? {})) {
    const v = values[name]!;
    decl.default = decl.type === 'number' ? Number(v) : decl.type === 'bool' ? v === 'true' : shortColor(v);
  }
  const text = JSON.stringify(out, null, 2) + '\n';
  const name = `${(o.renderer.name ?? 'style').replace(/[^\w-]+/g, '-')}.style.json`;
  o.state.lastExport = { name, bytes: text.length };
  download(name, new Blob([text], { type: 'application/json' }));
}

function download(name: string, blob: Blob): void {
  const a = el('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
