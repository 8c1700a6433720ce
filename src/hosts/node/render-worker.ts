// Worker thread of the Node render pool: builds the styles it is sent and renders windows to PNG,
// on the CPU backend or, in a GPU pool, on a GPU device of its own (Dawn makes one per thread; a
// device cannot be shared between threads). Everything a tile costs the CPU (sources, features,
// triangulation, contours, the readback's decode, the PNG encode) runs here, on this thread's core,
// while the GPU executes the passes of every worker. It speaks the hosts' one worker protocol
// (src/hosts/protocol.ts), as the browser's render worker does.
import { parentPort, workerData } from 'node:worker_threads';
import { CpuBackend, ParamValues, releaseRaster, RenderError, TileCache, type Backend, type Renderer } from '../../index.js';
import type { GpuBackend } from '../../backends/gpu/backend.js';
import { toWire } from '../protocol.js';
import { closeGpu, createGpuBackend } from './gpu.js';
import { encodePngSync, pngEncodeTimings } from './png.js';
import type { PoolWorkerData, WorkerMemory, WorkerReply, WorkerRequest, WorkerStats } from './render-pool.js';
import { poolStats } from '../../backends/cpu/pool.js';
import { rendererFromText } from './style-file.js';

const port = parentPort!;
const data = (workerData ?? {}) as PoolWorkerData;
/** The backend, made on the first render (a GPU device takes a moment; a CPU worker needs none). */
let backendP: Promise<Backend> | undefined;
let gpu: GpuBackend | undefined;
/** Recent style versions, least recently rendered first (a gallery's styles; a reload keeps the previous version for renders still queued): the renderer, or why it failed to build. */
const styles = new Map<string, Renderer | { error: unknown }>();
const running = new Map<number, AbortController>();
let renders = 0;
let builds = 0;
/**
 * One source cache for every style and version this worker holds, so `--source-cache-mb` bounds
 * the worker whatever the number of styles (a gallery's seven held one each, issue 23).
 */
const tileCaches = new Map<number, TileCache>();
const sharedCache = (bytes = 128 * 1024 * 1024): TileCache => {
  let c = tileCaches.get(bytes);
  if (!c) tileCaches.set(bytes, (c = new TileCache({ maxBytes: bytes })));
  return c;
};

const reply = (m: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

function backend(): Promise<Backend> {
  if (data.backend !== 'gpu') return (backendP ??= Promise.resolve(new CpuBackend()));
  backendP ??= createGpuBackend({ allowFallback: data.allowFallback ?? false }).then((b) => {
    if (!b) throw new RenderError('no WebGPU adapter in the render worker (the main thread found one)');
    gpu = b;
    return b;
  });
  // A failure is the answer of this render; a later render tries again.
  backendP.catch(() => (backendP = undefined));
  return backendP;
}

function memory(): WorkerMemory {
  const m = process.memoryUsage();
  let sourceCache = 0;
  for (const c of tileCaches.values()) sourceCache += c.stats.bytes;
  return { heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, sourceCache, bufferPool: poolStats().bytes };
}

function stats(): WorkerStats {
  return {
    renders,
    builds,
    styles: styles.size,
    png: { ...pngEncodeTimings },
    gpu: gpu && { timings: { ...gpu.timings }, pipelining: { ...gpu.pipelining } },
    memory: memory(),
  };
}

port.on('message', async (m: WorkerRequest) => {
  switch (m.type) {
    case 'init': {
      builds++;
      styles.delete(m.key);
      try {
        styles.set(m.key, rendererFromText(m.init.text, { ...m.init, tileCache: sharedCache(m.init.sourceCacheBytes) }));
        reply({ type: 'ready', key: m.key, info: {} });
      } catch (e) {
        styles.set(m.key, { error: e });
        reply({ type: 'init-error', key: m.key, error: toWire(e) });
      }
      while (styles.size > (data.maxStyles ?? 2)) styles.delete(styles.keys().next().value!);
      return;
    }
    case 'cancel':
      running.get(m.id)?.abort();
      return;
    case 'stats':
      reply({ type: 'stats', id: m.id, stats: stats() });
      return;
    case 'close':
      // Release the GPU device before the thread ends (the pool terminates a worker that does not end).
      for (const ac of running.values()) ac.abort();
      await closeGpu().catch(() => undefined);
      port.close();
      return;
    case 'render': {
      const ac = new AbortController();
      running.set(m.id, ac);
      try {
        const style = styles.get(m.key);
        if (!style) throw new Error(`style version ${m.key} is not loaded in this worker`);
        // Least recently used first: the pool orders its list of this worker's styles alike.
        styles.delete(m.key);
        styles.set(m.key, style);
        if ('error' in style) throw style.error;
        // Values, validated on the caller's side, checked against the declarations here; never re-parsed.
        const params = ParamValues.fromValues(style.plan.params, m.job.params);
        // Encoded and given back at once (never transferred): a raster in the canvas arena is read
        // where it lies, not copied into a buffer of the worker's own first.
        const { raster } = await style.renderWindow(m.job.window, params, { backend: await backend(), signal: ac.signal, arenaOutput: true });
        const png = encodePngSync(raster, { compressionLevel: m.job.compressionLevel });
        releaseRaster(raster); // encoded: its buffer serves the next render
        renders++;
        // The PNG owns its buffer: moved to the main thread, not copied.
        reply({ type: 'done', id: m.id, result: png }, [png.buffer as ArrayBuffer]);
      } catch (e) {
        reply({ type: 'error', id: m.id, error: toWire(e) });
      } finally {
        running.delete(m.id);
      }
    }
  }
});
