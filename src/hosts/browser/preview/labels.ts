// Labels in the workbench: a click on a placed label lists its text node, its text and its
// feature's properties; a switch draws every text node's candidate boxes and placed boxes over the
// map. Both ask the core renderer on this thread what the text nodes decide (Renderer.labels: the
// placement rule run without drawing, src/render/render.ts decide) for a window at the tiles' zoom
// and pixel density, so they show the labels the tiles draw: placement is anchored to world pixels,
// and every window decides a label alike (docs/format.md, "Text placement").
import type { Map as MapLibreMap } from 'maplibre-gl';
import type { CandidateLabel, Renderer as CoreRenderer, TextPlacement, Window } from '../../../index.js';
import type { ParamValues } from '../../../params/index.js';
import { lngLatToPixel, pixelToLngLat } from '../../../sources/tiles.js';
import { propertiesTable } from './map.js';
import { el } from './panel.js';

/** A placed label under a click. */
export interface InspectedLabel {
  /** The text node that placed it. */
  node: string;
  text: string;
  /** Its feature's properties. */
  properties: Record<string, unknown>;
}

/** What the page shows of labels (part of `window.tilegraphPreview`). */
export interface LabelsState {
  /** The placed labels under the last click on the map. */
  labels?: InspectedLabel[];
  /** The boxes drawn over the map while "Show label boxes" is on: how many, at which tile zoom; undefined when off. */
  labelBoxes?: { z: number; candidates: number; placed: number };
}

export interface LabelsOptions {
  map: MapLibreMap;
  core: CoreRenderer;
  /** The params the tiles render with now. */
  params: () => ParamValues;
  /** The tiles' pixel density. */
  pixelRatio: number;
  /** The zoom of the 256 px tiles the map shows. */
  tileZoom: () => number;
  state: LabelsState;
  onError: (message: string) => void;
}

/** Box outlines over the map: candidates that lost, and placed labels (CSS colours). */
export const CANDIDATE_COLOUR = '#ff6a00';
export const PLACED_COLOUR = '#00a838';
/** Pixels around a click: a label counts when one of its boxes (padding included) holds the point. */
const CLICK_SLACK = 8;
/** The largest view whose boxes are computed, in tile pixels (the export's bound). */
const MAX_BOX_PIXELS = 4096 * 4096;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** The placed labels of `placements` with a box holding world pixel (x, y). */
export function labelsAt(placements: Map<string, TextPlacement>, x: number, y: number): InspectedLabel[] {
  const out: InspectedLabel[] = [];
  for (const [node, p] of placements)
    for (const l of p.placed) {
      const b = l.boxes;
      for (let i = 0; i < b.length; i += 4)
        if (x >= b[i]! && x <= b[i + 2]! && y >= b[i + 1]! && y <= b[i + 3]!) {
          out.push({ node, text: l.text, properties: { ...l.feature.properties } });
          break;
        }
    }
  return out;
}

function labelList(list: InspectedLabel[]): HTMLElement {
  const box = el('div', { class: 'inspect' });
  if (!list.length) {
    box.append(el('p', { class: 'help' }, 'No label here.'));
    return box;
  }
  for (const l of list) {
    const section = el('section', { class: 'label', 'data-node': l.node });
    section.append(el('h3', {}, `${l.node} · “${l.text}”`));
    section.append(propertiesTable(l.properties));
    box.append(section);
  }
  return box;
}

/** The section under the panel's "Labels" heading, the click listener and the box overlay; nothing when the style has no text node. */
export function setupLabels(o: LabelsOptions): void {
  const { map, core, state } = o;
  if (![...core.plan.nodes.values()].some((n) => n.op.name === 'text')) return;
  $('labels').hidden = false;
  const T = 256 * o.pixelRatio;
  const world = (z: number, lng: number, lat: number) => lngLatToPixel(lng, lat, z, T);

  labelsOnClick(o, T);

  // The overlay: every candidate's boxes, then the placed labels' boxes over them.
  const canvas = el('canvas', { class: 'label-boxes', 'aria-hidden': 'true' });
  canvas.hidden = true;
  map.getContainer().append(canvas);
  const toggle = $<HTMLInputElement>('label-boxes');
  let shown: { z: number; labels: CandidateLabel[] } | undefined;
  let shownKey = '';
  let runs = 0;
  let abort: AbortController | undefined;

  const draw = () => drawBoxes(canvas, map, shown, T);

  /** The view at the tiles' zoom and density: the window whose labels are boxed. */
  const viewWindow = (): Window => {
    const z = o.tileZoom();
    const b = map.getBounds();
    const [x0, y0] = world(z, b.getWest(), b.getNorth());
    const [x1, y1] = world(z, b.getEast(), b.getSouth());
    const top = Math.max(0, Math.floor(y0));
    return {
      z,
      x0: Math.floor(x0),
      y0: top,
      width: Math.ceil(x1) - Math.floor(x0),
      height: Math.min(T * 2 ** z, Math.ceil(y1)) - top,
      tileSize: T,
      pixelRatio: o.pixelRatio,
    };
  };

  const update = () => {
    if (!toggle.checked) return;
    const window = viewWindow();
    const params = o.params();
    const key = `${JSON.stringify(window)} ${JSON.stringify(params.toValues())}`;
    if (key === shownKey) return draw();
    if (window.width * window.height > MAX_BOX_PIXELS) {
      o.onError(`The view is ${window.width}x${window.height} pixels at zoom ${window.z}; zoom in to show label boxes`);
      return;
    }
    abort?.abort();
    abort = new AbortController();
    const run = ++runs;
    void core
      .labels(window, params, { signal: abort.signal })
      .then((m) => {
        if (run !== runs || !toggle.checked) return;
        const labels = [...m.values()].flatMap((p) => p.candidates ?? []);
        shown = { z: window.z, labels };
        shownKey = key;
        state.labelBoxes = { z: window.z, candidates: labels.length, placed: labels.filter((l) => l.placed).length };
        draw();
      })
      .catch((e) => {
        if ((e as Error)?.name !== 'AbortError') o.onError(`Label boxes failed: ${(e as Error)?.message ?? e}`);
      });
  };

  toggle.addEventListener('change', () => {
    canvas.hidden = !toggle.checked;
    if (toggle.checked) return update();
    abort?.abort();
    shown = undefined;
    shownKey = '';
    state.labelBoxes = undefined;
    draw();
  });
  // Follow the map as it moves; decide again when it rests (a new view, or new params: the map goes
  // idle once their tiles are shown).
  map.on('move', () => shown && draw());
  map.on('resize', () => shown && draw());
  map.on('idle', update);
}

/** A click: the placed labels whose boxes hold the point, decided for a small window around it, listed under "Labels". */
function labelsOnClick(o: LabelsOptions, T: number): void {
  const { map, core, state } = o;
  const world = (z: number, lng: number, lat: number) => lngLatToPixel(lng, lat, z, T);
  let clicks = 0;
  map.on('click', (ev) => {
    const z = o.tileZoom();
    const [x, y] = world(z, ev.lngLat.lng, ev.lngLat.lat);
    const r = CLICK_SLACK * o.pixelRatio;
    const window: Window = { z, x0: Math.floor(x) - r, y0: Math.floor(y) - r, width: 2 * r + 1, height: 2 * r + 1, tileSize: T, pixelRatio: o.pixelRatio };
    const n = ++clicks;
    void core
      .labels(window, o.params())
      .then((m) => {
        if (n !== clicks) return;
        const list = labelsAt(m, x, y);
        state.labels = list;
        $('labels-here').replaceChildren(labelList(list));
      })
      .catch((e) => o.onError(`Listing labels failed: ${(e as Error)?.message ?? e}`));
  });
}

/** The overlay over the map: every candidate's boxes (dashed), then the placed labels' boxes over them; cleared when nothing is shown. */
function drawBoxes(canvas: HTMLCanvasElement, map: MapLibreMap, shown: { z: number; labels: CandidateLabel[] } | undefined, T: number): void {
  const dpr = globalThis.devicePixelRatio || 1;
  const c = map.getContainer();
  canvas.width = Math.round(c.clientWidth * dpr);
  canvas.height = Math.round(c.clientHeight * dpr);
  const g = canvas.getContext('2d')!;
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, c.clientWidth, c.clientHeight);
  if (!shown) return;
  const z = shown.z;
  const screen = (x: number, y: number) => map.project(pixelToLngLat(x, y, z, T));
  const stroke = (labels: CandidateLabel[], colour: string, width: number, dash: number[]) => {
    g.strokeStyle = colour;
    g.lineWidth = width;
    g.setLineDash(dash);
    g.beginPath();
    for (const l of labels) {
      const b = l.boxes;
      for (let i = 0; i < b.length; i += 4) {
        const corners = [screen(b[i]!, b[i + 1]!), screen(b[i + 2]!, b[i + 1]!), screen(b[i + 2]!, b[i + 3]!), screen(b[i]!, b[i + 3]!)];
        g.moveTo(corners[0]!.x, corners[0]!.y);
        for (const p of corners.slice(1)) g.lineTo(p.x, p.y);
        g.closePath();
      }
    }
    g.stroke();
  };
  stroke(
    shown.labels.filter((l) => !l.placed),
    CANDIDATE_COLOUR,
    1,
    [3, 2],
  );
  stroke(
    shown.labels.filter((l) => l.placed),
    PLACED_COLOUR,
    2,
    [],
  );
}
