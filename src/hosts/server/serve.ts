// `tilegraph serve`: start the HTTP server on a style, optionally watching the file; graceful shutdown.
import { statSync, watch, type FSWatcher } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { InProcessRenderer, WorkerPool, type PngRenderer } from '../node/render-pool.js';
import { selectBackend, type BackendChoice } from '../node/select-backend.js';
import { loadStyleFile } from '../node/style-file.js';
import { createApp } from './app.js';
import { resolveStyleFiles, serveMany } from './gallery.js';
import { TileService, type TileServiceOptions } from './service.js';

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

/** The host as written in a URL a person can open (a wildcard address as localhost, IPv6 in brackets). */
export const shownHost = (host: string): string => (host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host);

export interface ServeOptions extends Omit<TileServiceOptions, 'style' | 'renderer'> {
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
  /** Bytes of decoded source tiles and sampled geometry kept per render worker and style version (default 128 MiB). */
  sourceCacheBytes?: number;
  publicUrl?: string;
  /** Cache-Control max-age for tiles requested without the current `v` (default 60, 0 with --watch). */
  shortMaxAge?: number;
  workerUrl?: URL | string;
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

export async function makeRenderer(o: Omit<ServeOptions, 'style'>): Promise<{ renderer: PngRenderer; release(): Promise<void> }> {
  const workers = o.workers ?? availableParallelism();
  const choice = o.backend ?? 'auto';
  if (choice !== 'cpu' || workers === 0) {
    const sel = await selectBackend(choice);
    // The GPU backend stays on one device in this thread; the CPU backend spreads over workers.
    if (sel.backend.name === 'gpu' || workers === 0) return { renderer: new InProcessRenderer(sel.backend, 2), release: () => sel.close() };
    await sel.close();
  }
  return { renderer: new WorkerPool({ size: workers, workerUrl: o.workerUrl }), release: async () => undefined };
}

export async function serve(o: ServeOptions): Promise<RunningServer> {
  if (Array.isArray(o.style) || statSync(o.style, { throwIfNoEntry: false })?.isDirectory()) {
    const files = resolveStyleFiles(Array.isArray(o.style) ? o.style : [o.style]);
    if (Array.isArray(o.style) && files.length === 1) return serve({ ...o, style: files[0]! });
    return serveMany({ ...o, styles: files });
  }
  const style = await loadStyleFile(o.style, { allowOutside: o.allowOutside, fetchTimeoutMs: o.timeoutMs, sourceCacheBytes: o.sourceCacheBytes });
  const { renderer, release } = o.renderer ? { renderer: o.renderer, release: async () => undefined } : await makeRenderer(o);
  const service = new TileService({ ...o, style, renderer });
  const app = createApp(service, { publicUrl: o.publicUrl, shortMaxAge: o.shortMaxAge ?? (o.watch ? 0 : undefined) });
  const server = createServer(app);
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
      service.draining = true;
      watcher?.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive connections become idle as their last response ends: close them as they do.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearInterval(sweep);
      clearTimeout(timer);
      await service.close();
      await release();
    })());

  return { url, server, service, close };
}
