// `mvt` source: vector tiles from `tiles` templates (files relative to the style, or URLs).
import type { SourceDecl } from '../style/types.js';
import { tileSetFetcher } from './tileset.js';
import type { SourceContext } from './types.js';
import { DEFAULT_TILE_BUFFER, VectorTileSource, type PromoteId } from './vector.js';

/** Defaults of the `mvt` fields. */
const MVT_DEFAULTS = {
  minzoom: 0,
  // Street tilesets (OpenMapTiles, Mapbox Streets, Protomaps) stop at z14 and are over-zoomed above.
  maxzoom: 14,
};

export function createMvtSource(name: string, decl: SourceDecl, ctx: SourceContext): VectorTileSource {
  const fetcher = tileSetFetcher(decl, ctx.loader, { minzoom: MVT_DEFAULTS.minzoom, maxzoom: MVT_DEFAULTS.maxzoom });
  return new VectorTileSource({
    name,
    type: 'mvt',
    ctx,
    minzoom: decl.minzoom ?? MVT_DEFAULTS.minzoom,
    maxzoom: decl.maxzoom ?? MVT_DEFAULTS.maxzoom,
    buffer: typeof decl.buffer === 'number' ? decl.buffer : DEFAULT_TILE_BUFFER,
    promoteId: decl.promoteId as PromoteId | undefined,
    attribution: async () => {
      const out = decl.attribution ? [decl.attribution] : [];
      const tj = typeof decl.tilejson === 'string' ? (await fetcher.info().catch(() => undefined))?.attribution : undefined;
      return tj ? [...out, tj] : out;
    },
    fetcher,
  });
}
