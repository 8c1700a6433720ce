// Where a tiled source's tiles come from: `tiles` templates, or a TileJSON document (`tilejson`)
// whose templates, zooms, bounds, scheme and attribution fill the fields the style leaves out.
// `missing: "empty"` reads a tile the server or the file system does not have as an empty tile
// (what MapLibre GL does with a 404); by default a missing tile is an error.
import type { SourceDecl } from '../style/types.js';
import { declBounds, TemplateFetcher } from './template.js';
import type { Loader } from './types.js';

export interface TileSetInfo {
  minzoom: number;
  maxzoom: number;
  /** The layers a TileJSON lists (vector_layers ids). */
  layers?: string[];
  attribution?: string;
}

export interface TileSetFetcher {
  readonly key: string;
  info(signal?: AbortSignal): Promise<TileSetInfo>;
  fetch(z: number, x: number, y: number, signal: AbortSignal): Promise<Uint8Array | undefined>;
}

/** Whether a loader's error says the resource does not exist (ENOENT, HTTP 404 / 410). */
export function isNotFound(e: unknown): boolean {
  for (let c: unknown = e; c; c = (c as { cause?: unknown }).cause) if ((c as { notFound?: boolean }).notFound) return true;
  return false;
}

/** A template or a TileJSON's tile URL resolved against the document that names it. */
export function resolveRef(ref: string, base: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) return ref;
  if (/^https?:\/\//i.test(base)) return new URL(ref, base).href;
  if (ref.startsWith('/')) return ref;
  const i = base.lastIndexOf('/');
  return i < 0 ? ref : base.slice(0, i + 1) + ref;
}

interface TileJson {
  tiles?: unknown;
  minzoom?: unknown;
  maxzoom?: unknown;
  bounds?: unknown;
  scheme?: unknown;
  attribution?: unknown;
  vector_layers?: unknown;
}

async function readTileJson(loader: Loader | undefined, ref: string, signal?: AbortSignal): Promise<TileJson> {
  if (!loader) throw new Error(`no loader is bound to read '${ref}'`);
  const bytes = await loader.load(ref, undefined, signal);
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new Error(`the TileJSON '${ref}' is not valid JSON: ${(e as Error).message}`);
  }
  if (!doc || typeof doc !== 'object' || !Array.isArray((doc as TileJson).tiles) || !(doc as { tiles: unknown[] }).tiles.every((t) => typeof t === 'string')) {
    throw new Error(`the TileJSON '${ref}' has no 'tiles' list`);
  }
  return doc as TileJson;
}

const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : undefined);

/** The fetcher of a declaration's `tiles` or `tilejson`, with the source type's default zooms. */
export function tileSetFetcher(decl: SourceDecl, loader: Loader | undefined, defaults: { minzoom: number; maxzoom: number }): TileSetFetcher {
  const missing = decl.missing === 'empty';
  const wrap = (f: TemplateFetcher) => async (z: number, x: number, y: number, signal: AbortSignal) => {
    try {
      return await f.fetch(z, x, y, signal);
    } catch (e) {
      if (missing && isNotFound(e)) return undefined;
      throw e;
    }
  };
  if (typeof decl.tilejson !== 'string') {
    const f = new TemplateFetcher({
      templates: (decl.tiles as string[] | undefined) ?? [],
      loader,
      scheme: decl.scheme === 'tms' ? 'tms' : 'xyz',
      bounds: declBounds(decl.bounds),
    });
    const info: TileSetInfo = { minzoom: decl.minzoom ?? defaults.minzoom, maxzoom: decl.maxzoom ?? defaults.maxzoom };
    if (Array.isArray(decl.layers)) info.layers = (decl.layers as unknown[]).filter((l): l is string => typeof l === 'string');
    return { key: f.key, info: async () => info, fetch: wrap(f) };
  }
  const ref = decl.tilejson;
  let resolved: Promise<{ info: TileSetInfo; fetch: ReturnType<typeof wrap> }> | undefined;
  const resolve = (signal?: AbortSignal) =>
    (resolved ??= readTileJson(loader, ref, signal).then((tj) => {
      const f = new TemplateFetcher({
        templates: (tj.tiles as string[]).map((t) => resolveRef(t, ref)),
        loader,
        scheme: (decl.scheme ?? tj.scheme) === 'tms' ? 'tms' : 'xyz',
        bounds: declBounds(decl.bounds ?? tj.bounds),
      });
      const info: TileSetInfo = {
        minzoom: decl.minzoom ?? int(tj.minzoom) ?? defaults.minzoom,
        maxzoom: decl.maxzoom ?? int(tj.maxzoom) ?? defaults.maxzoom,
      };
      if (Array.isArray(tj.vector_layers)) info.layers = tj.vector_layers.map((l) => String((l as { id?: unknown })?.id));
      if (typeof tj.attribution === 'string') info.attribution = tj.attribution;
      return { info, fetch: wrap(f) };
    })).catch((e) => {
      resolved = undefined; // a failed read is retried by the next render
      throw e;
    });
  return {
    key: loader?.key?.(ref) ?? ref,
    info: async (signal) => (await resolve(signal)).info,
    fetch: async (z, x, y, signal) => (await resolve(signal)).fetch(z, x, y, signal),
  };
}
