// Live reload: the server pushes `reload` after `serve --watch` reloads the style; the page then
// reloads keeping the params that still exist, or says why the changed file does not load.
import type { Renderer } from '../index.js';
import { type PreviewState, root, setStatus } from './state.js';

/** Listen to the server's events (where the browser has EventSource). */
export function connectLiveReload(state: PreviewState, renderer: Renderer): void {
  if (typeof EventSource === 'undefined') return;
  const events = new EventSource(new URL('events', root));
  events.addEventListener('hello', () => (state.live = true));
  events.addEventListener('reload', (ev) => {
    const r = JSON.parse((ev as MessageEvent<string>).data) as { ok: boolean; version: string; error?: string };
    if (r.ok && r.version !== renderer.version) void reloadKeeping();
    else if (!r.ok) setStatus(`The style file changed but does not load (still showing the previous version): ${r.error}`, true);
  });
}

/** Keep the params that still exist (and still validate), then reload the page. */
async function reloadKeeping(): Promise<void> {
  const schema = (await (await fetch(new URL('style/params', root), { cache: 'no-store' })).json()) as { properties?: Record<string, unknown> };
  const q = new URLSearchParams(location.search);
  for (const name of [...q.keys()]) if (!(name in (schema.properties ?? {}))) q.delete(name);
  const s = q.toString();
  history.replaceState(history.state, '', `${location.pathname}${s ? '?' + s : ''}${location.hash}`);
  location.reload();
}
