// Every error the server answers with: a status and a JSON body {error, details: [{param|field, message}]}.
import type { TilegraphError } from '../../index.js';
import { formatInt, LIMITS } from '../../limits.js';
import { QueueFullError, RenderTimeoutError, ShuttingDownError } from './queue.js';

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

/** JSON pointers into a style start with these: never mistaken for a file path. */
const POINTER_ROOTS = /^\/(nodes|sources|params|functions|legend|output)(\/|$)/;

/**
 * Error text for a client: absolute paths under `dirs` become relative to them, any other quoted
 * absolute path becomes its file name. The full text goes to the server log only.
 */
export function scrubPaths(text: string, dirs: readonly string[]): string {
  let out = text;
  for (const d of dirs) if (d && d !== '/') out = out.split(d.endsWith('/') ? d : d + '/').join('');
  return out.replace(/(['"`(])(\/[^'"`()\s]+)/g, (m, q: string, p: string) => (POINTER_ROOTS.test(p) ? m : q + (p.split('/').pop() || p)));
}

function scrubbed(e: HttpError, dirs: readonly string[]): HttpError {
  // A request naming 1,000 unknown params got 1,000 details (11x the request): the first few and a count.
  const max = LIMITS.maxErrorDetails;
  const listed = e.body.details.slice(0, max).map((d) => ({ ...d, message: scrubPaths(d.message, dirs) }));
  const more = e.body.details.length - listed.length;
  const body: ErrorBody = {
    ...e.body,
    error: scrubPaths(e.body.error, dirs),
    details: more > 0 ? [...listed, { field: 'details', message: `and ${formatInt(more)} more problems, not listed` }] : listed,
  };
  return new HttpError(e.status, body, e.headers);
}

/** Map any error to its HTTP answer, with no absolute path of this machine in it. Never a blank 200. */
export function toHttpError(e: unknown, dirs: readonly string[] = []): HttpError {
  return scrubbed(classify(e), dirs);
}

function classify(e: unknown): HttpError {
  if (e instanceof HttpError) return e;
  if (e instanceof QueueFullError) {
    return new HttpError(503, { error: 'render queue is full', details: [{ field: 'queue', message: e.message }] }, { 'Retry-After': '1' });
  }
  if (e instanceof ShuttingDownError) {
    return new HttpError(503, { error: 'server shutting down', details: [{ field: 'shutdown', message: e.message }] }, { 'Retry-After': '1' });
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
        return new HttpError(500, {
          error: `${e.code === 'render' ? 'render' : e.code} failed`,
          details: e.problems.map((p) => ({ field: p.pointer, message: p.message })),
        });
    }
  }
  const err = e as Error & { status?: unknown; statusCode?: unknown };
  // express and its router mark client mistakes (a path with bad percent-encoding...) with a 4xx status.
  const status = typeof err?.status === 'number' ? err.status : typeof err?.statusCode === 'number' ? err.statusCode : 0;
  if (status >= 400 && status < 500) {
    const message = err instanceof URIError ? `the path is not valid percent-encoding: ${err.message}` : (err?.message ?? String(e));
    return new HttpError(status, { error: status === 400 ? 'bad request' : 'request refused', details: [{ field: 'path', message }] });
  }
  return new HttpError(500, { error: 'internal error', details: [{ field: '', message: err?.message ?? String(e) }] });
}
