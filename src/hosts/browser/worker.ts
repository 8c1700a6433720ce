// The render worker: one TileEngine, renders tiles on request so the page stays responsive.
// CPU renders run one at a time, in the order they came; before each the worker returns to its
// event loop, so a `cancel` or `drop` of a queued render (a superseded param value) arrives before
// it starts, and it never runs. A running render stops at its next check of the signal.
import { TileEngine } from './engine.js';
import { toWire, type FromWorker, type RenderRequest, type ToWorker } from './protocol.js';

// The hosts' one worker protocol (src/hosts/protocol.ts), as the Node render worker speaks it.

interface WorkerScope {
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (ev: MessageEvent<ToWorker>) => void): void;
}
const scope = self as unknown as WorkerScope;

interface Queued {
  id: number;
  job: RenderRequest;
  ac: AbortController;
}

let engine: Promise<TileEngine> | undefined;
const queue: Queued[] = [];
const running = new Map<number, AbortController>();
/** Renders at once: one on the CPU (they would only interleave), several on a GPU (one records while another waits for its readback). */
let limit = 1;
let pumping = false;

/** A task boundary: messages posted meanwhile (cancel, drop) are handled before the next render starts. */
const channel = new MessageChannel();
const waiting: (() => void)[] = [];
channel.port1.onmessage = () => waiting.shift()?.();
const nextTask = () =>
  new Promise<void>((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });

async function pump(): Promise<void> {
  if (pumping) return;
  pumping = true;
  try {
    while (queue.length && running.size < limit) {
      await nextTask();
      const q = queue.shift();
      if (!q) break;
      running.set(q.id, q.ac);
      void run(q).finally(() => {
        running.delete(q.id);
        void pump();
      });
    }
  } finally {
    pumping = false;
  }
}

async function run(q: Queued): Promise<void> {
  try {
    if (!engine) throw new Error('the render worker got a tile before its style');
    const e = await engine;
    q.ac.signal.throwIfAborted();
    const px = await e.render(q.job, q.ac.signal);
    // On a GPU, made here and transferred: the page gets a texture source without another copy
    // or task, and this thread has other renders' readbacks to wait for meanwhile. On the CPU the
    // page makes it: here it held up the next render ~1 ms a tile (the copy into the bitmap), and
    // the page's thread is idle while the workers render (issue 25).
    if (q.job.bitmap && e.backendName === 'gpu') {
      const bitmap = await createImageBitmap(new ImageData(px.data as Uint8ClampedArray<ArrayBuffer>, px.width, px.height));
      const result = { width: px.width, height: px.height, data: new Uint8ClampedArray(0), bitmap, timing: px.timing };
      scope.postMessage({ type: 'done', id: q.id, result }, [bitmap]);
    } else scope.postMessage({ type: 'done', id: q.id, result: px }, [px.data.buffer]);
  } catch (err) {
    scope.postMessage({ type: 'error', id: q.id, error: toWire(err) });
  }
}

function unqueue(id: number): boolean {
  const i = queue.findIndex((q) => q.id === id);
  if (i < 0) return false;
  queue.splice(i, 1);
  scope.postMessage({ type: 'error', id, error: { name: 'AbortError', message: 'the render was aborted' } });
  return true;
}

scope.addEventListener('message', (ev) => {
  const msg = ev.data;
  switch (msg.type) {
    case 'init':
      engine = TileEngine.create(msg.init);
      engine.then(
        (e) => {
          limit = e.backendName === 'gpu' ? 4 : 1;
          scope.postMessage({ type: 'ready', key: msg.key, info: { backend: e.backendName, adapter: e.adapter } });
        },
        (err) => scope.postMessage({ type: 'init-error', key: msg.key, error: toWire(err) }),
      );
      return;
    case 'render':
      queue.push({ id: msg.id, job: msg.job, ac: new AbortController() });
      void pump();
      return;
    case 'cancel':
      if (!unqueue(msg.id)) running.get(msg.id)?.abort();
      return;
    case 'drop':
      unqueue(msg.id);
      return;
    case 'spare':
      void engine?.then((e) => e.giveBack(msg.buffer));
      return;
  }
});
