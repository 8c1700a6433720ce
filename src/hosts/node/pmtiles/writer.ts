// The archive writer: tiles arrive in any order (from worker threads); each is appended to
// `<out>.tiles.tmp` and its (tileId, offset, length) journaled to `<out>.journal`, so an
// interrupted export can resume. The journal's first line records the job's identity (style
// version, params, zooms, box, shard), and a resume of a different job is refused.
// `finish()` sorts by tile ID, de-duplicates identical contents, run-length encodes consecutive
// repeats, builds root + leaf directories and writes the archive:
//   header (127 bytes) | root directory | JSON metadata | leaf directories | tile data
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { open, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { once } from 'node:events';
import { gzipSync } from 'node:zlib';
import { Compression, TileType, zxyToTileId, type Entry, type Header } from 'pmtiles';
import { buildDirectories } from './directory.js';
import { HEADER_BYTES, serializeHeader } from './header.js';
import { archiveTiles, openArchive } from './reader.js';
import { NamedError } from '../../named-error.js';

export interface ArchiveInfo {
  minZoom: number;
  maxZoom: number;
  /** [west, south, east, north] in degrees. */
  bounds: [number, number, number, number];
  center?: [number, number, number];
  /** JSON metadata (name, attribution, ...). */
  metadata?: Record<string, unknown>;
  /** The tiles' type (default PNG; WebP for `tiles --format webp`). */
  tileType?: TileType;
}

/** What makes two runs the same export (plain JSON values); --resume continues only the same job. */
export type JobIdentity = Record<string, unknown>;

/** `--resume` of a different job: the sentence names every difference. */
export class ResumeMismatchError extends NamedError {}

const JOB_LINE = '#job ';

/** The differences between two identities, one phrase each ("maxZoom 4, now 3"). */
export function jobDifferences(before: JobIdentity, now: JobIdentity): string[] {
  const out: string[] = [];
  for (const k of new Set([...Object.keys(before), ...Object.keys(now)])) {
    const a = JSON.stringify(before[k] ?? null),
      b = JSON.stringify(now[k] ?? null);
    if (a !== b) out.push(`${k} ${a}, now ${b}`);
  }
  return out;
}

function checkJob(file: string, before: JobIdentity | undefined, now: JobIdentity, where: string): void {
  if (!before)
    throw new ResumeMismatchError(`cannot resume '${file}': the ${where} records no job identity (written by an older version); run without --resume`);
  const diff = jobDifferences(before, now);
  if (diff.length)
    throw new ResumeMismatchError(
      `cannot resume '${file}': the ${where} is of a different job (${diff.join('; ')}); run without --resume, or with the same options`,
    );
}

interface Staged {
  tileId: number;
  offset: number;
  length: number;
}

/**
 * Writes one archive. Usage: `const w = await PmtilesWriter.open(file, {resume, job})`, then
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
   * With `job`, a resume whose journal or archive records another identity is a ResumeMismatchError.
   */
  static async open(file: string, options: { resume?: boolean; job?: JobIdentity } = {}): Promise<PmtilesWriter> {
    const w = new PmtilesWriter(file);
    const job = options.job;
    if (options.resume && job) await w.checkResumable(job);
    if (!options.resume) {
      await rm(w.dataPath, { force: true });
      await rm(w.journalPath, { force: true });
    }
    w.data = await open(w.dataPath, 'a+');
    w.journal = await open(w.journalPath, 'a+');
    const text = options.resume ? await readFile(w.journalPath, 'utf8') : '';
    if (job && !text.startsWith(JOB_LINE)) await w.journal.write(`${JOB_LINE}${JSON.stringify(job)}\n`);
    if (options.resume) {
      w.dataEnd = (await w.data.stat()).size;
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

  /** Refuse to resume a journal or a finished archive of another job. */
  private async checkResumable(job: JobIdentity): Promise<void> {
    if (existsSync(this.journalPath)) {
      const text = await readFile(this.journalPath, 'utf8');
      const first = text.slice(0, text.indexOf('\n') >>> 0);
      if (first.startsWith(JOB_LINE)) return checkJob(this.file, JSON.parse(first.slice(JOB_LINE.length)) as JobIdentity, job, 'journal');
      if (/^\d+ \d+ \d+$/m.test(text)) return checkJob(this.file, undefined, job, 'journal');
    }
    if (existsSync(this.file)) {
      const a = await openArchive(this.file);
      try {
        const meta = (await a.pmtiles.getMetadata().catch(() => ({}))) as { tilegraph?: { job?: JobIdentity } };
        checkJob(this.file, meta?.tilegraph?.job, job, 'finished archive');
      } finally {
        await a.close();
      }
    }
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
      tileType: info.tileType ?? TileType.Png,
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
