// The tile service behind the HTTP routes: the current style, the render queue, the tile cache,
// in-flight coalescing, metrics and style reloads. Independent of express so it can be tested alone.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { tileWindow, type ParamValues, type TileAddress } from '../../index.js';
import { WorkerPool, type PngRenderer } from '../node/render-pool.js';
import { conversionReport, rendererFromText, type LoadedStyle } from '../node/style-file.js';
import { ByteLru } from '../../util/byte-lru.js';
import { Metrics, type MemoryReport } from './metrics.js';
import { pngToWebp } from '../node/webp.js';
import { RenderQueue } from './queue.js';

export interface TileServiceOptions {
  style: LoadedStyle;
  renderer: PngRenderer;
  /** Bytes of encoded tiles kept in memory (default 128 MiB). */
  cacheBytes?: number;
  /** Renders allowed to wait for a slot before requests get 503 (default 256). */
  maxQueue?: number;
  /** A render not done this long after it was queued answers 503 (default 30 s). */
  timeoutMs?: number;
  /** Renders at once (default: what the renderer can use). */
  concurrency?: number;
  minZoom?: number;
  maxZoom?: number;
  /** [west, south, east, north] advertised in the TileJSON (default: the Mercator world). */
  bounds?: [number, number, number, number];
  /** Where reload messages go (default stderr). */
  log?: (line: string) => void;
}

/** A request's tile key and ETag (TileService.knownKey), valid while `style` is the service's style. */
export interface KnownKey {
  style: LoadedStyle;
  key: string;
  etag: string;
}

export interface TileResult {
  png: Uint8Array;
  etag: string;
  cache: 'hit' | 'miss';
}

export const WORLD_BOUNDS: [number, number, number, number] = [-180, -85.0511287798066, 180, 85.0511287798066];

export class TileService {
  style: LoadedStyle;
  readonly renderer: PngRenderer;
  readonly cache: ByteLru<Uint8Array>;
  readonly queue: RenderQueue;
  readonly metrics: Metrics;
  readonly minZoom: number;
  readonly maxZoom: number;
  readonly bounds: [number, number, number, number];
  readonly startedAt = Date.now();
  draining = false;
  private readonly inflight = new Map<string, Promise<Uint8Array>>();
  /** Where reload messages and server-side error details go. */
  readonly log: (line: string) => void;
  /** Told of every reload attempt that read a changed file (the preview's live reload, GET /events). */
  readonly reloadListeners = new Set<(r: { ok: boolean; version: string; error?: string }) => void>();

  constructor(o: TileServiceOptions) {
    this.style = o.style;
    this.renderer = o.renderer;
    this.cache = new ByteLru(o.cacheBytes ?? 128 * 1024 * 1024);
    this.queue = new RenderQueue({ concurrency: o.concurrency ?? o.renderer.capacity, maxWaiting: o.maxQueue ?? 256, timeoutMs: o.timeoutMs ?? 30_000 });
    this.minZoom = o.minZoom ?? 0;
    this.maxZoom = o.maxZoom ?? 22;
    this.bounds = o.bounds ?? WORLD_BOUNDS;
    this.log = o.log ?? ((l) => process.stderr.write(l + '\n'));
    this.metrics = new Metrics({
      queueWaiting: () => this.queue.waiting,
      rendersRunning: () => this.queue.running,
      cacheBytes: () => this.cache.bytes,
      cacheEntries: () => this.cache.size,
      styleVersion: () => this.version,
    });
    for (const line of conversionReport(this.style.renderer, `style '${path.basename(this.style.file)}'`)) this.log(line);
  }

  /** The process's memory by thread: this one's, and each render worker's (a worker that does not answer is left out). */
  async memory(): Promise<MemoryReport> {
    const m = process.memoryUsage();
    const main = { thread: 'main', heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers };
    const workers = this.renderer instanceof WorkerPool ? await this.renderer.stats(1000) : [];
    return { rss: m.rss, threads: [main, ...workers.map((w, i) => ({ thread: `worker${i}`, ...w.memory }))] };
  }

  get version(): string {
    return this.style.renderer.version;
  }

  /**
   * What a tile's bytes depend on: the style version, the tile, its scale, and the values of the
   * params the output actually reads (so a param it ignores never splits the cache).
   */
  tileKey(t: TileAddress, scale: number, params: ParamValues, style = this.style): string {
    const plan = style.renderer.plan;
    const read = plan.nodes.get(plan.output)!.params;
    return `${style.renderer.version}|${t.z}/${t.x}/${t.y}@${scale}x|${params.key(read)}`;
  }

  etagOf(key: string): string {
    return `"${createHash('sha1').update(key).digest('base64url').slice(0, 22)}"`;
  }

  /** The key and ETag of a tile request (`|webp` for WebP), computed once and handed to tile / tileWebp. */
  knownKey(t: TileAddress, scale: number, params: ParamValues, format: 'png' | 'webp'): KnownKey {
    const style = this.style;
    const key = this.tileKey(t, scale, params, style) + (format === 'webp' ? '|webp' : '');
    return { style, key, etag: this.etagOf(key) };
  }

  /**
   * The tile as WebP (`png` holds its bytes): converted from its PNG (cached too), cached under its
   * own key. `known`: the key and ETag the caller computed for this very request (the tile route
   * does, before it answers 304), so they are not computed twice; left out, they are computed here.
   */
  async tileWebp(t: TileAddress, scale: number, params: ParamValues, known?: KnownKey): Promise<TileResult> {
    const style = this.style;
    const key = known && known.style === style ? known.key : this.tileKey(t, scale, params, style) + '|webp';
    const etag = known && known.style === style ? known.etag : this.etagOf(key);
    const cached = this.cache.get(key);
    if (cached) {
      this.metrics.cacheHits++;
      return { png: cached, etag, cache: 'hit' };
    }
    const png = await this.tile(t, scale, params);
    const webp = await pngToWebp(png.png);
    if (style === this.style) this.cache.set(key, webp);
    return { png: webp, etag, cache: png.cache };
  }

  /** The tile's PNG, from the cache, from a render of the same key in flight, or rendered now. `known`: as tileWebp's. */
  async tile(t: TileAddress, scale: number, params: ParamValues, known?: KnownKey): Promise<TileResult> {
    const style = this.style;
    const key = known && known.style === style ? known.key : this.tileKey(t, scale, params, style);
    const etag = known && known.style === style ? known.etag : this.etagOf(key);
    const cached = this.cache.get(key);
    if (cached) {
      this.metrics.cacheHits++;
      return { png: cached, etag, cache: 'hit' };
    }
    this.metrics.cacheMisses++;
    let job = this.inflight.get(key);
    if (!job) {
      job = this.queue.run(async (signal) => {
        const t0 = performance.now();
        try {
          // @2x: twice the pixels of the same area, sizes in pixels doubled (MapLibre's pixel ratio).
          const png = await this.renderer.render(style, { ...tileWindow(t, 256 * scale), pixelRatio: scale }, params, signal);
          this.metrics.render((performance.now() - t0) / 1000);
          // Only the current version's tiles are worth keeping after a reload.
          if (style === this.style) this.cache.set(key, png);
          return png;
        } catch (e) {
          this.metrics.renderErrors++;
          throw e;
        }
      });
      this.inflight.set(key, job);
      job.then(
        () => this.inflight.delete(key),
        () => this.inflight.delete(key),
      );
    }
    return { png: await job, etag, cache: 'miss' };
  }

  /** Re-read the style file. An invalid new version keeps the old one serving and logs why. */
  async reload(): Promise<{ ok: boolean; version: string; error?: unknown }> {
    const old = this.style;
    try {
      const text = await readFile(old.file, 'utf8');
      if (text === old.text) return { ok: true, version: this.version };
      const renderer = rendererFromText(text, old);
      this.style = { ...old, text, renderer };
      if (renderer.version !== old.renderer.version) this.cache.clear();
      this.metrics.reloadsOk++;
      this.log(`tilegraph: style reloaded: version ${renderer.version}`);
      for (const line of conversionReport(renderer, `style '${path.basename(old.file)}'`)) this.log(line);
      for (const l of this.reloadListeners) l({ ok: true, version: renderer.version });
      return { ok: true, version: renderer.version };
    } catch (e) {
      this.metrics.reloadsFailed++;
      const msg = e instanceof Error ? e.message.replace(/\s*\n\s*/g, '; ') : String(e);
      this.log(`tilegraph: style reload failed, still serving version ${old.renderer.version}: ${msg}`);
      for (const l of this.reloadListeners) l({ ok: false, version: old.renderer.version, error: msg });
      return { ok: false, version: old.renderer.version, error: e };
    }
  }

  async close(): Promise<void> {
    await this.renderer.close();
  }
}
