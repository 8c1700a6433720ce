// CLI `tiles`: a tile pyramid for a bbox and zoom range into a directory (z/x/y.png) or a
// .pmtiles archive, on every core (worker threads), resumable and shardable across machines.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TileType } from 'pmtiles';
import { tileWindow, type ParamValues, type TileAddress } from '../../index.js';
import { valueKey } from '../../params/index.js';
import { jobDifferences, PmtilesWriter, ResumeMismatchError, type JobIdentity } from '../node/pmtiles/index.js';
import { makePngRenderer, type PngRenderer } from '../node/render-pool.js';
import { gpuAdapterSummary } from '../node/gpu.js';
import { selectBackend, type BackendChoice } from '../node/select-backend.js';
import { atPixelRatio, bboxCenterLng, bboxTileRanges, parseBbox, parseParams, parsePixelRatio, parseShard, parseZoom, type Bbox } from './args.js';
import { InterruptedError, OutputError, UsageError } from './exit.js';
import { Progress } from './progress.js';
import { DEFAULT_QUALITY, encodeTile, tileExtension, type TileFormat } from '../node/webp.js';
import { MbtilesWriter } from '../node/mbtiles.js';
import type { LoadedStyle } from '../node/style-file.js';
import { fetchTimeoutMs, loadStyleForCli, parseQuality, renderDeadline, timeoutMs, type CommonArgs } from './render.js';

export interface TilesArgs extends CommonArgs {
  bbox: string;
  minZoom: number | string;
  maxZoom: number | string;
  out: string;
  tileSize: number;
  resume?: boolean;
  shard?: string;
  concurrency?: number;
  progress?: 'auto' | 'bar' | 'plain' | 'none';
  /** Override where the pool's worker script lives (tests of an uncompiled tree). */
  workerUrl?: URL | string;
  /** 1..4 (default 1): tiles of tileSize x ratio pixels showing the same area, sizes in pixels scaled (MapLibre's @2x). */
  pixelRatio?: number | string;
  /** Tile format (default png); webp and jpeg are encoded from the rendered PNG (src/hosts/node/webp.ts). */
  format?: TileFormat | 'jpg';
  /** Library use (the GPU bench): stops the export as SIGINT does (the tiles in flight finish; --resume continues). */
  signal?: AbortSignal;
  /** Library use (the GPU bench): called after each tile is written, with its size in bytes. */
  onTile?: (t: TileAddress, bytes: number) => void;
  /** Library use (the GPU bench): fewer tiles than this render in this thread (default MIN_TILES_FOR_WORKERS). */
  minTilesForWorkers?: number;
  /** Library use (the GPU bench): called with the renderer after the last tile, before it is closed (a WorkerPool's stats()). */
  beforeClose?: (r: PngRenderer) => Promise<void>;
}

interface Range {
  z: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  count: number;
}

/**
 * The tile list: zoom by zoom, rows north to south, columns west to east (a box across the
 * antimeridian: its western part up to 180 degrees first, then its part from -180). Counted, never materialised.
 */
export class TileList {
  readonly ranges: Range[] = [];
  readonly total: number;

  constructor(bbox: Bbox, minZoom: number, maxZoom: number) {
    let total = 0;
    for (let z = minZoom; z <= maxZoom; z++) {
      for (const r of bboxTileRanges(bbox, z)) {
        const count = (r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1);
        this.ranges.push({ z, ...r, count });
        total += count;
      }
    }
    this.total = total;
  }

  /** Tiles with list index in [start, end). */
  *slice(start: number, end: number): Generator<TileAddress> {
    let base = 0;
    for (const r of this.ranges) {
      const from = Math.max(start - base, 0);
      const to = Math.min(end - base, r.count);
      const w = r.x1 - r.x0 + 1;
      for (let i = from; i < to; i++) yield { z: r.z, x: r.x0 + (i % w), y: r.y0 + Math.floor(i / w) };
      base += r.count;
      if (base >= end) return;
    }
  }

  /** Shard i of n: a contiguous block of the list, the same on every machine. */
  shard(index: number, count: number): { start: number; end: number } {
    return { start: Math.floor((index * this.total) / count), end: Math.floor(((index + 1) * this.total) / count) };
  }
}

interface TileSink {
  has(t: TileAddress): boolean;
  write(t: TileAddress, png: Uint8Array): Promise<void>;
  finish(): Promise<void>;
  /** Stop, keeping what was written for --resume. */
  close(): Promise<void>;
}

/** The job file of a directory export: what `--resume` must match. */
const DIR_JOB_FILE = '.tilegraph-job.json';

class DirSink implements TileSink {
  constructor(
    private readonly dir: string,
    private readonly ext: string = 'png',
  ) {}

  /** Record the job (a fresh run), or refuse to resume a directory written by another job. */
  static async open(dir: string, job: JobIdentity, resume: boolean): Promise<DirSink> {
    const file = path.join(dir, DIR_JOB_FILE);
    if (resume && existsSync(file)) {
      const before = JSON.parse(await readFile(file, 'utf8')) as JobIdentity;
      const diff = jobDifferences(before, job);
      if (diff.length)
        throw new UsageError(`cannot resume '${dir}': it holds tiles of a different job (${diff.join('; ')}); run without --resume, or with the same options`);
    }
    try {
      await mkdir(dir, { recursive: true });
      await writeFile(file, JSON.stringify(job, null, 1) + '\n');
    } catch (e) {
      throw new OutputError(`cannot write '${file}': ${(e as Error).message}`);
    }
    return new DirSink(dir, tileExtension((job.format as TileFormat | undefined) ?? 'png'));
  }

  private file(t: TileAddress): string {
    return path.join(this.dir, String(t.z), String(t.x), `${t.y}.${this.ext}`);
  }
  has(t: TileAddress): boolean {
    return existsSync(this.file(t));
  }
  async write(t: TileAddress, png: Uint8Array): Promise<void> {
    const f = this.file(t);
    try {
      await mkdir(path.dirname(f), { recursive: true });
      // Write then rename: a tile file that exists is complete, which is what --resume trusts.
      await writeFile(f + '.tmp', png);
      await rename(f + '.tmp', f);
    } catch (e) {
      throw new OutputError(`cannot write '${f}': ${(e as Error).message}`);
    }
  }
  async finish(): Promise<void> {}
  async close(): Promise<void> {}
}

/** What a tile archive's writer (PmtilesWriter, MbtilesWriter) offers the sink; `info`: its metadata. */
interface ArchiveWriter<Info> {
  readonly file: string;
  has(z: number, x: number, y: number): boolean;
  write(z: number, x: number, y: number, tile: Uint8Array): Promise<void>;
  finish(info: Info): Promise<unknown>;
  close(): Promise<void>;
}

/** A PMTiles or MBTiles archive: a failed write or finish names the file (an OutputError). */
class ArchiveSink<Info> implements TileSink {
  constructor(
    private readonly w: ArchiveWriter<Info>,
    private readonly info: Info,
  ) {}
  has(t: TileAddress): boolean {
    return this.w.has(t.z, t.x, t.y);
  }
  write(t: TileAddress, tile: Uint8Array): Promise<void> {
    return this.w.write(t.z, t.x, t.y, tile).catch((e) => this.failed(e));
  }
  async finish(): Promise<void> {
    await this.w.finish(this.info).catch((e) => this.failed(e));
  }
  close(): Promise<void> {
    return this.w.close();
  }
  private failed(e: unknown): never {
    throw new OutputError(`cannot write '${this.w.file}': ${(e as Error).message}`);
  }
}

/** Extensions of files `tiles` does not write: `--out w.zip` would otherwise become a directory named so. */
const NOT_A_PYRAMID = /\.(png|jpe?g|webp|gif|tiff?|zip|tar|gz|tgz|json|geojson|mvt|pbf|sqlite3?|db|gpkg|mbtile|pmtile)$/i;

/** What `--out` names: a PMTiles or MBTiles archive by extension, else a directory of z/x/y files. */
export function outputKind(out: string): 'pmtiles' | 'mbtiles' | 'dir' {
  if (/\.pmtiles$/i.test(out)) return 'pmtiles';
  if (/\.mbtiles$/i.test(out)) return 'mbtiles';
  if (NOT_A_PYRAMID.test(out))
    throw new UsageError(`--out '${out}': tiles writes a directory (z/x/y files), a .pmtiles or an .mbtiles archive; name one of them`);
  return 'dir';
}

/** Below this many tiles, worker start-up (each builds the style; a GPU worker makes a device) costs more than it saves. */
export const MIN_TILES_FOR_WORKERS = 64;

/**
 * Pick the renderer: `concurrency` worker threads on the chosen backend (the GPU: a device per
 * worker), unless the job is small or single-threaded, which renders in this thread.
 */
async function makeRenderer(
  choice: BackendChoice,
  concurrency: number | undefined,
  tiles: number,
  workerUrl?: URL | string,
  minTiles = MIN_TILES_FOR_WORKERS,
): Promise<{ renderer: PngRenderer; close(): Promise<void> }> {
  const sel = await selectBackend(choice);
  return makePngRenderer({
    backend: sel.backend,
    fallback: sel.backend.name === 'gpu' && !!gpuAdapterSummary()?.fallback,
    workers: concurrency,
    inProcess: concurrency === 1 || tiles < minTiles,
    workerUrl,
    release: () => sel.close(),
  });
}

/** An archive's writer opened on `out`: a --resume of another job is a usage error, any other failure names the file. */
function openArchive<W>(out: string, open: () => Promise<W>): Promise<W> {
  return open().catch((e) => {
    if (e instanceof ResumeMismatchError) throw new UsageError(e.message);
    throw new OutputError(`cannot open '${out}': ${(e as Error).message}`);
  });
}

/** The archive's header and metadata: zooms and bounds of the request, style name, attribution, params. */
async function openPmtiles(out: string, a: TilesArgs, style: LoadedStyle, params: ParamValues, job: JobIdentity): Promise<TileSink> {
  const bbox = parseBbox(a.bbox);
  const [minZoom, maxZoom] = [parseZoom(a.minZoom), parseZoom(a.maxZoom)];
  const shard = parseShard(a.shard);
  const doc = style.renderer.doc;
  const writer = await openArchive(out, () => PmtilesWriter.open(out, { resume: a.resume, job }));
  const format = tileFormat(a.format);
  return new ArchiveSink(writer, {
    tileType: format === 'webp' ? TileType.Webp : format === 'jpeg' ? TileType.Jpeg : TileType.Png,
    minZoom,
    maxZoom,
    bounds: bbox,
    center: [bboxCenterLng(bbox), (bbox[1] + bbox[3]) / 2, minZoom],
    metadata: {
      name: doc.name ?? path.basename(style.file),
      format: tileExtension(format),
      type: 'baselayer',
      attribution: (await style.renderer.attribution()).join(' | '),
      tileSize: a.tileSize,
      minzoom: minZoom,
      maxzoom: maxZoom,
      bounds: bbox,
      tilegraph: {
        style: path.basename(style.file),
        version: style.renderer.version,
        // The overrides given, in canonical form.
        params: Object.fromEntries(Object.keys(parseParams(a.param)).map((k) => [k, valueKey(params.get(k)!)])),
        shard: shard.count > 1 ? `${shard.index}/${shard.count}` : undefined,
        job,
      },
    },
  });
}

/** --format: png (default), webp, jpeg (or jpg). */
export const tileFormat = (f: TilesArgs['format']): TileFormat => (f === 'jpg' ? 'jpeg' : (f ?? 'png'));

/** The MBTiles archive's writer and metadata (the same facts as a PMTiles archive's). */
async function openMbtiles(out: string, a: TilesArgs, style: LoadedStyle, params: ParamValues, job: JobIdentity): Promise<TileSink> {
  const bbox = parseBbox(a.bbox);
  const [minZoom, maxZoom] = [parseZoom(a.minZoom), parseZoom(a.maxZoom)];
  const doc = style.renderer.doc;
  const writer = await openArchive(out, () => MbtilesWriter.open(out, { resume: a.resume, job }));
  const format = tileFormat(a.format);
  return new ArchiveSink(writer, {
    name: doc.name ?? path.basename(style.file),
    format: format === 'jpeg' ? 'jpg' : format,
    bounds: bbox,
    center: [bboxCenterLng(bbox), (bbox[1] + bbox[3]) / 2, minZoom],
    minzoom: minZoom,
    maxzoom: maxZoom,
    attribution: (await style.renderer.attribution()).join(' | ') || undefined,
    description: doc.description,
    extra: {
      tileSize: String(a.tileSize),
      tilegraph: {
        style: path.basename(style.file),
        version: style.renderer.version,
        params: Object.fromEntries(Object.keys(parseParams(a.param)).map((k) => [k, valueKey(params.get(k)!)])),
      },
    },
  });
}

export async function tilesCommand(a: TilesArgs): Promise<string> {
  const bbox = parseBbox(a.bbox);
  const minZoom = parseZoom(a.minZoom, 'min-zoom');
  const maxZoom = parseZoom(a.maxZoom, 'max-zoom');
  if (minZoom > maxZoom) throw new UsageError(`--min-zoom ${minZoom} is above --max-zoom ${maxZoom}`);
  const shard = parseShard(a.shard);
  const ratio = parsePixelRatio(a.pixelRatio);
  const concurrency = a.concurrency;
  if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1))
    throw new UsageError(`--concurrency '${a.concurrency}' is not a positive integer`);
  const out = a.out.replaceAll('{shard}', String(shard.index));
  const kind = outputKind(out);
  const format = tileFormat(a.format);
  const quality = parseQuality(a.quality);

  const ms = timeoutMs(a);
  const style = await loadStyleForCli(a.style, a.allowOutside, fetchTimeoutMs(a));
  const params = style.renderer.params(parseParams(a.param));
  const list = new TileList(bbox, minZoom, maxZoom);
  const { start, end } = list.shard(shard.index, shard.count);
  // What --resume must match: the same style version, param values, tile size, zooms, box and shard.
  const job: JobIdentity = {
    style: path.basename(style.file),
    version: style.renderer.version,
    params: params.strings(),
    tileSize: a.tileSize,
    minZoom,
    maxZoom,
    bbox,
    shard: `${shard.index}/${shard.count}`,
    ...(format !== 'png' ? { format } : {}),
    ...(format !== 'png' && quality !== DEFAULT_QUALITY ? { quality } : {}),
    ...(ratio > 1 ? { pixelRatio: ratio } : {}),
  };

  const progress = new Progress({ total: end - start, mode: a.progress ?? 'auto' });
  const { renderer, close } = await makeRenderer(a.backend, concurrency, end - start, a.workerUrl, a.minTilesForWorkers);
  let sink: TileSink;
  try {
    sink =
      kind === 'pmtiles'
        ? await openPmtiles(out, a, style, params, job)
        : kind === 'mbtiles'
          ? await openMbtiles(out, a, style, params, job)
          : await DirSink.open(out, job, !!a.resume);
  } catch (e) {
    await close();
    throw e;
  }
  let failure: unknown;
  const stop = (sig: string) => (failure ??= new InterruptedError(`${sig}: stopped after the tiles in flight; run the same command with --resume to continue`));
  const onInt = () => stop('SIGINT');
  const onTerm = () => stop('SIGTERM');
  process.once('SIGINT', onInt);
  process.once('SIGTERM', onTerm);
  const onAbort = () => stop('stopped by the caller');
  a.signal?.addEventListener('abort', onAbort, { once: true });
  if (a.signal?.aborted) onAbort();
  try {
    const inflight = new Set<Promise<void>>();
    for (const t of list.slice(start, end)) {
      if (failure) break;
      if (a.resume && sink.has(t)) {
        progress.skip(1);
        continue;
      }
      const deadline = renderDeadline(ms);
      const job = renderer
        .render(style, atPixelRatio(tileWindow(t, a.tileSize * ratio), ratio), params, deadline.signal)
        .catch((e: unknown) => {
          throw deadline.explain(e);
        })
        .then(async (png) => {
          const bytes = await encodeTile(png, format, quality);
          await sink.write(t, bytes);
          a.onTile?.(t, bytes.length);
        })
        .then(
          () => progress.tick(),
          (e) => void (failure ??= e),
        )
        .finally(() => inflight.delete(job));
      inflight.add(job);
      if (inflight.size >= renderer.capacity) await Promise.race(inflight);
    }
    await Promise.all(inflight);
    if (failure) throw failure;
    await sink.finish();
  } catch (e) {
    await sink.close();
    throw e;
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
    a.signal?.removeEventListener('abort', onAbort);
    try {
      await a.beforeClose?.(renderer);
    } finally {
      await close();
    }
  }
  progress.finish();
  return out;
}
