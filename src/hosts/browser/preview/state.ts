// The page's state and its URL: what `window.tilegraphPreview` shows (tests, the bench, a curious
// person in the console), the status line, the options after `#` (`backend`, `workers`, `ratio`,
// `node`, `map`...), and the params in the query string (the tile server's query keys).
import type { Map as MapLibreMap } from 'maplibre-gl';
import { paramStrings, type Renderer, TilegraphError } from '../index.js';
import type { Window } from '../../../types.js';
import type { InspectedFeature } from './inspect.js';
import type { LabelsState } from './labels.js';
import { shortColor } from './panel.js';

/** The server's root: this script is served from <root>/preview/preview.js. */
export const root = new URL('../', import.meta.url);

export const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

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
  /** How far the page's start has got: 'renderer', 'map', 'map load', 'node view', then 'ready' (a stuck start says where). */
  stage?: string;
  ready: Promise<void>;
}

/** A timing mark, when the state records them (bench/preview.mjs). */
export const mark = (state: PreviewState, what: string, detail?: string) => state.trace?.push([what, performance.now(), detail]);

export function setStatus(text: string, isError = false): void {
  const s = $('status');
  if (s.textContent === text && s.classList.contains('is-error') === isError) return;
  s.textContent = text;
  s.classList.toggle('is-error', isError);
}

export function hashOption(key: string): string | undefined {
  return new URLSearchParams(location.hash.slice(1)).get(key) ?? undefined;
}

/** A whole number option after `#` within [lo, hi], else undefined. */
export function hashInt(key: string, lo: number, hi: number): number | undefined {
  const v = Number(hashOption(key) ?? Number.NaN);
  return Number.isInteger(v) && v >= lo && v <= hi ? v : undefined;
}

export function setHashOption(key: string, value: string | undefined): void {
  const h = new URLSearchParams(location.hash.slice(1));
  if (value === undefined) h.delete(key);
  else h.set(key, value);
  // URLSearchParams escapes the '/' of MapLibre's map=z/lat/lon; keep it readable.
  history.replaceState(history.state, '', `${location.pathname}${location.search}#${h.toString().replace(/%2F/g, '/')}`);
}

export function errorText(e: unknown): string {
  if (e instanceof TilegraphError) return e.problems.map((p) => p.message).join('; ');
  return (e as Error)?.message ?? String(e);
}

/** A failed server answer in the server's words: `HTTP 502: source 'dem': cannot fetch …: unknown host`. */
export async function serverErrorText(res: Response): Promise<string> {
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

/** Params from the page URL (the tile server's query keys); a bad one is dropped, and its error returned. */
export function paramsFromUrl(renderer: Renderer): string[] {
  const bad: string[] = [];
  for (const [name, value] of new URLSearchParams(location.search)) {
    try {
      renderer.setParam(name, value);
    } catch (e) {
      bad.push(errorText(e));
    }
  }
  return bad;
}

/**
 * The page URL follows the params: the non-default ones in the query string, written at most
 * every 100 ms while a slider moves (browsers throttle history updates), and at once when the
 * tiles of a change are shown.
 */
export class UrlParams {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private at = 0;
  constructor(
    private readonly renderer: Renderer,
    /** The params' defaults as canonical strings. */
    private readonly defaults: Record<string, string>,
  ) {}

  /** The non-default params as a query string: what the page URL and the tile URLs carry. */
  query(): string {
    const q = new URLSearchParams();
    for (const [name, v] of Object.entries(paramStrings(this.renderer.params))) if (v !== this.defaults[name]) q.set(name, shortColor(v));
    return q.toString();
  }

  /** Write the URL now. */
  write(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.at = performance.now();
    const q = this.query();
    const next = `${location.pathname}${q ? '?' + q : ''}${location.hash}`;
    if (next !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, '', next);
  }

  /** Write the URL now, or within 100 ms of the last write. */
  update(): void {
    const wait = this.at + 100 - performance.now();
    if (wait <= 0) this.write();
    else this.timer ??= setTimeout(() => this.write(), wait);
  }
}
