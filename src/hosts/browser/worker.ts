// The render worker: one TileEngine, renders tiles on request so the page stays responsive.
import { TileEngine } from './engine.js';
import { toWire, type FromWorker, type ToWorker } from './protocol.js';

// The hosts' one worker protocol (src/hosts/protocol.ts), as the Node render worker speaks it.

interface WorkerScope {
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (ev: MessageEvent<ToWorker>) => void): void;
}
const scope = self as unknown as WorkerScope;

let engine: Promise<TileEngine> | undefined;
const running = new Map<number, AbortController>();

scope.addEventListener('message', (ev) => {
  const msg = ev.data;
  switch (msg.type) {
    case 'init':
      engine = TileEngine.create(msg.init);
      engine.then(
        (e) => scope.postMessage({ type: 'ready', key: msg.key, info: { backend: e.backendName, adapter: e.adapter } }),
        (err) => scope.postMessage({ type: 'init-error', key: msg.key, error: toWire(err) }),
      );
      return;
    case 'render': {
      const ac = new AbortController();
      running.set(msg.id, ac);
      (async () => {
        if (!engine) throw new Error('the render worker got a tile before its style');
        const px = await (await engine).render(msg.job, ac.signal);
        scope.postMessage({ type: 'done', id: msg.id, result: px }, [px.data.buffer]);
      })()
        .catch((err) => scope.postMessage({ type: 'error', id: msg.id, error: toWire(err) }))
        .finally(() => running.delete(msg.id));
      return;
    }
    case 'cancel':
      running.get(msg.id)?.abort();
      return;
  }
});
