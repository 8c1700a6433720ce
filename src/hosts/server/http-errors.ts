// Every error the server answers with: a status and a JSON body {error, details: [{param|field, message}]}.
import type { TilegraphError } from '../../index.js';
import { QueueFullError, RenderTimeoutError } from './queue.js';

export interface ErrorDetail {
  param?: string;
  field?: string;
  message: string;
}

export interface ErrorBody {
  error: string;
  details: ErrorDetail[];
  /** For a failing source: its name. */
  source?: string;
}

/** An error with its HTTP answer already decided (bad address, outside the world, unknown route). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.error);
  }
}

function isTilegraphError(e: unknown): e is TilegraphError {
  return e instanceof Error && typeof (e as TilegraphError).code === 'string' && Array.isArray((e as TilegraphError).problems);
}

/** Map any error to its HTTP answer. Never a blank 200. */
export function toHttpError(e: unknown): HttpError {
  if (e instanceof HttpError) return e;
  if (e instanceof QueueFullError) {
    return new HttpError(503, { error: 'render queue is full', details: [{ field: 'queue', message: e.message }] }, { 'Retry-After': '1' });
  }
  if (e instanceof RenderTimeoutError) {
    return new HttpError(503, { error: 'render timed out', details: [{ field: 'timeout', message: e.message }] }, { 'Retry-After': '5' });
  }
  if (isTilegraphError(e)) {
    switch (e.code) {
      case 'param':
        return new HttpError(400, {
          error: 'invalid params',
          details: e.problems.map((p) => (p.param !== undefined ? { param: p.param, message: p.message } : { field: p.pointer, message: p.message })),
        });
      case 'source': {
        const source = (e as { source?: string }).source ?? /^\/sources\/([^/]+)/.exec(e.problems[0]?.pointer ?? '')?.[1];
        return new HttpError(502, {
          error: source ? `source '${source}' failed` : 'a source failed',
          source,
          details: e.problems.map((p) => ({ field: p.pointer, message: p.message })),
        });
      }
      default:
        return new HttpError(500, { error: `${e.code === 'render' ? 'render' : e.code} failed`, details: e.problems.map((p) => ({ field: p.pointer, message: p.message })) });
    }
  }
  const err = e as Error;
  return new HttpError(500, { error: 'internal error', details: [{ field: '', message: err?.message ?? String(e) }] });
}
