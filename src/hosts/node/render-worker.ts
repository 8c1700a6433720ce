// Worker thread of the Node render pool: builds the styles it is sent and renders windows to PNG
// on the CPU. It speaks the hosts' one worker protocol (src/hosts/protocol.ts), as the browser's
// render worker does.
import { parentPort } from 'node:worker_threads';
import { CpuBackend, ParamValues, releaseRaster, type Renderer } from '../../index.js';
import { toWire } from '../protocol.js';
import { encodePngSync } from './png.js';
import type { WorkerReply, WorkerRequest } from './render-pool.js';
import { rendererFromText } from './style-file.js';

const port = parentPort!;
const backend = new CpuBackend();
/** Recent style versions (a reload keeps the previous one for renders still queued): the renderer, or why it failed to build. */
const styles = new Map<string, Renderer | { error: unknown }>();
const running = new Map<number, AbortController>();

const reply = (m: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

port.on('message', async (m: WorkerRequest) => {
  switch (m.type) {
    case 'init': {
      styles.delete(m.key);
      try {
        styles.set(m.key, rendererFromText(m.init.text, m.init));
        reply({ type: 'ready', key: m.key, info: {} });
      } catch (e) {
        styles.set(m.key, { error: e });
        reply({ type: 'init-error', key: m.key, error: toWire(e) });
      }
      while (styles.size > 2) styles.delete(styles.keys().next().value!);
      return;
    }
    case 'cancel':
      running.get(m.id)?.abort();
      return;
    case 'render': {
      const ac = new AbortController();
      running.set(m.id, ac);
      try {
        const style = styles.get(m.key);
        if (!style) throw new Error(`style version ${m.key} is not loaded in this worker`);
        if ('error' in style) throw style.error;
        // Values, validated on the caller's side, checked against the declarations here; never re-parsed.
        const params = ParamValues.fromValues(style.plan.params, m.job.params);
        const { raster } = await style.renderWindow(m.job.window, params, { backend, signal: ac.signal });
        const png = encodePngSync(raster, { compressionLevel: m.job.compressionLevel });
        releaseRaster(raster); // encoded: its buffer serves the next render
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
