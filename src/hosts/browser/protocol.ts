// The browser pool's side of the hosts' one worker protocol (src/hosts/protocol.ts): what `init`
// carries (the style and where its data lives) and what `render` asks (a tile, validated values).
import type { StyleDoc } from '../../style/types.js';
import type { TileAddress } from '../../types.js';
import type { BackendChoice, FromWorker as SharedFromWorker, ToWorker as SharedToWorker, WireParams } from '../protocol.js';

export { fromWire, toWire, type BackendChoice, type WireError } from '../protocol.js';

export interface EngineOptions {
  style: StyleDoc;
  /** Absolute URL relative refs resolve against. */
  baseUrl: string;
  dataUrl?: string;
  backend: BackendChoice;
  /** Keep node results across renders (default true): a param change re-runs only the nodes that read it. */
  nodeCache?: boolean;
}

export interface RenderRequest {
  tile: TileAddress;
  tileSize: number;
  /** Pixel density 1..4 (default 1): the tile in tileSize x ratio pixels, sizes in pixels scaled (@2x). */
  pixelRatio?: number;
  /** Every declared param's value, validated on the page (ParamValues.toValues). */
  params: WireParams;
  /**
   * The caller wants an ImageBitmap: a GPU worker makes it and answers with it (transferred, no
   * copy on the page); a CPU worker answers with the pixels (transferred), from which the page
   * makes it while the worker renders its next tile (issue 25).
   */
  bitmap?: boolean;
}

/** What a browser worker answers to `init`: the backend it got. */
export interface EngineReady {
  backend: 'cpu' | 'gpu';
  adapter?: string;
}

export interface RenderedPixels {
  width: number;
  height: number;
  /** Straight-alpha 8-bit RGBA, what ImageData holds (empty when `bitmap` is given). */
  data: Uint8ClampedArray;
  /** The tile as an ImageBitmap, when the request asked for one and the worker renders on a GPU. */
  bitmap?: ImageBitmap;
  /** When the worker started and finished the render (ms since the epoch, performance.timeOrigin + now()): the page's trace. */
  timing?: { start: number; end: number };
}

/**
 * The shared messages, plus `drop`: forget a render that has not started (a superseded value);
 * one already running completes. `cancel` also aborts a running one. `spare`: the pixels of a
 * finished render given back (transferred) once the page made its bitmap, for a later render's
 * pixels (TileEngine.giveBack).
 */
export type ToWorker = SharedToWorker<EngineOptions, RenderRequest> | { type: 'drop'; id: number } | { type: 'spare'; buffer: ArrayBuffer };
export type FromWorker = SharedFromWorker<EngineReady, RenderedPixels>;
