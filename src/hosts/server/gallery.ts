// `tilegraph serve` with several styles (files, or directories holding <name>/style.json): each is
// served under /styles/{id}/ by the single-style app (tiles, params, legend, TileJSON, preview);
// GET / lists them with a thumbnail each, GET /styles as JSON. One render pool serves them all.
import { existsSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { AddressInfo } from 'node:net';
import { defaultFetchTimeoutMs } from '../node/loader.js';
import { loadStyleFile } from '../node/style-file.js';
import { createApp, galleryFastPath, tilejsonCoverage } from './app.js';
import { TileCache } from '../../index.js';
import {
  createHttpServer,
  DEFAULT_SOURCE_CACHE_BYTES,
  drain,
  httpLimits,
  listen,
  logDeflateFallback,
  makeRenderer,
  shownHost,
  type RunningServer,
  type ServeOptions,
} from './serve.js';
import { TileService } from './service.js';

/** Style files named by `--style` arguments: a file as is; a directory's `*\/style.json` and `*.json` style files, sorted. */
export function resolveStyleFiles(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const a of args) {
    if (!existsSync(a) || !statSync(a).isDirectory()) {
      out.push(a);
      continue;
    }
    const found: string[] = [];
    for (const e of readdirSync(a, { withFileTypes: true })) {
      if (e.isDirectory() && existsSync(path.join(a, e.name, 'style.json'))) found.push(path.join(a, e.name, 'style.json'));
      else if (e.isFile() && e.name.endsWith('.json')) found.push(path.join(a, e.name));
    }
    if (!found.length) throw new Error(`directory '${a}' holds no style (<name>/style.json or *.json)`);
    out.push(...found.sort());
  }
  return out;
}

/** A URL-safe id per style: its directory's name for `<dir>/style.json`, else the file name; made unique. */
export function styleIds(files: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return files.map((f) => {
    const base = path.basename(f) === 'style.json' ? path.basename(path.dirname(path.resolve(f))) : path.basename(f).replace(/\.json$/, '');
    const id =
      base
        .toLowerCase()
        .replace(/[^a-z0-9_-]+/g, '-')
        .replace(/^-+|-+$/g, '') || 'style';
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return n === 1 ? id : `${id}-${n}`;
  });
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The tile a style's thumbnail shows: the centre of its TileJSON bounds at its lowest zoom worth a look (>= 2). */
async function thumbnailTile(service: TileService): Promise<{ z: number; x: number; y: number }> {
  const cover = await tilejsonCoverage(service);
  const [w, s, e, n] = cover.bounds;
  const lon = (w + e) / 2;
  const lat = (s + n) / 2;
  // Zoom where the bounds span about one tile.
  const span = Math.max(e - w, 1e-9);
  const z = Math.min(cover.maxzoom, Math.max(cover.minzoom, Math.max(2, Math.floor(Math.log2(360 / span)))));
  const k = 2 ** z;
  const x = Math.min(k - 1, Math.max(0, Math.floor(((lon + 180) / 360) * k)));
  const r = (lat * Math.PI) / 180;
  const y = Math.min(k - 1, Math.max(0, Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * k)));
  return { z, x, y };
}

export interface RunningGallery extends RunningServer {
  /** id -> service, in listing order. */
  services: Map<string, TileService>;
}

/** Serve several styles from one server (see the file comment). */
export async function serveMany(o: Omit<ServeOptions, 'style'> & { styles: string[] }): Promise<RunningGallery> {
  httpLimits(o);
  const files = o.styles;
  const ids = styleIds(files);
  // The main thread's renderers (they render with --workers 0) share one source cache, as each worker's styles do.
  const tileCache = new TileCache({ maxBytes: o.sourceCacheBytes ?? DEFAULT_SOURCE_CACHE_BYTES });
  const styles = await Promise.all(
    files.map((f) =>
      loadStyleFile(f, {
        allowOutside: o.allowOutside,
        fetchTimeoutMs: o.fetchTimeoutMs ?? defaultFetchTimeoutMs(o.timeoutMs ?? 30_000),
        sourceCacheBytes: o.sourceCacheBytes,
        tileCache,
      }),
    ),
  );
  const { renderer, release } = o.renderer ? { renderer: o.renderer, release: async () => undefined } : await makeRenderer(o);
  const services = new Map<string, TileService>();
  // Each style's TileJSON bounds and zooms come from its sources (app.ts tilejsonCoverage: the
  // hand-drawn example covers a few tiles of one city).
  styles.forEach((style, i) => services.set(ids[i]!, new TileService({ ...o, style, renderer })));

  const root = galleryApp(services, o);

  // Tiles beside express (the same answers, less main-thread CPU), everything else through it.
  const server = createHttpServer(galleryFastPath(services, root, o.shortMaxAge), o);
  const host = o.host ?? '127.0.0.1';
  try {
    await listen(server, o.port ?? 8080, host);
  } catch (e) {
    for (const s of services.values()) await s.close();
    await release();
    throw e;
  }
  const { port } = server.address() as AddressInfo;
  logDeflateFallback(services.values().next().value!.log);
  const watchers = o.watch ? watchStyles(services) : [];
  const shown = shownHost(host);
  let closing: Promise<void> | undefined;
  const close = (graceMs = 10_000) =>
    (closing ??= (async () => {
      for (const w of watchers) w.close();
      await drain(server, [...services.values()], graceMs);
      for (const s of services.values()) await s.close();
      await release();
    })());
  return { url: `http://${shown}:${port}/`, server, service: services.values().next().value!, services, close };
}

/** The gallery's own routes (the page, /styles, /health), each style's app under /styles/{id}, and a 404 naming the styles. */
export function galleryApp(services: Map<string, TileService>, o: Omit<ServeOptions, 'style'>): express.Express {
  const root = express();
  root.disable('x-powered-by');
  root.set('etag', false);
  const list = (req: Request) => {
    const base = (o.publicUrl ?? `${req.protocol}://${req.get('host')}`).replace(/\/$/, '');
    return Promise.all(
      [...services].map(async ([id, s]) => {
        const t = await thumbnailTile(s);
        return {
          id,
          name: s.style.renderer.doc.name ?? id,
          description: s.style.renderer.doc.description,
          version: s.version,
          url: `${base}/styles/${id}/`,
          tilejson: `${base}/styles/${id}/tilejson.json`,
          params: `${base}/styles/${id}/style/params`,
          thumbnail: `${base}/styles/${id}/tiles/${t.z}/${t.x}/${t.y}.png`,
        };
      }),
    );
  };
  root.get('/', async (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-cache');
    const cards = (await list(req))
      .map(
        (s) =>
          `<a class="card" href="styles/${esc(s.id)}/"><img src="styles/${esc(s.id)}/${esc(s.thumbnail.split(`/styles/${s.id}/`)[1]!)}" width="256" height="256" alt="${esc(s.name)}">` +
          `<p class="failed" role="status" hidden></p><strong>${esc(s.name)}</strong>${s.description ? `<span class="about">${esc(s.description)}</span>` : ''}</a>`,
      )
      .join('\n');
    res.type('html').send(galleryPage(cards, services.size));
  });
  root.get('/styles', async (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json({ styles: await list(req) });
  });
  root.get('/health', (_req: Request, res: Response) => {
    const draining = [...services.values()].some((s) => s.draining);
    res.setHeader('Cache-Control', 'no-store');
    res
      .status(draining ? 503 : 200)
      .json({ status: draining ? 'shutting-down' : 'ok', styles: Object.fromEntries([...services].map(([id, s]) => [id, s.version])) });
  });
  for (const [id, s] of services) {
    // Relative URLs of the preview page need the trailing slash.
    root.get(`/styles/${id}`, (req: Request, res: Response, next: NextFunction) => {
      const [p, q] = req.originalUrl.split('?', 2) as [string, string | undefined];
      if (p.endsWith('/')) return next(); // routing is not strict: /styles/{id}/ matches too
      res.redirect(301, `${p}/${q !== undefined ? '?' + q : ''}`);
    });
    root.use(
      `/styles/${id}`,
      createApp(s, { publicUrl: o.publicUrl ? `${o.publicUrl.replace(/\/$/, '')}/styles/${id}` : undefined, shortMaxAge: o.shortMaxAge }),
    );
  }
  root.use((req: Request, res: Response) => {
    res.status(404).json({
      error: 'not found',
      details: [{ field: 'path', message: `no route for ${req.method} ${req.path}; styles: ${[...services.keys()].join(', ')}` }],
    });
  });

  return root;
}

/** The gallery page: a card a style (cards), its thumbnail replaced by the server's error when it fails. */
function galleryPage(cards: string, count: number): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tilegraph gallery</title><link rel="icon" href="data:,">
<style>body{font:15px system-ui,sans-serif;margin:2em;background:#f4f3ef}h1{font-weight:600}
.grid{display:flex;flex-wrap:wrap;gap:1.2em}.card{display:flex;flex-direction:column;gap:.4em;width:256px;color:#222;text-decoration:none;background:#fff;padding:.6em;border-radius:6px;box-shadow:0 1px 3px #0002}
.card img{background:#ddd;image-rendering:auto}.card:hover{box-shadow:0 2px 8px #0004}.about{color:#555;font-size:13px;line-height:1.35}
.failed{box-sizing:border-box;width:256px;height:256px;margin:0;padding:1em;overflow:auto;overflow-wrap:anywhere;background:#f3e3e1;color:#8a1c12;font-size:13px}</style></head>
<body><h1>tilegraph: ${count} styles</h1><p>Pick a style to open its preview (a live map with a control per param).</p>
<div class="grid">
${cards}
</div>
<script>
// A thumbnail the server could not render (a source offline, say) shows the server's error in its place.
for (const img of document.querySelectorAll('.card img')) {
  const fail = async () => {
    let why = 'the server sent no image';
    try {
      const res = await fetch(img.src);
      const body = await res.json();
      why = 'HTTP ' + res.status + ': ' + ((body.details || []).map((d) => d.message).join('; ') || body.error);
    } catch (e) {}
    const box = img.parentElement.querySelector('.failed');
    box.textContent = 'No thumbnail: ' + why;
    box.hidden = false;
    img.hidden = true;
  };
  if (img.complete && img.naturalWidth === 0) fail();
  else img.addEventListener('error', fail);
}
</script></body></html>`;
}

/** --watch: each style reloads when its own file changes (the directory is watched: editors save by rename). */
function watchStyles(services: Map<string, TileService>): FSWatcher[] {
  const watchers: FSWatcher[] = [];
  for (const s of services.values()) {
    const base = path.basename(s.style.file);
    let timer: NodeJS.Timeout | undefined;
    watchers.push(
      watch(path.dirname(s.style.file), (_event, name) => {
        if (name !== base) return;
        clearTimeout(timer);
        timer = setTimeout(() => void s.reload(), 100);
      }),
    );
  }
  return watchers;
}
