// Worker thread of the render pool: builds the styles it is sent and renders windows to PNG on the CPU.
import { parentPort } from 'node:worker_threads';
import { CpuBackend, TilegraphError, type Renderer, type Window } from '../../index.js';
import { encodePng } from './png.js';
import { rendererFromText } from './style-file.js';
import type { WorkerReply, WorkerRequest } from './render-pool.js';

const port = parentPort!;
const backend = new CpuBackend();
/** Recent style versions by version; a reload keeps the previous one for renders still queued. */
const styles = new Map<string, Renderer>();
const running = new Map<number, AbortController>();

function serializeError(e: unknown): WorkerReply & { ok: false } {
  if (e instanceof TilegraphError) {
    return { id: 0, ok: false, error: { name: e.name, code: e.code, message: e.message, problems: e.problems, source: (e as { source?: string }).source } };
  }
  const err = e as Error;
  return { id: 0, ok: false, error: { name: err?.name ?? 'Error', message: err?.message ?? String(e) } };
}

port.on('message', async (m: WorkerRequest) => {
  if (m.type === 'load') {
    try {
      styles.delete(m.version);
      styles.set(m.version, rendererFromText(m.text, m.baseDir, m.allowOutside));
      while (styles.size > 2) styles.delete(styles.keys().next().value!);
    } catch {
      // The main thread built the same text successfully; a failure here surfaces on render.
    }
    return;
  }
  if (m.type === 'abort') {
    running.get(m.id)?.abort();
    return;
  }
  const ac = new AbortController();
  running.set(m.id, ac);
  try {
    const renderer = styles.get(m.version);
    if (!renderer) throw new Error(`style version ${m.version} is not loaded in this worker`);
    const params = renderer.params(m.overrides);
    const { raster } = await renderer.renderWindow(m.window as Window, params, { backend, signal: ac.signal });
    const png = await encodePng(raster, { compressionLevel: m.compressionLevel });
    port.postMessage({ id: m.id, ok: true, png } satisfies WorkerReply);
  } catch (e) {
    port.postMessage({ ...serializeError(e), id: m.id });
  } finally {
    running.delete(m.id);
  }
});
