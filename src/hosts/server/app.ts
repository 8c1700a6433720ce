// The express app: tile, style, TileJSON, legend, health and metrics endpoints (docs/server.md).
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { ParamValues } from '../../index.js';
import { valueKey } from '../../params/index.js';
import { HttpError, toHttpError } from './http-errors.js';
import { previewRouter } from './preview.js';
import { WORLD_BOUNDS, type TileService } from './service.js';
import { fitZoom, styleCoverage, type StyleCoverage } from '../../sources/extent.js';
import { NodeLoader } from '../node/loader.js';
import { formatInt, LIMITS } from '../../limits.js';

/** What a TileJSON advertises: where and at which zooms the style's tiles hold data. */
export interface TileJsonCoverage {
  bounds: [number, number, number, number];
  center: [number, number, number];
  minzoom: number;
  maxzoom: number;
}

/**
 * TileJSON `bounds`, `center` and `minzoom` from the style's sources (issue 19): the union of their
 * extents (declared `bounds`, a PMTiles header, a GeoJSON file's extent), within the served area;
 * the world when a source cannot say, the style has none, or the server was given bounds. Once per
 * loaded style.
 */
const coverages = new WeakMap<object, Promise<TileJsonCoverage>>();
export function tilejsonCoverage(service: TileService): Promise<TileJsonCoverage> {
  const style = service.style;
  let p = coverages.get(style);
  if (!p) {
    const explicit = service.bounds !== WORLD_BOUNDS;
    const data = explicit
      ? Promise.resolve({} as StyleCoverage)
      : styleCoverage(style.renderer.doc, new NodeLoader({ baseDir: style.baseDir, allowOutside: style.allowOutside })).catch(() => ({}) as StyleCoverage);
    p = data.then((x): TileJsonCoverage => {
      const { minZoom, maxZoom } = service;
      // Below every source's minzoom the style draws without data. The deepest zoom stays the
      // server's: every source is over-zoomed past its own maxzoom (vector geometry stays sharp).
      const minzoom = Math.min(maxZoom, Math.max(minZoom, x.minzoom ?? minZoom));
      const bounds = x.bounds ?? service.bounds;
      const [w, s, e, n] = bounds;
      const clampZ = (z: number) => Math.max(minzoom, Math.min(maxZoom, z));
      // A centre the data names (one archive's header), else the middle of the data's bounds at the
      // zoom that fits them; data all round the world, or explicit bounds: their centre at minzoom.
      let center: [number, number, number] = [(w + e) / 2, (s + n) / 2, minzoom];
      if (x.bounds && e - w < 300)
        center = x.center && x.zoom ? [x.center[0], x.center[1], clampZ(x.zoom)] : [center[0], center[1], clampZ(fitZoom(bounds, minzoom, maxZoom))];
      return { bounds, center, minzoom, maxzoom: maxZoom };
    });
    coverages.set(style, p);
  }
  return p;
}

export interface AppOptions {
  /** Base URL written into the TileJSON (default: from the request's protocol and Host). */
  publicUrl?: string;
  /** Cache-Control max-age (s) of tiles requested without the current `v` (default 60; 0 means no-cache). */
  shortMaxAge?: number;
}

/** Query keys the server reserves: `v` carries the style version and is never a param. */
export const RESERVED_QUERY_KEYS = ['v'] as const;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const INT = /^-?\d+$/;

type Query = Record<string, string | string[] | undefined>;

function send(res: Response, e: HttpError): void {
  for (const [k, v] of Object.entries(e.headers)) res.setHeader(k, v);
  res.setHeader('Cache-Control', 'no-store');
  res.status(e.status).json(e.body);
}

/** If-None-Match against an ETag: a list of tags, weak or strong, or `*`. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** Parse /tiles/{z}/{x}/{y}[@2x].png: 400 for a malformed address, 404 outside the zoom range or the world. */
function parseTileAddress(
  service: TileService,
  zs: string,
  xs: string,
  file: string,
): { z: number; x: number; y: number; scale: number; format: 'png' | 'webp' } {
  const m = /^(.*?)(@2x)?\.(png|webp)$/.exec(file);
  const details: { field: string; message: string }[] = [];
  if (!m) details.push({ field: 'format', message: `'${file}' is not {y}.png, {y}@2x.png, {y}.webp or {y}@2x.webp` });
  const ys = m?.[1] ?? '';
  if (!INT.test(zs)) details.push({ field: 'z', message: `'${zs}' is not an integer` });
  if (!INT.test(xs)) details.push({ field: 'x', message: `'${xs}' is not an integer` });
  if (m && !INT.test(ys)) details.push({ field: 'y', message: `'${ys}' is not an integer` });
  if (details.length) throw new HttpError(400, { error: 'invalid tile address', details });
  const z = Number(zs);
  const x = Number(xs);
  const y = Number(ys);
  if (z < service.minZoom || z > service.maxZoom) {
    throw new HttpError(404, {
      error: 'tile outside the zoom range',
      details: [{ field: 'z', message: `zoom ${z} is outside ${service.minZoom}..${service.maxZoom}` }],
    });
  }
  const n = 2 ** z;
  const out: { field: string; message: string }[] = [];
  if (x < 0 || x >= n) out.push({ field: 'x', message: `x ${x} is outside 0..${n - 1} at zoom ${z}` });
  if (y < 0 || y >= n) out.push({ field: 'y', message: `y ${y} is outside 0..${n - 1} at zoom ${z}` });
  if (out.length) throw new HttpError(404, { error: 'tile outside the world', details: out });
  return { z, x, y, scale: m![2] ? 2 : 1, format: m![3] === 'webp' ? 'webp' : 'png' };
}

/** The params of a request: the query string minus reserved keys, validated (ParamError -> 400). */
function requestParams(service: TileService, query: Query): ParamValues {
  return service.style.renderer.params(query, RESERVED_QUERY_KEYS);
}

/** An error with its causes, for the log. */
function fullText(e: unknown): string {
  const parts: string[] = [];
  for (let c = e, i = 0; c && i < 5; c = (c as { cause?: unknown }).cause, i++) parts.push(c instanceof Error ? c.message : String(c));
  return parts.join(' <- ').replace(/\s*\n\s*/g, '; ');
}

export function createApp(service: TileService, options: AppOptions = {}): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // ETags are ours: tiles from the params they read, documents from the version
  const shortCache = options.shortMaxAge === 0 ? 'no-cache' : `public, max-age=${options.shortMaxAge ?? 60}`;

  app.use(requestGate(service));

  app.get('/tiles/:z/:x/:file', tileRoute(service, shortCache));

  /** JSON documents that change only with the style version. */
  const versioned = (type: string, body: (req: Request) => unknown | Promise<unknown>) => async (req: Request, res: Response) => {
    const data = await body(req);
    const etag = `"${service.version}"`;
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'no-cache');
    if (etagMatches(req.get('If-None-Match'), etag)) {
      res.status(304).end();
      return;
    }
    res.type(type).send(JSON.stringify(data));
  };

  app.get(
    '/style',
    versioned('application/json', () => service.style.renderer.doc),
  );
  app.get(
    '/style/params',
    versioned('application/schema+json', () => service.style.renderer.paramsSchema),
  );
  // What the graph of a MapLibre GL style does not honour (null: the style is ours).
  app.get(
    '/style/notes',
    versioned('application/json', () => ({ maplibre: service.style.renderer.maplibreNotes ?? null })),
  );
  app.get(
    '/style/legend',
    versioned('application/json', () => service.style.renderer.legend ?? { entries: [] }),
  );

  app.get('/tilejson.json', tilejsonRoute(service, options));

  app.get('/health', (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    res.status(service.draining ? 503 : 200).json({
      status: service.draining ? 'shutting-down' : 'ok',
      version: service.version,
      style: service.style.renderer.doc.name ?? null,
      uptimeSeconds: Math.round((Date.now() - service.startedAt) / 1000),
      queue: { waiting: service.queue.waiting, running: service.queue.running },
      cache: { entries: service.cache.size, bytes: service.cache.bytes },
    });
  });

  app.get('/metrics', async (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    res.type('text/plain; version=0.0.4; charset=utf-8').send(service.metrics.text(await service.memory()));
  });

  app.get('/events', eventsRoute(service));

  app.use(previewRouter(service)); // GET /, /preview/*, /data/:ref (preview.ts)

  app.use((req: Request, res: Response) => {
    send(res, new HttpError(404, { error: 'not found', details: [{ field: 'path', message: `no route for ${req.method} ${req.path}` }] }));
  });

  app.use(errorRoute(service));

  return app;
}

/** Every request: metrics, CORS, a Connection: close while draining, the query-size limit, preflights. */
function requestGate(service: TileService) {
  return (req: Request, res: Response, next: NextFunction) => {
    res.on('finish', () => service.metrics.request((req.route?.path as string | undefined) ?? 'unmatched', res.statusCode));
    if (service.draining) res.setHeader('Connection', 'close');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', 'ETag, Cache-Control, X-Tilegraph-Cache, X-Tilegraph-Version');
    // Params are short: a query string past LIMITS.maxQueryBytes is refused before it is parsed.
    const q = req.originalUrl.indexOf('?');
    const queryBytes = q < 0 ? 0 : Buffer.byteLength(req.originalUrl) - q - 1;
    if (queryBytes > LIMITS.maxQueryBytes) {
      send(
        res,
        new HttpError(414, {
          error: 'query string too long',
          details: [{ field: 'query', message: `the query string is ${formatInt(queryBytes)} bytes; the limit is ${formatInt(LIMITS.maxQueryBytes)}` }],
        }),
      );
      return;
    }
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', req.get('Access-Control-Request-Headers') ?? 'If-None-Match');
      res.setHeader('Access-Control-Max-Age', '86400');
      res.status(204).end();
      return;
    }
    next();
  };
}

/** GET /tiles/:z/:x/:y.png|webp (and @2x): a tile, or 304 for the ETag of the params it reads. */
function tileRoute(service: TileService, shortCache: string) {
  return async (req: Request, res: Response) => {
    const p = req.params as Record<string, string>;
    const t = parseTileAddress(service, p.z!, p.x!, p.file!);
    const query = req.query as Query;
    const params = requestParams(service, query);
    const known = service.knownKey(t, t.scale, params, t.format);
    const etag = known.etag;
    const v = query.v;
    res.setHeader('Cache-Control', v !== undefined && v === service.version ? IMMUTABLE : shortCache);
    res.setHeader('ETag', etag);
    res.setHeader('X-Tilegraph-Version', service.version);
    if (etagMatches(req.get('If-None-Match'), etag)) {
      res.status(304).end();
      return;
    }
    const r = t.format === 'webp' ? await service.tileWebp(t, t.scale, params, known) : await service.tile(t, t.scale, params, known);
    res.setHeader('ETag', r.etag);
    res.setHeader('X-Tilegraph-Cache', r.cache);
    res.type(t.format === 'webp' ? 'image/webp' : 'image/png').send(Buffer.from(r.png.buffer, r.png.byteOffset, r.png.byteLength));
  };
}

/** The tile route's path as express names it (the route label of the request metrics). */
const TILE_ROUTE = '/tiles/:z/:x/:file';
/**
 * A tile address in the one form the fast path answers: digits only, nothing express would decode
 * or parseurl would hand to url.parse (space, tab, line breaks, '#', NBSP, BOM anywhere).
 */
const FAST_TILE = /^\/tiles\/(\d{1,2})\/(\d{1,9})\/(\d{1,9})(@2x)?\.(png|webp)(?:\?([^\t\n\f\r #\u00a0\ufeff]*))?$/;
const NO_CACHE = /(?:^|,)\s*?no-cache\s*?(?:,|$)/;

/**
 * The HTTP handler of a single-style server: GET and HEAD of a well-formed tile address inside the
 * zoom range and the world are answered here, beside express (its router, query getter and
 * `res.send` cost the main thread ~0.15 ms a tile, issue 25); everything else, and any request this
 * path would answer with an error before rendering, goes to `app`. The answers are the tile
 * route's: the same status, headers in the same order, the same error JSON (tests/server).
 * `prefix`: where the style's app is mounted (a gallery's `/styles/{id}`); `app` is then the
 * gallery's root app, which serves everything else.
 */
export function tileFastPath(service: TileService, app: RequestListener, options: AppOptions = {}, prefix = ''): RequestListener {
  const shortCache = options.shortMaxAge === 0 ? 'no-cache' : `public, max-age=${options.shortMaxAge ?? 60}`;
  const start = `${prefix}/tiles/`;
  return (req, res) => {
    const url = req.url ?? '';
    const m = (req.method === 'GET' || req.method === 'HEAD') && !service.draining && url.startsWith(start) ? FAST_TILE.exec(url.slice(prefix.length)) : null;
    if (!m) return void app(req, res);
    const query = m[6];
    if (query !== undefined && Buffer.byteLength(query) > LIMITS.maxQueryBytes) return void app(req, res);
    const z = Number(m[1]);
    const x = Number(m[2]);
    const y = Number(m[3]);
    const n = 2 ** z;
    if (z < service.minZoom || z > service.maxZoom || x >= n || y >= n) return void app(req, res);
    // As express's query getter parses it (query parser 'simple': node:querystring).
    const parsed = (query ? parseQueryString(query) : {}) as Query;
    let params: ParamValues;
    try {
      params = requestParams(service, parsed);
    } catch {
      return void app(req, res); // express answers the same error (400)
    }
    void answerTile(service, req, res, { z, x, y, scale: m[4] ? 2 : 1, format: m[5] === 'webp' ? 'webp' : 'png' }, params, parsed.v, shortCache);
  };
}

/**
 * A gallery's handler: `/styles/{id}/tiles/...` of each style through its tile fast path, all
 * else (and what a fast path leaves) through the gallery's express app `root`.
 */
export function galleryFastPath(services: ReadonlyMap<string, TileService>, root: RequestListener, shortMaxAge?: number): RequestListener {
  const fast = new Map([...services].map(([id, s]) => [id, tileFastPath(s, root, { shortMaxAge }, `/styles/${id}`)]));
  return (req, res) => {
    const url = req.url ?? '';
    const slash = url.startsWith('/styles/') ? url.indexOf('/', 8) : -1;
    const f = slash > 8 && url.startsWith('/tiles/', slash) ? fast.get(url.slice(8, slash)) : undefined;
    if (f) f(req, res);
    else root(req, res);
  };
}

/** The tile route (tileRoute) on a plain response, with requestGate's headers and errorRoute's answers. */
async function answerTile(
  service: TileService,
  req: IncomingMessage,
  res: ServerResponse,
  t: { z: number; x: number; y: number; scale: number; format: 'png' | 'webp' },
  params: ParamValues,
  v: string | string[] | undefined,
  shortCache: string,
): Promise<void> {
  res.on('finish', () => service.metrics.request(TILE_ROUTE, res.statusCode));
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', 'ETag, Cache-Control, X-Tilegraph-Cache, X-Tilegraph-Version');
  const head = req.method === 'HEAD';
  try {
    const known = service.knownKey(t, t.scale, params, t.format);
    const etag = known.etag;
    res.setHeader('Cache-Control', v !== undefined && v === service.version ? IMMUTABLE : shortCache);
    res.setHeader('ETag', etag);
    res.setHeader('X-Tilegraph-Version', service.version);
    const inm = req.headers['if-none-match'];
    if (etagMatches(inm, etag)) {
      res.statusCode = 304;
      res.end();
      return;
    }
    const r = t.format === 'webp' ? await service.tileWebp(t, t.scale, params, known) : await service.tile(t, t.scale, params, known);
    res.setHeader('ETag', r.etag);
    res.setHeader('X-Tilegraph-Cache', r.cache);
    res.setHeader('Content-Type', t.format === 'webp' ? 'image/webp' : 'image/png');
    res.setHeader('Content-Length', String(r.png.byteLength));
    // express's res.send: a request fresh against the final ETag (a reload changed it) gets 304.
    const cc = req.headers['cache-control'];
    if (r.etag !== etag && inm && !(cc && NO_CACHE.test(cc)) && etagMatches(inm, r.etag)) {
      res.statusCode = 304;
      res.removeHeader('Content-Type');
      res.removeHeader('Content-Length');
      res.end();
      return;
    }
    if (head) res.end();
    else res.end(Buffer.from(r.png.buffer, r.png.byteOffset, r.png.byteLength));
  } catch (err) {
    if (res.headersSent) {
      res.destroy(err as Error);
      return;
    }
    const e = toHttpError(err, [service.style.baseDir, process.cwd()]);
    if (e.status >= 500 && e.status !== 503) service.log(`tilegraph: ${req.method} ${req.url} -> ${e.status}: ${fullText(err)}`);
    res.removeHeader('ETag');
    res.removeHeader('X-Tilegraph-Cache');
    for (const [k, v] of Object.entries(e.headers)) res.setHeader(k, v);
    res.setHeader('Cache-Control', 'no-store');
    const body = JSON.stringify(e.body);
    res.statusCode = e.status;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', String(Buffer.byteLength(body)));
    if (head) res.end();
    else res.end(body, 'utf8');
  }
}

/** GET /tilejson.json: TileJSON 3.0.0 whose tiles URL carries the request's params and the style version. */
function tilejsonRoute(service: TileService, options: AppOptions) {
  return async (req: Request, res: Response) => {
    const query = req.query as Query;
    const params = requestParams(service, query);
    // baseUrl: the mount point when this app serves one style of several (/styles/{id}).
    const base = (options.publicUrl ?? `${req.protocol}://${req.get('host')}${req.baseUrl}`).replace(/\/$/, '');
    const search = new URLSearchParams({ v: service.version });
    // Params given to the TileJSON carry into its tiles URL, in canonical form.
    for (const name of Object.keys(query)) if (!RESERVED_QUERY_KEYS.includes(name as 'v')) search.set(name, valueKey(params.get(name)!));
    const r = service.style.renderer;
    const cover = await tilejsonCoverage(service);
    const tilejson: Record<string, unknown> = {
      tilejson: '3.0.0',
      name: r.doc.name ?? 'tilegraph',
      scheme: 'xyz',
      tiles: [`${base}/tiles/{z}/{x}/{y}.png?${search.toString().replace(/%7B/g, '{').replace(/%7D/g, '}')}`],
      minzoom: cover.minzoom,
      maxzoom: cover.maxzoom,
      bounds: cover.bounds,
      center: cover.center,
      attribution: (await r.attribution()).join(' | '),
    };
    if (r.doc.version) tilejson.version = r.doc.version;
    if (r.doc.description) tilejson.description = r.doc.description;
    res.setHeader('Cache-Control', 'no-cache');
    res.json(tilejson);
  };
}

/** GET /events. Live reload (serve --watch): server-sent events; `reload` after each reload attempt of a changed file. */
function eventsRoute(service: TileService) {
  return (_req: Request, res: Response) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
    res.write(`event: hello\ndata: ${JSON.stringify({ version: service.version })}\n\n`);
    const push = (r: { ok: boolean; version: string; error?: string }) => res.write(`event: reload\ndata: ${JSON.stringify(r)}\n\n`);
    service.reloadListeners.add(push);
    let ticks = 0;
    // A comment line every 15 s keeps proxies from closing the stream; a draining server ends it.
    const timer = setInterval(() => {
      if (service.draining) res.end();
      else if (++ticks % 30 === 0) res.write(': ping\n\n');
    }, 500);
    res.on('close', () => {
      clearInterval(timer);
      service.reloadListeners.delete(push);
    });
  };
}

/** Errors as JSON with their status; a server error's full text to the log. */
function errorRoute(service: TileService) {
  return (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    const e = toHttpError(err, [service.style.baseDir, process.cwd()]);
    // The full error (absolute paths, causes) goes to the server log; the client gets the scrubbed one.
    if (e.status >= 500 && e.status !== 503) service.log(`tilegraph: ${req.method} ${req.originalUrl} -> ${e.status}: ${fullText(err)}`);
    res.removeHeader('ETag');
    res.removeHeader('X-Tilegraph-Cache');
    send(res, e);
  };
}
