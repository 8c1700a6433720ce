// The hosts' one worker protocol (issue 9 part 4): the Node pool's worker threads revive errors as
// their own classes (a ParamError thrown in a worker is a ParamError here), params cross as values,
// a cancel stops a render and the worker serves the next one.
import { readFileSync } from 'node:fs';
import { CpuBackend, LimitError, ParamError, RenderError, SourceError, StyleError, type ParamValues } from '../../src/index.js';
import { fromWire, toWire } from '../../src/hosts/protocol.js';
import { WORKER_STYLES, WorkerPool } from '../../src/hosts/node/render-pool.js';
import { loadStyleFile, type LoadedStyle } from '../../src/hosts/node/style-file.js';
import { tileWindow } from '../../src/types.js';
import { TileService } from '../../src/hosts/server/service.js';
import { differenceFromRaster } from '../helpers/decode.js';
import { requireBuild, WORKER, writeFixtures, type Fixture } from './fixtures.js';

let fx: Fixture;
let style: LoadedStyle;
let pool: WorkerPool;

beforeAll(async () => {
  requireBuild();
  fx = writeFixtures();
  style = await loadStyleFile(fx.shapes);
  pool = new WorkerPool({ size: 1, workerUrl: WORKER });
});
afterAll(() => pool.close());

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
}

test('a ParamError thrown in a worker is a ParamError in the caller, with its problems', async () => {
  // Values the worker checks against the declarations: alpha is declared 0..1.
  const forged = { toValues: () => ({ alpha: 5 }) } as unknown as ParamValues;
  const e = await rejection(pool.render(style, tileWindow({ z: 0, x: 0, y: 0 }, 256), forged));
  expect(e).toBeInstanceOf(ParamError);
  expect((e as ParamError).problems).toEqual([{ pointer: '', param: 'alpha', message: "param 'alpha': 5 is above its max 1" }]);
});

test('valid values render; the PNG decodes (libvips) to the pixels of an in-process render', async () => {
  const params = style.renderer.params({ fill: '#00ff00', alpha: '0.5' });
  const png = await pool.render(style, tileWindow({ z: 1, x: 0, y: 0 }, 256), params);
  const here = await style.renderer.renderWindow(tileWindow({ z: 1, x: 0, y: 0 }, 256), params, { backend: new CpuBackend() });
  expect(await differenceFromRaster(png, here.raster)).toBeUndefined();
});

test('a SourceError keeps its class and source; a style that fails to build in the worker rejects its renders with the StyleError', async () => {
  const missing = await loadStyleFile(fx.missingSource);
  const e = await rejection(pool.render(missing, tileWindow({ z: 0, x: 0, y: 0 }, 256), missing.renderer.params()));
  expect(e).toBeInstanceOf(SourceError);
  expect((e as SourceError).source).toBe('shapes');
  // The same version key with text the worker cannot build (the main thread never would send it).
  const broken: LoadedStyle = {
    ...style,
    text: readFileSync(fx.brokenJson, 'utf8'),
    renderer: { ...style.renderer, version: 'broken-v' } as unknown as LoadedStyle['renderer'],
  };
  const s = await rejection(pool.render(broken, tileWindow({ z: 0, x: 0, y: 0 }, 256), style.renderer.params()));
  expect(s).toBeInstanceOf(StyleError);
});

test('cancel: an aborted render rejects with the abort reason, and the worker serves the next render', async () => {
  const ac = new AbortController();
  const p = pool.render(style, tileWindow({ z: 3, x: 1, y: 1 }, 512), style.renderer.params(), ac.signal);
  ac.abort(new DOMException('stop', 'AbortError'));
  expect(((await rejection(p)) as Error).name).toBe('AbortError');
  const png = await pool.render(style, tileWindow({ z: 0, x: 0, y: 0 }, 256), style.renderer.params());
  expect(png.length).toBeGreaterThan(100);
});

test('the wire format revives every error class of the core', () => {
  const round = (e: unknown) => fromWire(structuredClone(toWire(e)));
  expect(round(new LimitError('too big'))).toBeInstanceOf(LimitError);
  expect(round(new RenderError('op failed'))).toBeInstanceOf(RenderError);
  const s = round(new SourceError('roads', '1/2/3', 'HTTP 404')) as SourceError;
  expect(s).toBeInstanceOf(SourceError);
  expect([s.source, s.tile, s.message]).toEqual(['roads', '1/2/3', "/sources/roads: source 'roads' tile 1/2/3: HTTP 404"]);
  expect(round(new DOMException('late', 'TimeoutError'))).toMatchObject({ name: 'TimeoutError' });
});

test('a worker that dies mid-render fails its render alone; the pool replaces it and serves the next render (issue 13 defect 1)', async () => {
  const one = new WorkerPool({ size: 1, workerUrl: WORKER });
  try {
    await one.render(style, tileWindow({ z: 0, x: 0, y: 0 }, 256), style.renderer.params()); // warm: the worker has answered
    const p = one.render(style, tileWindow({ z: 3, x: 1, y: 1 }, 512), style.renderer.params());
    // What a fatal error in the worker looks like from here: its thread ends.
    const slots = (one as unknown as { slots: { worker: { terminate(): Promise<number> } }[] }).slots;
    await slots[0]!.worker.terminate();
    const e = await rejection(p);
    expect(e).toBeInstanceOf(RenderError);
    expect((e as Error).message).toMatch(/a render worker stopped/);
    const png = await one.render(style, tileWindow({ z: 0, x: 0, y: 0 }, 256), style.renderer.params());
    expect(png.length).toBeGreaterThan(100);
  } finally {
    await one.close();
  }
});

test("a worker's stats say where its memory is: its V8 heap, its source cache (shared by its styles), its free buffers; the service adds the main thread (GET /metrics)", async () => {
  const one = new WorkerPool({ size: 1, workerUrl: WORKER });
  try {
    // Rendered twice: a canvas's sampled GeoJSON groups are kept from its second sample on (docs/sources.md, Cache).
    for (let i = 0; i < 2; i++) await one.render(style, tileWindow({ z: 2, x: 1, y: 1 }, 256), style.renderer.params());
    const [s] = await one.stats();
    expect(s!.memory.heapUsed).toBeGreaterThan(0);
    expect(s!.memory.heapTotal).toBeGreaterThanOrEqual(s!.memory.heapUsed);
    expect(s!.memory.arrayBuffers).toBeGreaterThan(0);
    expect(s!.memory.sourceCache).toBeGreaterThan(0); // the sampled shapes of the tile
    // A second style in the same worker adds its entries to the same cache, within one bound.
    const other = await loadStyleFile(fx.shapes, { sourceCacheBytes: 128 * 1024 * 1024 });
    const otherStyle: LoadedStyle = { ...other, renderer: { ...other.renderer, version: 'other-v' } as unknown as LoadedStyle['renderer'] };
    for (let i = 0; i < 2; i++) await one.render(otherStyle, tileWindow({ z: 2, x: 2, y: 1 }, 256), style.renderer.params());
    const [t] = await one.stats();
    expect(t!.memory.sourceCache).toBeGreaterThan(s!.memory.sourceCache);
    const service = new TileService({ style, renderer: one, log: () => undefined });
    const m = await service.memory();
    expect(m.threads.map((x) => x.thread)).toEqual(['main', 'worker0']);
    expect(m.rss).toBeGreaterThan(m.threads[0]!.heapTotal);
    expect(service.metrics.text(m)).toMatch(/^tilegraph_thread_memory_bytes\{thread="worker0",kind="source_cache"\} [1-9]\d*$/m);
  } finally {
    await one.close();
  }
  expect(await one.stats()).toEqual([]); // closed: nothing to ask, no wait
});

test('a worker keeps the styles of a gallery built: a round robin over three styles builds each once (it kept two, and rebuilt one per tile)', async () => {
  const one = new WorkerPool({ size: 1, workerUrl: WORKER });
  try {
    const versions = ['g-a', 'g-b', 'g-c'].map((v) => ({ ...style, renderer: { ...style.renderer, version: v } as unknown as LoadedStyle['renderer'] }));
    for (let round = 0; round < 3; round++)
      for (const s of versions) expect((await one.render(s, tileWindow({ z: 0, x: 0, y: 0 }, 256), style.renderer.params())).length).toBeGreaterThan(100);
    const [s] = await one.stats();
    expect(s!.renders).toBe(9);
    expect(s!.builds).toBe(3);
    expect(s!.styles).toBe(3);
    // Past WORKER_STYLES, the least recently rendered goes; the pool's list and the worker's agree
    // (a render of a style the worker dropped would fail 'not loaded in this worker').
    const many = Array.from({ length: WORKER_STYLES + 2 }, (_, i) => ({
      ...style,
      renderer: { ...style.renderer, version: `m-${i}` } as unknown as LoadedStyle['renderer'],
    }));
    for (const v of [...many, versions[2]!, ...many.slice(0, 3)]) await one.render(v, tileWindow({ z: 0, x: 0, y: 0 }, 256), style.renderer.params());
    const [t] = await one.stats();
    expect(t!.styles).toBe(WORKER_STYLES);
    expect(t!.builds).toBe(3 + many.length + 1 + 3);
  } finally {
    await one.close();
  }
});
