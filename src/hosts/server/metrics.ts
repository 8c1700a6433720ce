// Prometheus text exposition (format 0.0.4) of the server's counters, written by hand: a handful of series.
import { deflateInfo } from '../node/deflate.js';
import { kernelsInfo } from '../node/kernels.js';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface Gauges {
  queueWaiting(): number;
  rendersRunning(): number;
  cacheBytes(): number;
  cacheEntries(): number;
  styleVersion(): string;
}

function label(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** One thread's memory in bytes (`thread`: `main`, `worker0`, ...); the cache fields are render workers'. */
export interface ThreadMemory {
  thread: string;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  sourceCache?: number;
  bufferPool?: number;
}

/** The process's resident set and each thread's share that V8 and our caches account for. */
export interface MemoryReport {
  rss: number;
  threads: ThreadMemory[];
}

const MEMORY_KINDS: [keyof ThreadMemory, string][] = [
  ['heapUsed', 'heap_used'],
  ['heapTotal', 'heap_total'],
  ['external', 'external'],
  ['arrayBuffers', 'array_buffers'],
  ['sourceCache', 'source_cache'],
  ['bufferPool', 'buffer_pool'],
];

export class Metrics {
  /** Requests by route and status: `route|status` -> count. */
  private readonly requests = new Map<string, number>();
  private readonly renderBuckets = new Array<number>(BUCKETS.length).fill(0);
  private renderCount = 0;
  private renderSum = 0;
  renderErrors = 0;
  cacheHits = 0;
  cacheMisses = 0;
  reloadsOk = 0;
  reloadsFailed = 0;

  constructor(private readonly gauges: Gauges) {}

  request(route: string, status: number): void {
    const k = `${route}|${status}`;
    this.requests.set(k, (this.requests.get(k) ?? 0) + 1);
  }

  /** One render's duration in seconds. */
  render(seconds: number): void {
    this.renderCount++;
    this.renderSum += seconds;
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) this.renderBuckets[i]!++;
  }

  /** The exposition; `memory`: the process's memory by thread (GET /metrics gathers it from the workers). */
  text(memory?: MemoryReport): string {
    const g = this.gauges;
    const out: string[] = [];
    const head = (name: string, type: string, help: string) => out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    head('tilegraph_http_requests_total', 'counter', 'HTTP requests by route and status code.');
    for (const [k, n] of [...this.requests].sort()) {
      const [route, status] = k.split('|');
      out.push(`tilegraph_http_requests_total{route="${label(route!)}",status="${status}"} ${n}`);
    }
    head('tilegraph_render_duration_seconds', 'histogram', 'Time to render and encode one tile (cache misses only).');
    BUCKETS.forEach((b, i) => out.push(`tilegraph_render_duration_seconds_bucket{le="${b}"} ${this.renderBuckets[i]}`));
    out.push(`tilegraph_render_duration_seconds_bucket{le="+Inf"} ${this.renderCount}`);
    out.push(`tilegraph_render_duration_seconds_sum ${this.renderSum}`);
    out.push(`tilegraph_render_duration_seconds_count ${this.renderCount}`);
    head('tilegraph_render_errors_total', 'counter', 'Renders that failed (source, op, timeout).');
    out.push(`tilegraph_render_errors_total ${this.renderErrors}`);
    head('tilegraph_tile_cache_hits_total', 'counter', 'Tiles served from the in-memory cache.');
    out.push(`tilegraph_tile_cache_hits_total ${this.cacheHits}`);
    head('tilegraph_tile_cache_misses_total', 'counter', 'Tiles not in the cache (rendered, or joined a render in flight).');
    out.push(`tilegraph_tile_cache_misses_total ${this.cacheMisses}`);
    head('tilegraph_tile_cache_bytes', 'gauge', 'Bytes of encoded tiles held by the cache.');
    out.push(`tilegraph_tile_cache_bytes ${g.cacheBytes()}`);
    head('tilegraph_tile_cache_entries', 'gauge', 'Tiles held by the cache.');
    out.push(`tilegraph_tile_cache_entries ${g.cacheEntries()}`);
    head('tilegraph_render_queue_length', 'gauge', 'Renders waiting for a free slot.');
    out.push(`tilegraph_render_queue_length ${g.queueWaiting()}`);
    head('tilegraph_renders_in_flight', 'gauge', 'Renders running now.');
    out.push(`tilegraph_renders_in_flight ${g.rendersRunning()}`);
    head('tilegraph_style_reloads_total', 'counter', 'Style reloads (--watch) by result.');
    out.push(`tilegraph_style_reloads_total{result="ok"} ${this.reloadsOk}`);
    out.push(`tilegraph_style_reloads_total{result="error"} ${this.reloadsFailed}`);
    head('tilegraph_style_info', 'gauge', 'The style version being served.');
    out.push(`tilegraph_style_info{version="${label(g.styleVersion())}"} 1`);
    head('tilegraph_png_deflate_info', 'gauge', "The PNG encoder's deflate: libdeflate (the addon) or node:zlib (its fallback).");
    out.push(`tilegraph_png_deflate_info{deflate="${label(deflateInfo().name)}"} 1`);
    head('tilegraph_cpu_kernels_info', 'gauge', "The CPU backend's noise octaves: the kernels addon's AVX-512 copy or WebAssembly (its fallback).");
    out.push(`tilegraph_cpu_kernels_info{kernels="${label(kernelsInfo().name)}"} 1`);
    if (memory) {
      head('process_resident_memory_bytes', 'gauge', 'Resident memory of the whole process (every thread, native libraries included).');
      out.push(`process_resident_memory_bytes ${memory.rss}`);
      head(
        'tilegraph_thread_memory_bytes',
        'gauge',
        'Memory by thread: V8 heap used and reserved, external and ArrayBuffer bytes, source cache and free canvas buffers (render workers).',
      );
      for (const t of memory.threads)
        for (const [k, kind] of MEMORY_KINDS)
          if (t[k] !== undefined) out.push(`tilegraph_thread_memory_bytes{thread="${label(t.thread)}",kind="${kind}"} ${t[k]}`);
    }
    return out.join('\n') + '\n';
  }
}
