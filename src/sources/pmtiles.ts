// `pmtiles` source: a PMTiles v3 archive read through the host loader by byte ranges. Zooms,
// bounds, layers and attribution come from the archive; the same reader serves raster DEM archives.
import { PMTiles, SharedPromiseCache, TileType, type DecompressFunc, type Header, type RangeResponse, type Source } from 'pmtiles';
import { SourceError } from '../errors.js';
import { formatBytes, LIMITS } from '../limits.js';
import type { SourceDecl } from '../style/types.js';
import { inflate, type Codec } from './gzip.js';
import { tileInBounds } from './tiles.js';
import type { Loader, SourceContext } from './types.js';
import { type PromoteId, DEFAULT_TILE_BUFFER, tileError, VectorTileSource } from './vector.js';

/** Bytes pmtiles reads first: the 127-byte header and, in the same read, the root directory. */
const HEADER_READ = 16384;

/**
 * The pmtiles `Source` over the host loader (byte ranges of one file or URL). Every read is
 * bounded and must come back whole: a truncated archive is a SourceError, never a short directory.
 */
class LoaderSource implements Source {
  constructor(
    private readonly url: string,
    private readonly loader: Loader,
  ) {}

  getKey(): string {
    return this.loader.key?.(this.url) ?? this.url;
  }

  async getBytes(offset: number, length: number, signal?: AbortSignal): Promise<RangeResponse> {
    const header = offset === 0 && length === HEADER_READ;
    if (!header && length > LIMITS.maxPmtilesBlockBytes) {
      throw new Error(
        `the archive asks to read ${formatBytes(length)} at offset ${offset}, above the limit of ${formatBytes(LIMITS.maxPmtilesBlockBytes)} (corrupt header or directory)`,
      );
    }
    const b = await this.loader.load(this.url, { offset, length }, signal);
    if (header) checkHeader(b);
    else if (b.length < length) throw new Error(`the archive is truncated: ${length} bytes at offset ${offset} were asked for, ${b.length} exist`);
    return { data: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer };
  }
}

/** Header fields pmtiles trusts blindly, checked against what the first read returned. */
function checkHeader(b: Uint8Array): void {
  if (b.length < 127) throw new Error(`the archive is ${b.length} bytes, shorter than a PMTiles header (127)`);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (v.getUint16(0, true) !== 0x4d50) throw new Error('not a PMTiles archive (wrong magic number)');
  const u64 = (at: number) => v.getUint32(at + 4, true) * 2 ** 32 + v.getUint32(at, true);
  const rootOffset = u64(8),
    rootLength = u64(16),
    metaLength = u64(32);
  if (rootOffset + rootLength > b.length) {
    throw new Error(`the root directory (${rootLength} bytes at ${rootOffset}) ends past the ${b.length} bytes read: truncated archive or corrupt header`);
  }
  if (metaLength > LIMITS.maxPmtilesBlockBytes)
    throw new Error(`the metadata is ${formatBytes(metaLength)}, above the limit of ${formatBytes(LIMITS.maxPmtilesBlockBytes)}`);
  for (const at of [97, 98]) if (b[at]! > 4) throw new Error(`unknown compression ${b[at]} in the header`);
  const minZoom = b[100]!,
    maxZoom = b[101]!;
  if (minZoom > maxZoom || maxZoom > LIMITS.maxArchiveZoom) {
    throw new Error(`the header's zoom range ${minZoom}..${maxZoom} is not within 0..${LIMITS.maxArchiveZoom} (corrupt header)`);
  }
}

/** PMTiles compression codes (spec v3): 0 unknown, 1 none, 2 gzip, 3 brotli, 4 zstd. */
const CODECS: Record<number, Codec | null> = { 0: null, 1: null, 2: 'gzip', 3: 'br', 4: 'zstd' };

/** The decompressor given to pmtiles: gzip, brotli (through the host) and zstd, each bounded. */
function decompressor(loader: Loader): DecompressFunc {
  return async (buf, compression) => {
    const codec = CODECS[compression];
    if (codec === undefined) throw new Error(`unknown compression ${compression}`);
    if (codec === null) return buf;
    const out = await inflate(new Uint8Array(buf), codec, LIMITS.maxPmtilesBlockBytes, loader.decompress?.bind(loader));
    return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer;
  };
}

const TYPE_NAMES: Record<number, string> = { 0: 'unknown', 1: 'vector (MVT)', 2: 'PNG', 3: 'JPEG', 4: 'WebP', 5: 'AVIF', 6: 'MLT' };

function tileTypeName(t: TileType): string {
  return TYPE_NAMES[t] ?? `type ${t}`;
}

/** One archive: header and metadata read once, tiles by z/x/y (decompressed by the pmtiles reader). */
export class PmtilesArchive {
  readonly key: string;
  private readonly pm: PMTiles;
  private header?: Promise<Header>;
  private meta?: Promise<Record<string, unknown>>;

  constructor(
    readonly url: string,
    loader: Loader,
  ) {
    const src = new LoaderSource(url, loader);
    this.key = src.getKey();
    const decompress = decompressor(loader);
    // The cache reads the header and directories: it needs the same decompressor as the tiles.
    this.pm = new PMTiles(src, new SharedPromiseCache(100, true, decompress), decompress);
  }

  getHeader(): Promise<Header> {
    if (!this.header) {
      this.header = this.pm.getHeader();
      this.header.catch(() => (this.header = undefined)); // a failed read may be retried later
    }
    return this.header;
  }

  getMetadata(): Promise<Record<string, unknown>> {
    if (!this.meta) {
      this.meta = this.pm.getMetadata().then((m) => (m && typeof m === 'object' ? (m as Record<string, unknown>) : {}));
      this.meta.catch(() => (this.meta = undefined));
    }
    return this.meta;
  }

  /** Tile bytes, or undefined when the archive does not hold the tile. */
  async tile(z: number, x: number, y: number, signal?: AbortSignal): Promise<Uint8Array | undefined> {
    const h = await this.getHeader();
    if (z < h.minZoom || z > h.maxZoom) return undefined;
    if (!tileInBounds([h.minLon, h.minLat, h.maxLon, h.maxLat], z, x, y)) return undefined;
    const r = await this.pm.getZxy(z, x, y, signal);
    return r ? new Uint8Array(r.data) : undefined;
  }
}

/** The archive's header, checked to hold one of `types`; a SourceError otherwise. */
export async function checkedHeader(name: string, archive: PmtilesArchive, types: TileType[], what: string): Promise<Header> {
  let h: Header;
  try {
    h = await archive.getHeader();
  } catch (e) {
    if ((e as Error)?.name === 'AbortError') throw e;
    throw tileError(name, undefined, `cannot read the PMTiles archive '${archive.url}'`, e);
  }
  if (!types.includes(h.tileType)) {
    throw new SourceError(
      name,
      undefined,
      `the PMTiles archive '${archive.url}' holds ${tileTypeName(h.tileType)} tiles; a ${what} source needs ${types.map(tileTypeName).join(' or ')} tiles`,
    );
  }
  return h;
}

/** Attribution of the declaration and of the archive's metadata. */
export async function archiveAttribution(decl: SourceDecl, archive: PmtilesArchive): Promise<string[]> {
  const out: string[] = [];
  if (decl.attribution) out.push(decl.attribution);
  const m = await archive.getMetadata().catch(() => undefined);
  if (typeof m?.attribution === 'string') out.push(m.attribution);
  return out;
}

export function createPmtilesSource(name: string, decl: SourceDecl, ctx: SourceContext): VectorTileSource {
  const url = String(decl.url ?? '');
  let archive: PmtilesArchive | undefined;
  const open = () => {
    if (!ctx.loader) throw new SourceError(name, undefined, `no loader is bound to read '${url}'`);
    return (archive ??= new PmtilesArchive(url, ctx.loader));
  };
  return new VectorTileSource({
    name,
    type: 'pmtiles',
    ctx,
    minzoom: decl.minzoom ?? 0,
    maxzoom: decl.maxzoom ?? 14,
    buffer: typeof decl.buffer === 'number' ? decl.buffer : DEFAULT_TILE_BUFFER,
    promoteId: decl.promoteId as PromoteId | undefined,
    attribution: async () => (ctx.loader ? archiveAttribution(decl, open()) : decl.attribution ? [decl.attribution] : []),
    fetcher: {
      key: ctx.loader?.key?.(url) ?? url,
      async info() {
        const a = open();
        const h = await checkedHeader(name, a, [TileType.Mvt], 'pmtiles (vector)');
        let layers: string[] | undefined;
        try {
          const vl = (await a.getMetadata()).vector_layers;
          if (Array.isArray(vl)) layers = vl.map((l) => String((l as { id?: unknown }).id));
        } catch {
          // Metadata is optional: without it, any layer name is accepted.
        }
        return {
          minzoom: Math.max(h.minZoom, decl.minzoom ?? h.minZoom),
          maxzoom: Math.min(h.maxZoom, decl.maxzoom ?? h.maxZoom),
          layers,
        };
      },
      fetch: (z, x, y, signal) => open().tile(z, x, y, signal),
    },
  });
}
