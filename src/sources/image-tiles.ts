// The tiles of an image tile set (DEM or raster): `tiles` templates, a `tilejson`, or a raster
// PMTiles archive (`url`), with their zooms and attribution.
import { TileType } from 'pmtiles';
import { SourceError } from '../errors.js';
import type { SourceDecl } from '../style/types.js';
import { archiveAttribution, checkedHeader, PmtilesArchive } from './pmtiles.js';
import { tileSetFetcher } from './tileset.js';
import type { SourceContext } from './types.js';

export interface ImageTileSet {
  readonly key: string;
  info(signal?: AbortSignal): Promise<{ minzoom: number; maxzoom: number }>;
  fetch(z: number, x: number, y: number, signal: AbortSignal): Promise<Uint8Array | undefined>;
  attribution(): Promise<string[]>;
}

/** Tile types an archive may hold: a DEM is lossless (PNG, WebP), a raster may be JPEG too. */
export function imageTileSet(
  name: string,
  decl: SourceDecl,
  ctx: SourceContext,
  defaults: { minzoom: number; maxzoom: number },
  what: 'dem' | 'raster',
): ImageTileSet {
  const types = what === 'dem' ? [TileType.Png, TileType.Webp] : [TileType.Png, TileType.Webp, TileType.Jpeg];
  if (typeof decl.url === 'string') {
    const url = decl.url;
    let archive: PmtilesArchive | undefined;
    const open = () => {
      if (!ctx.loader) throw new SourceError(name, undefined, `no loader is bound to read '${url}'`);
      return (archive ??= new PmtilesArchive(url, ctx.loader));
    };
    return {
      key: ctx.loader?.key?.(url) ?? url,
      async info() {
        const h = await checkedHeader(name, open(), types, what);
        return { minzoom: Math.max(h.minZoom, decl.minzoom ?? h.minZoom), maxzoom: Math.min(h.maxZoom, decl.maxzoom ?? h.maxZoom) };
      },
      fetch: (z, x, y, signal) => open().tile(z, x, y, signal),
      attribution: async () => (ctx.loader ? archiveAttribution(decl, open()) : decl.attribution ? [decl.attribution] : []),
    };
  }
  const set = tileSetFetcher(decl, ctx.loader, defaults);
  return {
    key: set.key,
    info: (signal) => set.info(signal),
    fetch: (z, x, y, signal) => set.fetch(z, x, y, signal),
    async attribution() {
      const out = decl.attribution ? [decl.attribution] : [];
      const tj = typeof decl.tilejson === 'string' ? (await set.info().catch(() => undefined))?.attribution : undefined;
      return tj ? [...out, tj] : out;
    },
  };
}
