// GET /events: server-sent events for the preview's live reload (issue 15 item 4), and the
// source rule the preview relies on to open on real data without errors (issue 15 item 2).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openStyle } from '../../src/hosts/node/index.js';
import { serve } from '../../src/hosts/server/serve.js';
import { fixturesTest } from '../helpers/fixtures.js';
import { ROOT, shapesStyle, writeFixtures, type Fixture } from './fixtures.js';

let fx: Fixture;
beforeAll(() => {
  fx = writeFixtures();
});

/** Read server-sent events until `done` says enough; returns them as {event, data}. */
async function readEvents(
  url: string,
  done: (events: { event: string; data: string }[]) => boolean,
  onOpen?: () => void,
  ms = 10_000,
): Promise<{ events: { event: string; data: string }[]; headers: Headers }> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), ms);
  const res = await fetch(url, { signal: ac.signal });
  const events: { event: string; data: string }[] = [];
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  let opened = false;
  try {
    while (!done(events)) {
      const { value, done: end } = await reader.read();
      if (end) break;
      buf += dec.decode(value, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event) events.push({ event, data: data ?? '' });
      }
      if (!opened && events.length) {
        opened = true;
        onOpen?.();
      }
    }
  } finally {
    clearTimeout(timer);
    ac.abort();
  }
  return { events, headers: res.headers };
}

test('GET /events says hello, then one reload event per reload of a changed file (ok, then a failure)', async () => {
  const file = path.join(fx.dir, 'events.json');
  writeFileSync(file, JSON.stringify(shapesStyle()));
  const s = await serve({ style: file, port: 0, watch: true, workers: 0, backend: 'cpu', log: () => undefined });
  try {
    const v1 = s.service.version;
    const { events, headers } = await readEvents(
      `${s.url}events`,
      (ev) => ev.some((e) => e.event === 'reload' && e.data.includes('"ok":false')),
      () => {
        writeFileSync(file, JSON.stringify(shapesStyle({ fill: '#0000ff' })));
        // After the good reload, a broken file.
        const wait = setInterval(() => {
          if (s.service.version !== v1) {
            clearInterval(wait);
            setTimeout(() => writeFileSync(file, '{ "nodes": '), 200);
          }
        }, 50);
      },
    );
    expect(headers.get('content-type')).toBe('text/event-stream');
    expect(events[0]).toEqual({ event: 'hello', data: JSON.stringify({ version: v1 }) });
    const reloads = events.filter((e) => e.event === 'reload').map((e) => JSON.parse(e.data) as { ok: boolean; version: string; error?: string });
    const good = reloads.find((r) => r.ok)!;
    expect(good.version).toBe(s.service.version);
    expect(good.version).not.toBe(v1);
    const bad = reloads.at(-1)!;
    expect(bad).toMatchObject({ ok: false, version: good.version });
    expect(bad.error).toMatch(/JSON|parse|Unexpected/i);
    expect(s.service.reloadListeners.size).toBeLessThanOrEqual(1);
  } finally {
    await s.close(2000);
  }
  // The aborted stream unsubscribed (its 'close' may come a moment after the abort).
  for (let i = 0; i < 40 && s.service.reloadListeners.size > 0; i++) await new Promise((r) => setTimeout(r, 50));
  expect(s.service.reloadListeners.size).toBe(0);
});

test('a draining server ends open event streams, so shutdown does not wait for them', async () => {
  const s = await serve({ style: fx.shapes, port: 0, watch: true, workers: 0, backend: 'cpu', log: () => undefined });
  const res = await fetch(`${s.url}events`);
  const reader = res.body!.getReader();
  await reader.read(); // hello
  const t0 = Date.now();
  await s.close(10_000);
  expect(Date.now() - t0).toBeLessThan(3000);
  await expect(reader.read().then((r) => r.done)).resolves.toBe(true);
});

fixturesTest('a PMTiles source renders without error outside its bounds and below its detail (Florence at zoom 1 and 3)', async () => {
  const r = await openStyle(path.join(ROOT, 'golden/source-pmtiles-florence/style.json'), { allowOutside: true });
  const params = r.params();
  for (const t of [
    { z: 1, x: 1, y: 0 },
    { z: 3, x: 4, y: 2 },
    { z: 5, x: 0, y: 0 },
  ]) {
    const raster = await r.renderTile(t, params);
    expect(raster.width).toBe(256);
  }
  // At the archive's maxzoom, over the data, a layer that neither its metadata nor its tiles hold is still an error.
  const doc = JSON.parse(JSON.stringify(r.doc)) as { nodes: Record<string, Record<string, unknown>> };
  const fname = Object.keys(doc.nodes).find((k) => doc.nodes[k]!.op === 'features')!;
  doc.nodes[fname]!.layer = 'landuse_typo';
  const file = path.join(ROOT, 'golden/source-pmtiles-florence/.typo-style.json');
  writeFileSync(file, JSON.stringify(doc));
  try {
    const bad = await openStyle(file, { allowOutside: true });
    await expect(bad.renderTile({ z: 14, x: 8704, y: 5972 }, bad.params())).rejects.toThrow(/unknown layer 'landuse_typo'/);
    await expect(bad.renderTile({ z: 3, x: 4, y: 2 }, bad.params())).resolves.toBeDefined();
  } finally {
    (await import('node:fs')).rmSync(file, { force: true });
  }
});
