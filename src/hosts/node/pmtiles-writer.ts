// PMTiles v3 writer (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md) for raster
// PNG pyramids, with a resumable staging area and a merge of several archives (shards).
//
// Tiles arrive in any order (from worker threads). Each is appended to `<out>.tiles.tmp` and its
// (tileId, offset, length) journaled to `<out>.journal`, so an interrupted export can resume.
// `finish()` sorts by tile ID, de-duplicates identical contents, run-length encodes consecutive
// repeats, builds root + leaf directories and writes the archive:
//   header (127 bytes) | root directory | JSON metadata | leaf directories | tile data
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { open, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { once } from 'node:events';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Compression, PMTiles, TileType, tileIdToZxy, zxyToTileId, type Entry, type Header, type RangeResponse, type Source } from 'pmtiles';

export const HEADER_BYTES = 127;
/** The header and the root directory must fit in the first 16 KiB (spec §2). */
const ROOT_BUDGET = 16384 - HEADER_BYTES;

export interface ArchiveInfo {
  minZoom: number;
  maxZoom: number;
  /** [west, south, east, north] in degrees. */
  bounds: [number, number, number, number];
  center?: [number, number, number];
  /** JSON metadata (name, attribution, ...). */
  metadata?: Record<string, unknown>;
}

export { zxyToTileId, tileIdToZxy };

function pushVarint(out: number[], n: number): void {
  // Values reach 2^53 (tile IDs, offsets): arithmetic, not 32-bit shifts.
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
}

/** Serialize and gzip one directory (spec §4). Entries are sorted by tileId. */
export function serializeDirectory(entries: readonly Entry[]): Buffer {
  const out: number[] = [];
  pushVarint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    pushVarint(out, e.tileId - last);
    last = e.tileId;
  }
  for (const e of entries) pushVarint(out, e.runLength);
  for (const e of entries) pushVarint(out, e.length);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const prev = entries[i - 1];
    // 0 means "right after the previous entry"; otherwise offset + 1.
    pushVarint(out, i > 0 && prev && e.offset === prev.offset + prev.length ? 0 : e.offset + 1);
  }
  return gzipSync(Buffer.from(out));
}

/** Root directory, plus leaf directories when the root alone would not fit in its budget. */
export function buildDirectories(entries: readonly Entry[]): { root: Buffer; leaves: Buffer } {
  const root = serializeDirectory(entries);
  if (root.length <= ROOT_BUDGET) return { root, leaves: Buffer.alloc(0) };
  // As the reference writers do: grow the leaf size until the root of leaf pointers fits.
  for (let leafSize = 4096; ; leafSize = Math.ceil(leafSize * 1.2)) {
    const rootEntries: Entry[] = [];
    const parts: Buffer[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += leafSize) {
      const leaf = serializeDirectory(entries.slice(i, i + leafSize));
      rootEntries.push({ tileId: entries[i]!.tileId, offset, length: leaf.length, runLength: 0 });
      parts.push(leaf);
      offset += leaf.length;
    }
    const r = serializeDirectory(rootEntries);
    if (r.length <= ROOT_BUDGET) return { root: r, leaves: Buffer.concat(parts) };
  }
}

export function serializeHeader(h: Omit<Header, 'etag'>): Buffer {
  const b = Buffer.alloc(HEADER_BYTES);
  b.write('PMTiles', 0, 'ascii');
  b.writeUInt8(3, 7);
  const u64 = (off: number, v: number | undefined) => b.writeBigUInt64LE(BigInt(v ?? 0), off);
  u64(8, h.rootDirectoryOffset);
  u64(16, h.rootDirectoryLength);
  u64(24, h.jsonMetadataOffset);
  u64(32, h.jsonMetadataLength);
  u64(40, h.leafDirectoryOffset);
  u64(48, h.leafDirectoryLength);
  u64(56, h.tileDataOffset);
  u64(64, h.tileDataLength);
  u64(72, h.numAddressedTiles);
  u64(80, h.numTileEntries);
  u64(88, h.numTileContents);
  b.writeUInt8(h.clustered ? 1 : 0, 96);
  b.writeUInt8(h.internalCompression, 97);
  b.writeUInt8(h.tileCompression, 98);
  b.writeUInt8(h.tileType, 99);
  b.writeUInt8(h.minZoom, 100);
  b.writeUInt8(h.maxZoom, 101);
  const e7 = (off: number, deg: number) => b.writeInt32LE(Math.round(deg * 1e7), off);
  e7(102, h.minLon);
  e7(106, h.minLat);
  e7(110, h.maxLon);
  e7(114, h.maxLat);
  b.writeUInt8(h.centerZoom, 118);
  e7(119, h.centerLon);
  e7(123, h.centerLat);
  return b;
}

interface Staged {
  tileId: number;
  offset: number;
  length: number;
}

/**
 * Writes one archive. Usage: `const w = await PmtilesWriter.open(file, {resume})`, then
 * `await w.write(z, x, y, png)` in any order, then `await w.finish(info)`.
 */
export class PmtilesWriter {
  readonly file: string;
  private readonly dataPath: string;
  private readonly journalPath: string;
  private data!: FileHandle;
  private journal!: FileHandle;
  private dataEnd = 0;
  private readonly staged = new Map<number, Staged>();
  /** Serialises appends: workers finish concurrently, the staging file is append-only. */
  private chain: Promise<void> = Promise.resolve();

  private constructor(file: string) {
    this.file = file;
    this.dataPath = file + '.tiles.tmp';
    this.journalPath = file + '.journal';
  }

  /**
   * Open a writer. With `resume`, tiles journaled by an interrupted run are kept, and a finished
   * archive at `file` is read back so its tiles count as done; without it, any staging is discarded.
   */
  static async open(file: string, options: { resume?: boolean } = {}): Promise<PmtilesWriter> {
    const w = new PmtilesWriter(file);
    if (!options.resume) {
      await rm(w.dataPath, { force: true });
      await rm(w.journalPath, { force: true });
    }
    w.data = await open(w.dataPath, 'a+');
    w.journal = await open(w.journalPath, 'a+');
    if (options.resume) {
      w.dataEnd = (await w.data.stat()).size;
      const text = await readFile(w.journalPath, 'utf8');
      for (const line of text.split('\n')) {
        // A line cut by a crash does not parse and is ignored; its tile is rendered again.
        const m = /^(\d+) (\d+) (\d+)$/.exec(line);
        if (!m) continue;
        const s = { tileId: Number(m[1]), offset: Number(m[2]), length: Number(m[3]) };
        if (s.offset + s.length <= w.dataEnd) w.staged.set(s.tileId, s);
      }
      if (w.staged.size === 0 && existsSync(file)) {
        const archive = await openArchive(file);
        try {
          for await (const t of archiveTiles(archive)) await w.writeId(t.tileId, t.bytes);
        } finally {
          await archive.close();
        }
      }
    }
    return w;
  }

  /** Tiles staged so far. */
  get size(): number {
    return this.staged.size;
  }

  has(z: number, x: number, y: number): boolean {
    return this.staged.has(zxyToTileId(z, x, y));
  }

  write(z: number, x: number, y: number, bytes: Uint8Array): Promise<void> {
    return this.writeId(zxyToTileId(z, x, y), bytes);
  }

  writeId(tileId: number, bytes: Uint8Array): Promise<void> {
    const next = this.chain.then(async () => {
      const offset = this.dataEnd;
      await this.data.write(bytes, 0, bytes.length, offset);
      this.dataEnd += bytes.length;
      // The journal line is written after the data, so a journaled tile is always complete.
      await this.journal.write(`${tileId} ${offset} ${bytes.length}\n`);
      this.staged.set(tileId, { tileId, offset, length: bytes.length });
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Assemble the archive at `file` and remove the staging files. */
  async finish(info: ArchiveInfo): Promise<Header> {
    await this.chain;
    const staged = [...this.staged.values()].sort((a, b) => a.tileId - b.tileId);
    // Pass 1: de-duplicate contents into the final tile-data section, in tile ID order (clustered).
    const packedPath = this.file + '.data.tmp';
    const packed = await open(packedPath, 'w');
    const entries: Entry[] = [];
    let contents = 0;
    let dataLength = 0;
    try {
      const byHash = new Map<string, { offset: number; length: number }>();
      for (const s of staged) {
        const buf = Buffer.alloc(s.length);
        await this.data.read(buf, 0, s.length, s.offset);
        const h = createHash('sha1').update(buf).digest('base64');
        let at = byHash.get(h);
        if (!at) {
          at = { offset: dataLength, length: s.length };
          byHash.set(h, at);
          await packed.write(buf, 0, buf.length, dataLength);
          dataLength += s.length;
          contents++;
        }
        const prev = entries[entries.length - 1];
        // Run-length: consecutive tile IDs with the same content share one entry.
        if (prev && prev.offset === at.offset && prev.length === at.length && prev.tileId + prev.runLength === s.tileId) prev.runLength++;
        else entries.push({ tileId: s.tileId, offset: at.offset, length: at.length, runLength: 1 });
      }
    } finally {
      await packed.close();
    }
    const { root, leaves } = buildDirectories(entries);
    const metadata = gzipSync(Buffer.from(JSON.stringify(info.metadata ?? {})));
    const [w, s, e, n] = info.bounds;
    const header: Omit<Header, 'etag'> = {
      specVersion: 3,
      rootDirectoryOffset: HEADER_BYTES,
      rootDirectoryLength: root.length,
      jsonMetadataOffset: HEADER_BYTES + root.length,
      jsonMetadataLength: metadata.length,
      leafDirectoryOffset: HEADER_BYTES + root.length + metadata.length,
      leafDirectoryLength: leaves.length,
      tileDataOffset: HEADER_BYTES + root.length + metadata.length + leaves.length,
      tileDataLength: dataLength,
      numAddressedTiles: staged.length,
      numTileEntries: entries.length,
      numTileContents: contents,
      clustered: true,
      internalCompression: Compression.Gzip,
      tileCompression: Compression.None, // PNG is already compressed
      tileType: TileType.Png,
      minZoom: info.minZoom,
      maxZoom: info.maxZoom,
      minLon: w,
      minLat: s,
      maxLon: e,
      maxLat: n,
      centerZoom: info.center?.[2] ?? info.minZoom,
      centerLon: info.center?.[0] ?? (w + e) / 2,
      centerLat: info.center?.[1] ?? (s + n) / 2,
    };
    // Pass 2: head then tile data, into a temporary file renamed over `file` (never a half archive).
    const tmp = this.file + '.tmp';
    const out = createWriteStream(tmp);
    for (const part of [serializeHeader(header), root, metadata, leaves]) if (!out.write(part)) await once(out, 'drain');
    const src = createReadStream(packedPath);
    src.pipe(out);
    await once(out, 'close');
    await rename(tmp, this.file);
    await this.close();
    await rm(packedPath, { force: true });
    await rm(this.dataPath, { force: true });
    await rm(this.journalPath, { force: true });
    return { ...header, etag: undefined };
  }

  /** Close the staging files, keeping them for a later `--resume`. */
  async close(): Promise<void> {
    await this.chain;
    await this.data?.close().catch(() => undefined);
    await this.journal?.close().catch(() => undefined);
  }
}

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

/** Open a local archive with the pmtiles package (the reader every client uses). */
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

/**
 * Join archives (e.g. the shards of one export) into `out`. Zoom range and bounds are the union;
 * metadata is the first archive's. A tile present in two archives with different bytes is an error.
 */
export async function mergeArchives(inputs: string[], out: string): Promise<Header> {
  if (inputs.length === 0) throw new Error('merge needs at least one input archive');
  const w = await PmtilesWriter.open(out);
  const seen = new Map<number, string>();
  let info: ArchiveInfo | undefined;
  try {
    for (const file of inputs) {
      const a = await openArchive(file);
      try {
        const h = a.header;
        if (h.tileType !== TileType.Png) throw new Error(`${file} holds tile type ${h.tileType}, not PNG`);
        const meta = (await a.pmtiles.getMetadata()) as Record<string, unknown>;
        info = info
          ? {
              ...info,
              minZoom: Math.min(info.minZoom, h.minZoom),
              maxZoom: Math.max(info.maxZoom, h.maxZoom),
              bounds: [Math.min(info.bounds[0], h.minLon), Math.min(info.bounds[1], h.minLat), Math.max(info.bounds[2], h.maxLon), Math.max(info.bounds[3], h.maxLat)],
            }
          : { minZoom: h.minZoom, maxZoom: h.maxZoom, bounds: [h.minLon, h.minLat, h.maxLon, h.maxLat], metadata: meta };
        for await (const t of archiveTiles(a)) {
          const digest = createHash('sha1').update(t.bytes).digest('base64');
          const before = seen.get(t.tileId);
          if (before !== undefined) {
            if (before === digest) continue;
            const [z, x, y] = tileIdToZxy(t.tileId);
            throw new Error(`tile ${z}/${x}/${y} is in more than one input with different contents (${file})`);
          }
          seen.set(t.tileId, digest);
          await w.writeId(t.tileId, t.bytes);
        }
      } finally {
        await a.close();
      }
    }
    const [w0, s0, e0, n0] = info!.bounds;
    return await w.finish({ ...info!, center: [(w0 + e0) / 2, (s0 + n0) / 2, info!.minZoom] });
  } catch (e) {
    await w.close();
    await rm(out + '.tiles.tmp', { force: true });
    await rm(out + '.journal', { force: true });
    throw e;
  }
}
