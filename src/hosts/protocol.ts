// The one protocol between a host's render pool and its workers, shared by the Node pool (worker
// threads: src/hosts/node/render-pool.ts) and the browser pool (Web Workers:
// src/hosts/browser/pool.ts). Same message names, same cancel, same error revival; params cross
// as validated values (ParamValues.toValues / fromValues), never as strings parsed twice.
// No Node imports: the browser bundle includes it.
import { BuildError, ParamError, RenderError, SourceError, StyleError, TilegraphError, type ErrorCode, type Problem } from '../errors.js';
import { LimitError } from '../graph/limits.js';
import type { ScalarValue } from '../types.js';

/** Which backend a host renders on: a hardware GPU when there is one, the GPU or fail, the CPU. */
export type BackendChoice = 'auto' | 'gpu' | 'cpu';
export const BACKEND_CHOICES: readonly BackendChoice[] = ['auto', 'gpu', 'cpu'];

/** Param values as they cross the boundary: already validated, checked again, never re-parsed. */
export type WireParams = Record<string, ScalarValue>;

/**
 * Pool -> worker. `init` gives a style under a key (its version; a Node worker keeps the 16 it
 * rendered last: a gallery's styles, and previous versions for renders still queued after a
 * reload); `render` names the key; `cancel` aborts a render.
 */
export type ToWorker<Init, Job> =
  | { type: 'init'; key: string; init: Init }
  | { type: 'render'; id: number; key: string; job: Job }
  | { type: 'cancel'; id: number };

/** Worker -> pool: `ready` / `init-error` answer an `init`; `done` / `error` answer a `render` (a cancelled one too). */
export type FromWorker<Ready, Result> =
  | { type: 'ready'; key: string; info: Ready }
  | { type: 'init-error'; key: string; error: WireError }
  | { type: 'done'; id: number; result: Result }
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

/** The same error class on this side, so `instanceof ParamError` (and SourceError, LimitError...) and `.problems` work for callers. */
export function fromWire(w: WireError): Error {
  if (w.name === 'AbortError' || w.name === 'TimeoutError') return new DOMException(w.message, w.name);
  const problems = w.problems ?? [{ pointer: '', message: w.message }];
  switch (w.code) {
    case 'style-invalid':
      return new StyleError(problems);
    case 'build':
      return new BuildError(problems);
    case 'param':
      return new ParamError(problems);
    case 'render':
      return w.name === 'LimitError' ? new LimitError(problems) : new RenderError(problems);
    case 'source': {
      // The message is already whole: rebuild the object around it rather than re-prefixing it.
      const e = new TilegraphError('source', problems);
      Object.setPrototypeOf(e, SourceError.prototype);
      return Object.assign(e, { name: 'SourceError', source: w.source ?? '', tile: w.tile });
    }
  }
  const e = new Error(w.message);
  e.name = w.name;
  return e;
}
