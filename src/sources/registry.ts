// The sources of one style, built from its `sources` block, the host bindings and a tile cache.
import { RenderError } from '../errors.js';
import { styleVersion } from '../graph/hash.js';
import type { SourceDecl, StyleDoc } from '../style/types.js';
import { TileCache } from './cache.js';
import { createSpriteLoader } from './assets.js';
import { createFontLoader } from '../ops/text/fonts.js';
import { createSpriteSheetLoader } from './sprites.js';
import { createDemSource } from './dem.js';
import { createRasterSource } from './raster.js';
import { GeojsonSource } from './geojson.js';
import { createMvtSource } from './mvt.js';
import { createPmtilesSource } from './pmtiles.js';
import type { AnySource, DemSource, FeatureSource, ImageDecoder, Loader, RasterSource, SourceContext, SourceRegistry } from './types.js';

export interface SourceRegistryOptions {
  loader?: Loader;
  /** Decodes PNG / WebP DEM tiles; the Node host binds sharp, a browser createImageBitmap. */
  decodeImage?: ImageDecoder;
  /** Decoded tiles, shared by every render of this style (and of others given the same cache). Default: a cache of its own. */
  cache?: TileCache;
  /** Where warnings go (each distinct message once): the hosts print or log them. Default: console.warn. */
  onWarning?: (message: string) => void;
}

/** Distinct warnings reported per style; past it, one last message says more were dropped. */
export const MAX_WARNINGS = 100;

/** A warn() that reports each distinct message once (at most MAX_WARNINGS of them). */
export function onceWarner(onWarning: (message: string) => void = (m) => console.warn(`tilegraph: ${m}`)): (message: string) => void {
  const seen = new Set<string>();
  return (message) => {
    if (seen.has(message) || seen.size > MAX_WARNINGS) return;
    seen.add(message);
    onWarning(seen.size > MAX_WARNINGS ? `more than ${MAX_WARNINGS} distinct warnings; no more are reported for this style` : message);
  };
}

export type SourceFactory = (name: string, decl: SourceDecl, ctx: SourceContext) => AnySource;

const FACTORIES: ReadonlyMap<string, SourceFactory> = new Map<string, SourceFactory>([
  ['geojson', (name, decl, ctx) => new GeojsonSource({ name, decl, loader: ctx.loader, cache: ctx.cache, cachePrefix: ctx.cachePrefix })],
  ['mvt', createMvtSource],
  ['pmtiles', createPmtilesSource],
  ['dem', createDemSource],
  ['raster', createRasterSource],
]);

// Keeps styles apart in a shared cache when their loader gives no absolute identity of a path.
let registries = 0;

/**
 * In a shared cache, keys name the data by the loader's identity of it (an absolute path, a URL)
 * and, through this prefix, how the declaration reads it (type, zooms, buffer, encoding...): two
 * styles declaring one file alike share its tiles, two reading it differently never do.
 */
function readingKey(decl: SourceDecl): string {
  // (A geojson source's keys are its own instance's anyway: its inline data need not be hashed.)
  const { tiles: _t, url: _u, data: _d, attribution: _a, ...reading } = decl as SourceDecl & Record<string, unknown>;
  return styleVersion(reading);
}

export function createSourceRegistry(doc: StyleDoc, options: SourceRegistryOptions | Loader = {}): SourceRegistry {
  const o: SourceRegistryOptions = 'load' in options ? { loader: options as Loader } : (options as SourceRegistryOptions);
  const shared = !!o.cache;
  const ctx: SourceContext = {
    loader: o.loader,
    decodeImage: o.decodeImage ?? o.loader?.decodeImage?.bind(o.loader),
    cache: o.cache ?? new TileCache(),
    cachePrefix: shared && !o.loader?.key ? `style${++registries}:` : '',
  };
  const all = new Map<string, AnySource>();
  for (const [name, decl] of Object.entries(doc.sources ?? {})) {
    const make = FACTORIES.get(decl.type);
    if (make) all.set(name, make(name, decl, shared && !ctx.cachePrefix ? { ...ctx, cachePrefix: `${readingKey(decl)}:` } : ctx));
  }
  const pick = <T extends AnySource>(name: string | undefined, ok: (s: AnySource) => s is T, what: string): T => {
    if (name !== undefined) {
      const s = all.get(name);
      if (!s) {
        const decl = doc.sources?.[name];
        throw new RenderError(decl ? `source '${name}' of type '${decl.type}' is not supported by this version` : `unknown source '${name}'`);
      }
      if (!ok(s)) throw new RenderError(`source '${name}' is a ${s.type} source, not a ${what} source`);
      return s;
    }
    const candidates = [...all.values()].filter(ok);
    if (candidates.length === 1) return candidates[0]!;
    throw new RenderError(
      candidates.length === 0
        ? `the style has no ${what} source`
        : `the style has ${candidates.length} ${what} sources (${candidates.map((c) => c.name).join(', ')}); name one with 'source'`,
    );
  };
  return {
    cache: ctx.cache,
    featureSource: (name) => pick(name, (s): s is FeatureSource => s.type !== 'dem' && s.type !== 'raster', 'feature'),
    demSource: (name) => pick(name, (s): s is DemSource => s.type === 'dem', 'dem'),
    rasterSource: (name) => pick(name, (s): s is RasterSource => s.type === 'raster', 'raster'),
    sprite: createSpriteLoader(ctx.loader, ctx.decodeImage),
    font: createFontLoader(ctx.loader),
    warn: onceWarner(o.onWarning),
    spriteSheet: createSpriteSheetLoader(ctx.loader, ctx.decodeImage),
    async attribution() {
      const out: string[] = [];
      if (doc.attribution) out.push(doc.attribution);
      for (const s of all.values()) out.push(...(await s.attribution().catch(() => [] as string[])));
      return dedupeAttribution(out);
    },
  };
}

/** An attribution's words: tags and entities dropped, spaces collapsed, lower case. */
const attributionText = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[a-z]+;|&#\d+;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/**
 * Attributions, each credit once and in order: an entry whose words another entry already holds
 * goes (a source's "AWS Terrain Tiles" beside the style's "Elevation: AWS Terrain Tiles (Mapzen /
 * Tilezen): ..." was listed twice); of two with the same words the first stays.
 */
export function dedupeAttribution(list: readonly string[]): string[] {
  const items = [...new Set(list.map((s) => s.trim()).filter(Boolean))].map((html) => ({ html, text: attributionText(html) }));
  return items.filter((a, i) => !items.some((b, j) => j !== i && b.text.includes(a.text) && (b.text.length > a.text.length || j < i))).map((a) => a.html);
}
