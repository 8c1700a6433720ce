// The preview page and what it needs from the server: GET / (the page), /preview/* (the browser
// bundle built by scripts/build-browser.mjs) and /data/<ref> (the style's data files for the
// browser's fetch loader; only refs the style's sources declare).
import { existsSync } from 'node:fs';
import path from 'node:path';
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
      const fields = OPS.get(String(node.op))?.fields ?? {};
      for (const [field, schema] of Object.entries(fields)) if (schema['x-asset'] && node[field] === ref && !ref.startsWith('@')) return true;
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
};

/** `bytes=a-b` or `bytes=a-` (one range; anything else is served whole, as RFC 9110 allows). */
function parseRange(header: string | undefined): { offset: number; end?: number } | undefined {
  const m = header ? /^bytes=(\d+)-(\d*)$/.exec(header.trim()) : null;
  if (!m) return undefined;
  const offset = Number(m[1]);
  const end = m[2] ? Number(m[2]) : undefined;
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
    const range = parseRange(req.get('Range'));
    let bytes: Uint8Array;
    try {
      bytes = await loader.load(ref, range && range.end !== undefined ? { offset: range.offset, length: range.end - range.offset + 1 } : undefined);
      if (range && range.end === undefined) bytes = bytes.subarray(range.offset);
    } catch (e) {
      throw new HttpError(404, { error: 'not found', details: [{ field: 'ref', message: (e as Error).message }] });
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Accept-Ranges', 'bytes');
    res.type(TYPES[path.extname(ref).toLowerCase()] ?? 'application/octet-stream');
    const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (!range) {
      res.send(body);
      return;
    }
    if (bytes.byteLength === 0) {
      res.setHeader('Content-Range', 'bytes */*');
      throw new HttpError(416, {
        error: 'range not satisfiable',
        details: [{ field: 'range', message: `the range starts at byte ${range.offset}, past the end of '${ref}'` }],
      });
    }
    // The loader does not report the total size; RFC 9110 allows '*'.
    res.status(206).setHeader('Content-Range', `bytes ${range.offset}-${range.offset + bytes.byteLength - 1}/*`);
    res.send(body);
  });

  return router;
}
