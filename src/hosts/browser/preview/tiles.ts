// The map's tiles: rendered in this page through the `tilegraph://` protocols (a feed per view,
// feed.ts), or the server's through `tilegraph-server://` when comparing; errors tracked per tile;
// a param change updates the tiles the map holds in place, anything else re-requests them.
import { addProtocol, type Map as MapLibreMap, type RasterTileSource } from 'maplibre-gl';
import type { Renderer } from '../index.js';
import type { Kind } from '../../../types.js';
import { lngLatToPixel } from '../../../sources/tiles.js';
import { TileFeed } from './feed.js';
import { errorText, mark, type PreviewState, root, serverErrorText, setStatus, type UrlParams } from './state.js';

/** The map's one source and layer. */
export const SOURCE = 'tilegraph';
const TILE = /^tilegraph(-node|-server)?:\/\/(\d+)\/(\d+)\/(\d+)(?:\?(.*))?$/;

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

export interface TilesOptions {
  state: PreviewState;
  renderer: Renderer;
  pixelRatio: number;
  url: UrlParams;
  /** The "compare with the server" switch. */
  compare: HTMLInputElement;
  kindOf(id: string): Kind | undefined;
}

const tileOf = (key: string) => {
  const [z, x, y] = key.split('/').map(Number) as [number, number, number];
  return { z, x, y };
};

export class Tiles {
  /** Set once the map exists. */
  map?: MapLibreMap;
  /** The node view's renderer, while a node is shown. */
  private node?: Renderer;
  private readonly outputFeed: TileFeed<ImageBitmap>;
  private nodeFeed: TileFeed<ImageBitmap>;
  /** Errors per tile: a tile that renders later clears its own error. */
  private readonly errors = new Map<string, string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private at = 0;

  constructor(private readonly o: TilesOptions) {
    this.outputFeed = this.feedFor(() => o.renderer);
    this.nodeFeed = this.feedFor(() => this.node);
  }

  /** The renderer of the view shown: the node view's, else the style's. */
  get renderer(): Renderer {
    return this.node ?? this.o.renderer;
  }

  /** Close the node view: its renderer destroyed, its feed's renders dropped. */
  closeNode(): void {
    this.node?.destroy();
    this.node = undefined;
    this.nodeFeed.clear();
    this.nodeFeed = this.feedFor(() => this.node);
  }

  /** Show a node view's renderer (after closeNode). */
  openNode(r: Renderer): void {
    this.node = r;
  }

  /** The tile URL of the view shown, with the params. */
  url(): string {
    const q = this.o.url.query();
    const qs = q ? '?' + q : '';
    if (this.node) return `tilegraph-node://{z}/{x}/{y}${qs}`;
    // Server tiles go through a protocol of ours too, so that a failed or undecodable one is
    // counted and its error shown like a tile rendered here (MapLibre would only log it).
    return this.o.compare.checked ? `tilegraph-server://{z}/{x}/{y}${qs}` : `tilegraph://{z}/{x}/{y}${qs}`;
  }

  /** What the map shows, for the status line. */
  describe(): string {
    const { state, renderer } = this.o;
    if (state.node) return `Showing node '${state.node}' (${this.o.kindOf(state.node)}), rendered in this browser`;
    return this.o.compare.checked
      ? 'Showing server-rendered tiles'
      : `Rendering in this browser (${renderer.backend === 'gpu' ? `WebGPU, ${renderer.adapter}` : 'CPU, in a worker'})`;
  }

  /** The failed tiles in the status line (and the state), else what the map shows. */
  showErrors(): void {
    const { state } = this.o;
    state.errors = [...new Set(this.errors.values())];
    const n = this.errors.size;
    const what = this.o.compare.checked && !state.node ? `server tile${n > 1 ? 's' : ''}` : `tile${n > 1 ? 's' : ''}`;
    if (state.errors.length) setStatus(`${n} ${what} failed: ${state.errors[0]}`, true);
    else setStatus(this.describe());
  }

  /**
   * Show the current params. A param change with tiles rendered here renders the tiles the map
   * holds at once (no debounce), nearest the centre first, and uploads them into the tiles'
   * textures; everything else (compare switched, node shown, no access to MapLibre's tiles)
   * re-requests the tiles from a new URL.
   */
  refresh(what: 'params' | 'source' = 'source'): void {
    const { state } = this.o;
    mark(state, 'refresh', what);
    this.o.url.update();
    state.generation++;
    this.errors.clear();
    this.showErrors();
    if (!this.map) return;
    const tm = what === 'params' && !this.o.compare.checked ? this.liveTiles() : undefined;
    if (!tm) {
      // A new tile URL: at once for a new source, at most every 100 ms for a moving slider (the
      // compared server tiles are HTTP requests, and MapLibre does not cancel those it re-requests).
      const wait = this.at + 100 - performance.now();
      if (what === 'source' || wait <= 0) this.setTilesNow();
      else this.timer ??= setTimeout(() => this.setTilesNow(), wait);
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.updateInPlace(tm, state.generation);
  }

  /** Register the page's tile protocols with MapLibre (once, before the map). */
  registerProtocols(): void {
    addProtocol(
      'tilegraph',
      this.tileRequest(() => this.outputFeed),
    );
    addProtocol(
      'tilegraph-node',
      this.tileRequest(() => this.nodeFeed),
    );
    addProtocol('tilegraph-server', (req: { url: string }, abort: AbortController) => this.serverTile(req, abort));
  }

  /** Render every tile the map holds with the current params and upload each into its texture. */
  private updateInPlace(tm: LiveTiles, g: number): void {
    const { state } = this.o;
    const map = this.map!;
    // Tiles kept for views left earlier hold old params: drop them (they render again if the view returns).
    tm._outOfViewCache?.reset();
    const feed = this.node ? this.nodeFeed : this.outputFeed;
    const q = this.o.url.query();
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
          map.triggerRepaint(); // one frame for all the tiles handed over together
          if (this.errors.delete(key)) this.showErrors();
        },
        (e) => this.tileFailed(key, e),
      );
    });
    void Promise.all(jobs).then(() => {
      if (state.generation !== g) return;
      state.shownGeneration = g;
      state.lastUpdate = { generation: g, tiles: keys };
      this.o.url.write();
      mark(state, 'shown', String(g));
      map.triggerRepaint();
    });
  }

  private tileFailed(key: string, e: unknown): void {
    if ((e as Error)?.name === 'AbortError') return;
    this.errors.set(key, errorText(e));
    this.showErrors();
  }

  private setTilesNow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.at = performance.now();
    this.o.state.shownGeneration = this.o.state.generation;
    (this.map?.getSource(SOURCE) as RasterTileSource | undefined)?.setTiles([this.url()]);
  }

  private liveTiles(): LiveTiles | undefined {
    const style = (this.map as unknown as { style?: { tileManagers?: Record<string, LiveTiles>; sourceCaches?: Record<string, LiveTiles> } })?.style;
    const tm = style?.tileManagers?.[SOURCE] ?? style?.sourceCaches?.[SOURCE];
    return tm && typeof tm.getIds === 'function' && typeof tm.getTileByID === 'function' ? tm : undefined;
  }

  /** Renders start nearest the view's centre: squared distance in tiles at the tile's zoom. */
  private priorityOf(key: string): number {
    if (!this.map) return 0;
    const { z, x, y } = tileOf(key);
    const c = this.map.getCenter();
    const [cx, cy] = lngLatToPixel(c.lng, c.lat, z, 1);
    return (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2;
  }

  /**
   * Tiles rendered in this page go through a feed (feed.ts): a newer value supersedes a tile's
   * render that has not started, and finished tiles reach the map together (one repaint).
   */
  private feedFor(r: () => Renderer | undefined): TileFeed<ImageBitmap> {
    const { state, pixelRatio } = this.o;
    return new TileFeed<ImageBitmap>({
      render: (key, q, o) => {
        const which = r();
        if (!which) return Promise.reject(new DOMException('the node view was closed', 'AbortError'));
        mark(state, 'render', `${key} ${q}`);
        return which.renderTileBitmap(tileOf(key), {
          pixelRatio,
          params: Object.fromEntries(new URLSearchParams(q)),
          signal: o.signal,
          superseded: o.superseded,
          priority: this.priorityOf(key),
          onTiming: state.trace
            ? (w) => mark(state, 'worker', `${key} ${(w.start - performance.timeOrigin).toFixed(1)} ${(w.end - performance.timeOrigin).toFixed(1)} ${q}`)
            : undefined,
        });
      },
      // A repaint costs much more than a tile on a software-GL browser (and blocks this thread there): few hand-overs.
      maxHoldMs: 250,
      onFlush: (keys) => mark(state, 'flush', keys.join(' ')),
    });
  }

  /**
   * MapLibre's tile requests (new tiles on a move or zoom, all tiles after a new URL): always the
   * current params, through the same feed as the in-place updates.
   */
  private tileRequest(feed: () => TileFeed<ImageBitmap>) {
    return async (req: { url: string }, abort: AbortController) => {
      const key = keyOf(req.url);
      try {
        const bitmap = await feed().get(key, this.o.url.query(), abort.signal);
        if (this.errors.delete(key)) this.showErrors();
        return { data: bitmap };
      } catch (e) {
        this.tileFailed(key, e);
        throw e;
      }
    };
  }

  /** Compare: the server's tile, its failure in the server's own words (the JSON error body). */
  private async serverTile(req: { url: string }, abort: AbortController): Promise<{ data: ImageBitmap }> {
    const key = keyOf(req.url);
    try {
      const res = await fetch(this.serverTileUrl(key, TILE.exec(req.url)![5] ?? ''), { signal: abort.signal });
      if (!res.ok) throw new Error(await serverErrorText(res));
      const blob = await res.blob();
      const bitmap = await createImageBitmap(blob).catch(() => {
        throw new Error(`the server's tile ${key} is not an image this browser decodes (${blob.type || 'no type'}, ${blob.size} bytes)`);
      });
      if (this.errors.delete(key)) this.showErrors();
      return { data: bitmap };
    } catch (e) {
      this.tileFailed(key, e);
      throw e;
    }
  }

  /** The server's URL of a tile; the server has @2x tiles, and a denser screen compares against those. */
  private serverTileUrl(key: string, q: string): string {
    return `${new URL('tiles', root).href}/${key}${this.o.pixelRatio > 1 ? '@2x' : ''}.png${q ? '?' + q : ''}`;
  }
}

/** `z/x/y` of a tile URL of ours. */
function keyOf(url: string): string {
  const m = TILE.exec(url);
  if (!m) throw new Error(`not a tilegraph tile URL: ${url}`);
  return `${m[2]}/${m[3]}/${m[4]}`;
}
