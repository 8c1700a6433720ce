// `mvt` source: vector tiles from `tiles` templates (files relative to the style, or URLs).
import type { SourceDecl } from '../style/types.js';
import { declBounds, TemplateFetcher } from './template.js';
import type { SourceContext } from './types.js';
import { DEFAULT_TILE_BUFFER, VectorTileSource } from './vector.js';

/** Defaults of the `mvt` fields. */
const MVT_DEFAULTS = {
  minzoom: 0,
  // Street tilesets (OpenMapTiles, Mapbox Streets, Protomaps) stop at z14 and are over-zoomed above.
  maxzoom: 14,
  scheme: 'xyz' as const,
};

export function createMvtSource(name: string, decl: SourceDecl, ctx: SourceContext): VectorTileSource {
  const minzoom = decl.minzoom ?? MVT_DEFAULTS.minzoom;
  const maxzoom = decl.maxzoom ?? MVT_DEFAULTS.maxzoom;
  const layers = Array.isArray(decl.layers) ? (decl.layers as unknown[]).filter((l): l is string => typeof l === 'string') : undefined;
  const fetcher = new TemplateFetcher({
    templates: (decl.tiles as string[] | undefined) ?? [],
    loader: ctx.loader,
    scheme: decl.scheme === 'tms' ? 'tms' : MVT_DEFAULTS.scheme,
    bounds: declBounds(decl.bounds),
  });
  return new VectorTileSource({
    name,
    type: 'mvt',
    ctx,
    minzoom,
    maxzoom,
    buffer: typeof decl.buffer === 'number' ? decl.buffer : DEFAULT_TILE_BUFFER,
    attribution: async () => (decl.attribution ? [decl.attribution] : []),
    fetcher: {
      key: fetcher.key,
      info: async () => ({ minzoom, maxzoom, layers }),
      fetch: (z, x, y, signal) => fetcher.fetch(z, x, y, signal),
    },
  });
}
