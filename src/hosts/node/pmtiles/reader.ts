// Reading local archives back with the pmtiles package (the reader every client uses): for
// `--resume` over a finished archive and for `merge`.
import { open, type FileHandle } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { Compression, PMTiles, type Header, type RangeResponse, type Source } from 'pmtiles';

/** A local file as a pmtiles `Source` (the package's FileSource is the browser's File API). */
export class NodeFileSource implements Source {
  private readonly handle: Promise<FileHandle>;
  constructor(readonly file: string) {
    this.handle = open(file, 'r');
  }
  getKey(): string {
    return this.file;
  }
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const fh = await this.handle;
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, offset);
    return { data: buf.buffer.slice(buf.byteOffset, buf.byteOffset + bytesRead) as ArrayBuffer };
  }
  async close(): Promise<void> {
    await (await this.handle).close();
  }
}

const nodeDecompress = async (buf: ArrayBuffer, c: Compression): Promise<ArrayBuffer> => {
  if (c === Compression.None || c === Compression.Unknown) return buf;
  if (c === Compression.Gzip) {
    const out = gunzipSync(new Uint8Array(buf));
    return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer;
  }
  throw new Error(`compression ${c} is not supported`);
};

export interface OpenArchive {
  pmtiles: PMTiles;
  header: Header;
  close(): Promise<void>;
}

/** Open a local archive. */
export async function openArchive(file: string): Promise<OpenArchive> {
  const source = new NodeFileSource(file);
  const pmtiles = new PMTiles(source, undefined, nodeDecompress);
  try {
    const header = await pmtiles.getHeader();
    return { pmtiles, header, close: () => source.close() };
  } catch (e) {
    await source.close().catch(() => undefined);
    throw new Error(`${file} is not a readable PMTiles archive: ${(e as Error).message}`);
  }
}

/** Every tile of an archive, in tile ID order, walking root and leaf directories. */
export async function* archiveTiles(a: OpenArchive): AsyncGenerator<{ tileId: number; bytes: Uint8Array }> {
  const { pmtiles, header } = a;
  const walk = async function* (offset: number, length: number): AsyncGenerator<{ tileId: number; bytes: Uint8Array }> {
    const entries = await pmtiles.cache.getDirectory(pmtiles.source, offset, length, header);
    for (const e of entries) {
      if (e.runLength === 0) {
        yield* walk(header.leafDirectoryOffset + e.offset, e.length);
        continue;
      }
      const r = await pmtiles.source.getBytes(header.tileDataOffset + e.offset, e.length);
      const bytes = new Uint8Array(await nodeDecompress(r.data, header.tileCompression));
      for (let i = 0; i < e.runLength; i++) yield { tileId: e.tileId + i, bytes };
    }
  };
  yield* walk(header.rootDirectoryOffset, header.rootDirectoryLength);
}
