// The render worker's node cache (engine.ts): it keeps what a param change reuses and nothing that
// reads the param being dragged; pixels equal a render that keeps nothing.
import { NodeCache, Renderer, type Raster } from '../../index.js';
import { squareFeature } from '../../../tests/helpers/geometry.js';
import { DragAwareNodeCache, TileEngine } from './engine.js';

const square = squareFeature;

const style = {
  output: 'out',
  params: {
    land: { type: 'color', default: '#f3efe2' },
    width: { type: 'number', default: 1.5, min: 0, max: 4 },
    sigma: { type: 'number', default: 3, min: 0, max: 8 },
  },
  sources: { c: { type: 'geojson', data: { type: 'FeatureCollection', features: [square(-40, -20, 50), square(20, 10, 30)] } } },
  nodes: {
    f: { op: 'features', source: 'c' },
    sea: { op: 'solid', color: '#a9cfe6' },
    shape: { op: 'fill-solid', features: '@f', fill: '#10304a' },
    shadow: { op: 'blur', input: '@shape', sigma: '$sigma' },
    shaded: { op: 'blend', base: '@sea', over: '@shadow', opacity: 0.5 },
    land: { op: 'fill-solid', features: '@f', fill: '$land' },
    a: { op: 'blend', base: '@shaded', over: '@land' },
    line: { op: 'stroke-solid', features: '@f', color: '#333333', width: '$width' },
    out: { op: 'blend', base: '@a', over: '@line' },
  },
};

const W = { z: 1, x0: 180, y0: 160, width: 96, height: 96, tileSize: 256 };
const same = (a: Raster, b: Raster) => a.data.length === b.data.length && a.data.every((v, i) => v === b.data[i]);

test('a dragged param: its readers are neither looked up nor kept; the rest still comes from the cache', async () => {
  const cache = new DragAwareNodeCache();
  const cached = Renderer.create(style, { nodeCache: cache });
  // Nothing kept, same plan shape (with a node cache, paints whose composite reads more params
  // stay their own nodes: render.ts fusionsFor); tests/core/incremental.test.ts checks the encoded
  // pixels against a render with no cache at all.
  const fresh = Renderer.create(style, { nodeCache: new NodeCache(0) });
  const run = async (r: Renderer, p: Record<string, string>) => {
    const values = r.params(p);
    if (r === cached) cache.observe(values.toValues());
    return r.renderWindow(W, values);
  };
  const first = await run(cached, {});
  expect(first.stats.cached).toBe(0);
  const readers = (param: string) => cached.plan.order.filter((id) => cached.plan.nodes.get(id)!.params.has(param));

  for (const sigma of ['4', '5', '6']) {
    const before = cache.stats.entries;
    const r = await run(cached, { sigma });
    expect(same(r.raster, (await run(fresh, { sigma })).raster)).toBe(true);
    expect(r.stats.cached).toBeGreaterThan(0); // features, sea, shape: from the cache
    if (sigma !== '4') expect(cache.stats.entries).toBe(before); // nothing reading sigma was kept
  }
  expect(readers('sigma').length).toBeGreaterThan(0);

  // Another param moves: sigma is no longer hot, so the nodes reading it at its last value are kept from now on.
  const w1 = await run(cached, { sigma: '6', width: '2' });
  expect(same(w1.raster, (await run(fresh, { sigma: '6', width: '2' })).raster)).toBe(true);
  const w2 = await run(cached, { sigma: '6', width: '2.5' });
  expect(same(w2.raster, (await run(fresh, { sigma: '6', width: '2.5' })).raster)).toBe(true);
  expect(w2.stats.cached).toBeGreaterThan(w1.stats.cached);
});

test("a given-back pixel buffer takes a later render's pixels of its size; the oldest kept make room", async () => {
  const engine = await TileEngine.create({ style: style as never, baseUrl: 'http://localhost/', backend: 'cpu' });
  const tile = { z: 1, x: 1, y: 0 };
  const params = engine.core.params().toValues();
  const first = await engine.render({ tile, tileSize: 96, params });
  const pixels = first.data.slice();
  expect(engine.spareBuffers).toBe(0);
  engine.giveBack(first.data.buffer as ArrayBuffer);
  expect(engine.spareBuffers).toBe(1);
  first.data.fill(7);
  const again = await engine.render({ tile, tileSize: 96, params });
  expect(again.data.buffer).toBe(first.data.buffer);
  expect(Buffer.compare(Buffer.from(again.data), Buffer.from(pixels))).toBe(0);
  expect(engine.spareBuffers).toBe(0);
  // A buffer of another size stays, unused, until newer ones push it out.
  engine.giveBack(new ArrayBuffer(16));
  const other = await engine.render({ tile, tileSize: 96, params });
  expect(other.data.buffer.byteLength).toBe(96 * 96 * 4);
  expect(engine.spareBuffers).toBe(1);
  for (let i = 0; i < 8; i++) engine.giveBack(new ArrayBuffer(96 * 96 * 4));
  expect(engine.spareBuffers).toBe(8);
  engine.giveBack(new ArrayBuffer(17 * 2 ** 20)); // larger than the bound: not kept
  expect(engine.spareBuffers).toBe(8);
});
