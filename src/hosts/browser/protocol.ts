// Messages between the browser binding (page) and its render worker, and errors across that boundary.
import { BuildError, ParamError, RenderError, SourceError, StyleError, TilegraphError, type ErrorCode, type Problem } from '../../errors.js';
import type { StyleDoc } from '../../style/types.js';
import type { TileAddress } from '../../types.js';

export type BackendChoice = 'auto' | 'gpu' | 'cpu';

export interface EngineOptions {
  style: StyleDoc;
  /** Absolute URL relative refs resolve against. */
  baseUrl: string;
  dataUrl?: string;
  backend: BackendChoice;
}

export interface RenderRequest {
  tile: TileAddress;
  tileSize: number;
  /** Every declared param as a canonical string (already validated on the page). */
  params: Record<string, string>;
}

export type ToWorker =
  | ({ type: 'init' } & EngineOptions)
  | ({ type: 'render'; id: number } & RenderRequest)
  | { type: 'cancel'; id: number };

export type FromWorker =
  | { type: 'ready'; backend: 'cpu' | 'gpu'; adapter?: string }
  | { type: 'init-error'; error: WireError }
  | { type: 'done'; id: number; width: number; height: number; data: Uint8ClampedArray }
  | { type: 'error'; id: number; error: WireError };

/** An Error flattened for postMessage (structured clone drops subclass identity and fields). */
export interface WireError {
  name: string;
  message: string;
  code?: ErrorCode;
  problems?: Problem[];
  source?: string;
  tile?: string;
}

export function toWire(e: unknown): WireError {
  if (e instanceof TilegraphError) {
    const w: WireError = { name: e.name, message: e.message, code: e.code, problems: e.problems };
    if (e instanceof SourceError) Object.assign(w, { source: e.source, tile: e.tile });
    return w;
  }
  if (e instanceof Error || (e && typeof e === 'object' && 'message' in e)) {
    const err = e as Error;
    return { name: err.name || 'Error', message: String(err.message) };
  }
  return { name: 'Error', message: String(e) };
}

/** The same error class on this side, so `instanceof ParamError` and `.problems` work for callers. */
export function fromWire(w: WireError): Error {
  if (w.name === 'AbortError') return new DOMException(w.message, 'AbortError');
  const problems = w.problems ?? [{ pointer: '', message: w.message }];
  switch (w.code) {
    case 'style-invalid':
      return new StyleError(problems);
    case 'build':
      return new BuildError(problems);
    case 'param':
      return new ParamError(problems);
    case 'render':
      return new RenderError(problems);
    case 'source': {
      const e = new TilegraphError('source', problems);
      Object.setPrototypeOf(e, SourceError.prototype);
      return Object.assign(e, { name: 'SourceError', source: w.source ?? '', tile: w.tile });
    }
  }
  const e = new Error(w.message);
  e.name = w.name;
  return e;
}
