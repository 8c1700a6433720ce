// The preview page and what it needs from the server: GET / (the page), /preview/* (the browser
// bundle built by scripts/build-browser.mjs) and /data/<ref> (the style's data files for the
// browser's fetch loader; only refs the style's sources declare).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { LIMITS } from '../../limits.js';
import { fileURLToPath } from 'node:url';
import { Router, type Request, type Response } from 'express';
import { NodeLoader } from '../node/loader.js';
import type { StyleDoc } from '../../style/types.js';
import { OPS } from '../../ops/index.js';
import { HttpError } from './http-errors.js';
import type { TileService } from './service.js';

export interface PreviewOptions {
  /** Directory of the built browser bundle (default: dist/browser of this package). */
  distDir?: string;
}

/** dist/browser (two levels above dist/hosts/server) when running the build, or the package's dist/ when running from src/. */
function defaultDistDirs(): string[] {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return [path.resolve(here, '../../browser'), path.resolve(here, '../../../dist/browser')];
}

function findDist(o: PreviewOptions): string | undefined {
  const dirs = o.distDir ? [o.distDir] : defaultDistDirs();
  return dirs.find((d) => existsSync(path.join(d, 'index.html')) && existsSync(path.join(d, 'tilegraph.js')));
}

const PLACEHOLDERS = /\\\{(z|x|y|-y|quadkey)\\\}/g;
const REMOTE = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Does the style declare this ref (a source's `data` or `url`, a tile of a `tiles` template, or
 * an image asset named by a node's asset field: a brush tip, a sprite, a pattern)?
 * The route serves nothing else: it must not become a file server or a proxy. Remote URLs are
 * fetched by the browser itself.
 */
export function styleDeclaresRef(doc: StyleDoc, ref: string): boolean {
  if (REMOTE.test(ref)) return false;
  for (const decl of Object.values(doc.sources ?? {})) {
    for (const key of ['data', 'url', 'tiles']) {
      const v = decl[key];
      for (const t of Array.isArray(v) ? v : [v]) {
        if (typeof t !== 'string' || REMOTE.test(t)) continue;
        if (key !== 'tiles' && t === ref) return true;
        if (key === 'tiles' && new RegExp('^' + t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(PLACEHOLDERS, '\\d+') + '$').test(ref)) return true;
      }
    }
  }
  for (const nodes of [doc.nodes, ...Object.values(doc.functions ?? {}).map((f) => f.nodes)]) {
    for (const node of Object.values(nodes ?? {})) {
      const op = OPS.get(String(node.op));
      const fields = op?.fields ?? {};
      for (const [field, schema] of Object.entries(fields)) if (schema['x-asset'] && node[field] === ref && !ref.startsWith('@')) return true;
      if (op?.assetRefs?.(node).includes(ref)) return true;
    }
  }
  return false;
}

const TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.geojson': 'application/geo+json',
  '.pbf': 'application/x-protobuf',
  '.mvt': 'application/vnd.mapbox-vector-tile',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

/** `bytes=a-b` or `bytes=a-` (one range; anything else is served whole, as RFC 9110 allows). */
function parseRange(header: string | undefined): { offset: number; end?: number } | undefined {
  const m = header ? /^bytes=(\d+)-(\d*)$/.exec(header.trim()) : null;
  if (!m) return undefined;
  const offset = Number(m[1]);
  const end = m[2] ? Number(m[2]) : undefined;
  // Digits past 2^53 are not exact: such a range is ignored, as an unparseable one is.
  if (!Number.isSafeInteger(offset) || (end !== undefined && !Number.isSafeInteger(end))) return undefined;
  return end !== undefined && end < offset ? undefined : { offset, end };
}

export function previewRouter(service: TileService, options: PreviewOptions = {}): Router {
  const router = Router();

  router.get('/', (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-cache');
    const dist = findDist(options);
    if (dist) {
      res.sendFile('index.html', { root: dist });
      return;
    }
    const name = (service.style.renderer.doc.name ?? 'tilegraph').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    res.type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${name} · tilegraph</title></head>
<body><h1>${name}</h1><p>The preview page is not built: run <code>npm run build</code> (scripts/build-browser.mjs).</p>
<p><img src="tiles/0/0/0.png" width="256" height="256" alt="tile 0/0/0"></p>
<p><a href="style/params">style/params</a> · <a href="tilejson.json">tilejson.json</a></p></body></html>`);
  });

  router.get('/preview/*file', (req: Request, res: Response) => {
    const dist = findDist(options);
    if (!dist) throw new HttpError(404, { error: 'not found', details: [{ field: 'path', message: 'the browser bundle is not built; run npm run build' }] });
    const file = (req.params as Record<string, string[]>).file!.join('/');
    // sendFile with a root refuses paths that escape it and dotfiles.
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(file, { root: dist, dotfiles: 'deny' }, (err) => {
      if (err && !res.headersSent) res.status(404).json({ error: 'not found', details: [{ field: 'path', message: `no file ${file} in the browser bundle` }] });
    });
  });

  router.get('/data/:ref', async (req: Request, res: Response) => {
    const ref = (req.params as Record<string, string>).ref!;
    const style = service.style;
    if (!styleDeclaresRef(style.renderer.doc, ref)) {
      throw new HttpError(404, { error: 'not found', details: [{ field: 'ref', message: `the style's sources declare no '${ref}'` }] });
    }
    const loader = new NodeLoader({ baseDir: style.baseDir, allowOutside: style.allowOutside });
    let size: number;
    try {
      size = await loader.size(ref);
    } catch (e) {
      throw new HttpError(404, { error: 'not found', details: [{ field: 'ref', message: (e as Error).message }] });
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Accept-Ranges', 'bytes');
    const range = parseRange(req.get('Range'));
    if (range && range.offset >= size) {
      res.setHeader('Content-Range', `bytes */${size}`);
      throw new HttpError(416, {
        error: 'range not satisfiable',
        details: [{ field: 'range', message: `the range starts at byte ${range.offset}, past the end of '${ref}' (${size} bytes)` }],
      });
    }
    // A range ends at the file's end and spans at most LIMITS.maxRangeBytes (RFC 9110 lets the
    // Content-Range say what was sent); a whole file is bounded by the loader's maxSourceBytes.
    const offset = range?.offset ?? 0;
    const end = range ? Math.min(range.end ?? size - 1, size - 1, offset + LIMITS.maxRangeBytes - 1) : size - 1;
    let bytes: Uint8Array;
    try {
      bytes = await loader.load(ref, range ? { offset, length: end - offset + 1 } : undefined);
    } catch (e) {
      throw new HttpError(range ? 416 : 404, {
        error: range ? 'range not satisfiable' : 'not found',
        details: [{ field: range ? 'range' : 'ref', message: (e as Error).message }],
      });
    }
    res.type(TYPES[path.extname(ref).toLowerCase()] ?? 'application/octet-stream');
    const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (!range) {
      res.send(body);
      return;
    }
    res.status(206).setHeader('Content-Range', `bytes ${offset}-${offset + bytes.byteLength - 1}/${size}`);
    res.send(body);
  });

  return router;
}
