// The tiles of an image tile set (DEM or raster): `tiles` templates, a `tilejson`, or a raster
// PMTiles archive (`url`), with their zooms and attribution.
import { TileType } from 'pmtiles';
import { SourceError } from '../errors.js';
import { formatInt, LIMITS } from '../limits.js';
import type { SourceDecl } from '../style/types.js';
import { archiveAttribution, checkedHeader, PmtilesArchive } from './pmtiles.js';
import { tileSetFetcher } from './tileset.js';
import type { DecodedImage, ImageDecoder, SourceContext } from './types.js';
import { tileError } from './vector.js';

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

/** A tile image must be the source's tileSize square (and within the pixel limit, to say which bound it broke). */
export function checkTileImageSize(source: string, tile: string, tileSize: number, width: number, height: number): void {
  if (width === tileSize && height === tileSize) return;
  if (width * height > LIMITS.maxImagePixels) {
    throw new SourceError(source, tile, `the tile image is ${width}x${height} px, above the limit of ${formatInt(LIMITS.maxImagePixels)} pixels`);
  }
  throw new SourceError(source, tile, `the tile image is ${width}x${height} px but the source's tileSize is ${tileSize}; set "tileSize": ${width}`);
}

/** Decoded RGBA tile pixels, checked: a decoder failure, a wrong size or too few pixels is a SourceError. */
export async function decodeTileImage(
  source: string,
  tile: string,
  tileSize: number,
  decode: ImageDecoder,
  bytes: Uint8Array,
  formats: string,
): Promise<DecodedImage> {
  let img: DecodedImage;
  try {
    img = await decode(bytes);
  } catch (e) {
    throw tileError(source, tile, `the tile is not a readable ${formats} image`, e);
  }
  checkTileImageSize(source, tile, tileSize, img.width, img.height);
  if (img.data.length < img.width * img.height * 4) throw new SourceError(source, tile, 'the decoder returned fewer pixels than the image has');
  return img;
}

/** The tile set's zoom range; a failure to read it (not an abort) is a SourceError naming the source. */
export async function tileSetZooms(source: string, info: () => Promise<{ minzoom: number; maxzoom: number }>): Promise<{ minzoom: number; maxzoom: number }> {
  try {
    return await info();
  } catch (e) {
    if ((e as Error)?.name === 'AbortError' || e instanceof SourceError) throw e;
    throw tileError(source, undefined, 'cannot read the tile set', e);
  }
}
