// `tilegraph serve`: start the HTTP server on a style, optionally watching the file; graceful shutdown.
import { statSync, watch, type FSWatcher } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import path from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import { makePngRenderer, WorkerPool, type PngRenderer } from '../node/render-pool.js';
import { gpuAdapterSummary } from '../node/gpu.js';
import { selectBackend, type BackendChoice } from '../node/select-backend.js';
import { defaultFetchTimeoutMs } from '../node/loader.js';
import { deflateInfo } from '../node/deflate.js';
import { kernelsInfo } from '../node/kernels.js';
import { loadStyleFile } from '../node/style-file.js';
import { createApp, tileFastPath } from './app.js';
import { resolveStyleFiles, serveMany } from './gallery.js';
import { ShuttingDownError } from './queue.js';
import { TileService, type TileServiceOptions } from './service.js';

/**
 * One line at start-up where PNG tiles deflate with node:zlib, not libdeflate (the addon is not
 * built or did not load: src/hosts/node/deflate.ts), and one where the kernels addon is not built
 * or did not load (src/hosts/node/kernels.ts; a CPU without AVX-512 is no fault: nothing said);
 * GET /metrics names both either way.
 */
export function logDeflateFallback(log: (line: string) => void): void {
  const d = deflateInfo();
  if (d.name === 'node:zlib') log(`tilegraph: PNG tiles deflate with node:zlib (about twice the CPU of libdeflate): ${d.reason}`);
  const k = kernelsInfo();
  if (/addon/.test(k.reason ?? '')) log(`tilegraph: noise runs in WebAssembly, not the AVX-512 kernels: ${k.reason}`);
}

/** Starts listening; rejects with the listen error (port in use, ...). */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * What a client may hold of the server (docs/server.md "Limits"): Node's own defaults held a client
 * trickling one header byte a second for ~90 s (60 s, checked every 30 s), with no cap on sockets.
 */
export const HTTP_DEFAULTS = {
  /** From a request's first byte to the end of its headers; then 408 and the socket closes. */
  headersTimeoutMs: 10_000,
  /** From a request's first byte to the end of its body (GETs have none); then 408. */
  requestTimeoutMs: 20_000,
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: 5_000,
  /** Open sockets at once; one more is closed as soon as it connects. */
  maxConnections: 1024,
} as const;

export interface HttpLimits {
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  maxConnections?: number;
}

/** Checks the limits (a RangeError naming the option) and fills in the defaults. */
export function httpLimits(o: HttpLimits): Required<HttpLimits> {
  const l = {
    headersTimeoutMs: o.headersTimeoutMs ?? HTTP_DEFAULTS.headersTimeoutMs,
    requestTimeoutMs: o.requestTimeoutMs ?? HTTP_DEFAULTS.requestTimeoutMs,
    keepAliveTimeoutMs: o.keepAliveTimeoutMs ?? HTTP_DEFAULTS.keepAliveTimeoutMs,
    maxConnections: o.maxConnections ?? HTTP_DEFAULTS.maxConnections,
  };
  for (const [k, v] of Object.entries(l)) {
    if (!(Number.isFinite(v) && v > 0 && v <= 2 ** 31 - 1)) throw new RangeError(`${k} must be a positive number, not ${v}`);
  }
  if (!Number.isInteger(l.maxConnections)) throw new RangeError(`maxConnections must be an integer, not ${l.maxConnections}`);
  if (l.requestTimeoutMs < l.headersTimeoutMs)
    throw new RangeError(`requestTimeoutMs (${l.requestTimeoutMs}) must not be below headersTimeoutMs (${l.headersTimeoutMs})`);
  return l;
}

/** What a connection past `maxConnections` reads before it is closed: a 503 in the server's JSON error form. */
function busyAnswer(max: number): string {
  const body = JSON.stringify({
    error: 'too many connections',
    details: [{ field: 'connections', message: `${max} connections are open (the limit is ${max})` }],
  });
  return (
    'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\nCache-Control: no-store\r\n' +
    `Access-Control-Allow-Origin: *\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/** The HTTP server of `serve` and the gallery, with our timeouts and connection cap. */
export function createHttpServer(handler: RequestListener, o: HttpLimits): Server {
  const l = httpLimits(o);
  const server = createServer(
    {
      headersTimeout: l.headersTimeoutMs,
      requestTimeout: l.requestTimeoutMs,
      keepAliveTimeout: l.keepAliveTimeoutMs,
      // Node checks the two timeouts every 30 s by default, so a 10 s limit held a socket up to 40 s.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(l.headersTimeoutMs / 4))),
    },
    handler,
  );
  // Our own count rather than server.maxConnections, which closes a socket without a word (and
  // fetch() then retries it until its own timeout): a connection past the cap gets a 503 and is closed
  // before the HTTP parser sees it. Twice the cap is a hard backstop while those close.
  const handle = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  let open = 0;
  server.on('connection', (socket: Socket) => {
    if (open >= l.maxConnections) {
      socket.on('error', () => undefined);
      socket.resume(); // read and drop the request: unread bytes at close would reset the connection before the answer
      setTimeout(() => socket.destroy(), 1000).unref(); // however the client behaves
      socket.end(busyAnswer(l.maxConnections));
      return;
    }
    open++;
    socket.once('close', () => open--);
    for (const h of handle) h.call(server, socket);
  });
  server.maxConnections = 2 * l.maxConnections;
  return server;
}

/** The host as written in a URL a person can open (a wildcard address as localhost, IPv6 in brackets). */
export const shownHost = (host: string): string => (host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host);

export interface ServeOptions extends Omit<TileServiceOptions, 'style' | 'renderer'>, HttpLimits {
  /** A style file; several files or a directory of styles serve a gallery (src/hosts/server/gallery.ts). */
  style: string | string[];
  port?: number;
  /** Interface to listen on (default 127.0.0.1; 0.0.0.0 in a container). */
  host?: string;
  watch?: boolean;
  /** Render worker threads (default: one per core); 0 renders on the main thread. */
  workers?: number;
  backend?: BackendChoice;
  allowOutside?: boolean;
  /** Milliseconds each network read of a source may take (default: half of `timeoutMs`, at most 10 s), then 502 naming it. */
  fetchTimeoutMs?: number;
  /** Bytes of decoded source tiles and sampled geometry kept per render thread, for every style it renders together (default 128 MiB). */
  sourceCacheBytes?: number;
  publicUrl?: string;
  /** Cache-Control max-age for tiles requested without the current `v` (default 60, 0 with --watch). */
  shortMaxAge?: number;
  workerUrl?: URL | string;
  /** Young generation of each render worker in MiB (default render-pool.ts WORKER_YOUNG_MB, 64). */
  workerYoungMb?: number;
  /** V8's heap growth after a full collection, in percent (default render-pool.ts WORKER_HEAP_GROWTH, 200; 0: V8's own rule). */
  workerHeapGrowth?: number;
  /** Render with this instead of making one from `workers` / `backend` (embedding, tests). */
  renderer?: PngRenderer;
}

export interface RunningServer {
  url: string;
  server: Server;
  service: TileService;
  /** Stop accepting, let requests in flight finish (up to graceMs), then release workers and watchers. */
  close(graceMs?: number): Promise<void>;
}

/** Bytes of the source cache of each render thread (`--source-cache-mb` 128), shared by every style it renders. */
export const DEFAULT_SOURCE_CACHE_BYTES = 128 * 1024 * 1024;

/** After the grace period, how long the 503s of renders still queued get to reach their clients. */
const FLUSH_MS = 1000;

/**
 * Graceful shutdown of an HTTP server and its services: stop accepting, let requests in flight
 * finish for up to `graceMs`, then answer the renders still waiting or running 503 with
 * Retry-After (ShuttingDownError) and close the connections once those answers are out (or after
 * FLUSH_MS). The services' renderers are closed by the caller afterwards.
 */
export async function drain(server: Server, services: readonly TileService[], graceMs: number): Promise<void> {
  for (const s of services) s.draining = true;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections become idle as their last response ends: close them as they do.
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  server.closeIdleConnections();
  let flush: NodeJS.Timeout | undefined;
  const grace = setTimeout(() => {
    const why = new ShuttingDownError(`the server is stopping; the render did not finish within the ${graceMs / 1000} s grace period`);
    const n = services.reduce((sum, s) => sum + s.queue.close(why), 0);
    if (n) services[0]!.log(`tilegraph: stopping: ${n} render${n === 1 ? '' : 's'} not done after the ${graceMs / 1000} s grace period answered 503`);
    flush = setTimeout(() => server.closeAllConnections(), FLUSH_MS);
  }, graceMs);
  await closed;
  clearInterval(sweep);
  clearTimeout(grace);
  clearTimeout(flush);
}

/**
 * The server's renderer: worker threads on the chosen backend (`workers`, default one per core;
 * the GPU: a device per worker, at most 16 by default), or this thread with `workers: 0`.
 */
export async function makeRenderer(o: Omit<ServeOptions, 'style'>): Promise<{ renderer: PngRenderer; release(): Promise<void> }> {
  const choice = o.backend ?? 'auto';
  const sel = await selectBackend(choice);
  const { renderer, close } = await makePngRenderer({
    backend: sel.backend,
    fallback: sel.backend.name === 'gpu' && !!gpuAdapterSummary()?.fallback,
    workers: o.workers,
    inProcess: o.workers === 0,
    workerUrl: o.workerUrl,
    youngMb: o.workerYoungMb,
    heapGrowthPercent: o.workerHeapGrowth,
    release: () => sel.close(),
  });
  // The service closes the renderer (a pool); an in-process renderer's backend is released here.
  return { renderer, release: renderer instanceof WorkerPool ? async () => undefined : close };
}

export async function serve(o: ServeOptions): Promise<RunningServer> {
  if (Array.isArray(o.style) || statSync(o.style, { throwIfNoEntry: false })?.isDirectory()) {
    const files = resolveStyleFiles(Array.isArray(o.style) ? o.style : [o.style]);
    if (Array.isArray(o.style) && files.length === 1) return serve({ ...o, style: files[0]! });
    return serveMany({ ...o, styles: files });
  }
  httpLimits(o); // a bad limit fails before any worker starts
  const style = await loadStyleFile(o.style, {
    allowOutside: o.allowOutside,
    fetchTimeoutMs: o.fetchTimeoutMs ?? defaultFetchTimeoutMs(o.timeoutMs ?? 30_000),
    sourceCacheBytes: o.sourceCacheBytes,
  });
  const { renderer, release } = o.renderer ? { renderer: o.renderer, release: async () => undefined } : await makeRenderer(o);
  const service = new TileService({ ...o, style, renderer });
  const appOptions = { publicUrl: o.publicUrl, shortMaxAge: o.shortMaxAge ?? (o.watch ? 0 : undefined) };
  // Tiles beside express (the same answers, less main-thread CPU); everything else through it.
  const server = createHttpServer(tileFastPath(service, createApp(service, appOptions), appOptions), o);
  const host = o.host ?? '127.0.0.1';
  try {
    await listen(server, o.port ?? 8080, host);
  } catch (e) {
    // Worker threads would keep the process alive after a failed start.
    await service.close();
    await release();
    throw e;
  }
  const { port } = server.address() as AddressInfo;
  const shown = shownHost(host);
  const url = `http://${shown}:${port}/`;
  logDeflateFallback(service.log);

  let watcher: FSWatcher | undefined;
  if (o.watch) {
    // Watch the directory: editors often save by writing a new file and renaming it over the old one.
    const base = path.basename(style.file);
    let timer: NodeJS.Timeout | undefined;
    watcher = watch(path.dirname(style.file), (_event, name) => {
      if (name !== base) return;
      clearTimeout(timer);
      timer = setTimeout(() => void service.reload(), 100);
    });
  }

  let closing: Promise<void> | undefined;
  const close = (graceMs = 10_000) =>
    (closing ??= (async () => {
      watcher?.close();
      await drain(server, [service], graceMs);
      await service.close();
      await release();
    })());

  return { url, server, service, close };
}
