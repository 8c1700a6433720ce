// Incremental re-render: with a node cache, a param change re-runs only the nodes that read that
// param (directly or through their inputs); the pixels equal a fresh render.
import { NodeCache, Renderer, type Raster } from '../../src/index.js';
import { squareFeature } from '../helpers/geometry.js';
import { fusionsFor } from '../../src/render/render.js';
import { toRGBA8 } from '../../src/render/encode.js';

const square = squareFeature;

const style = {
  output: 'out',
  params: {
    land: { type: 'color', default: '#f3efe2' },
    border: { type: 'color', default: '#333333' },
    width: { type: 'number', default: 1.5, min: 0, max: 4 },
  },
  sources: { c: { type: 'geojson', data: { type: 'FeatureCollection', features: [square(-40, -20, 50), square(20, 10, 30)] } } },
  nodes: {
    f: { op: 'features', source: 'c' },
    sea: { op: 'solid', color: '#a9cfe6' },
    shape: { op: 'fill-solid', features: '@f', fill: '#10304a' },
    shadow: { op: 'blur', input: '@shape', sigma: 3 },
    shaded: { op: 'blend', base: '@sea', over: '@shadow', opacity: 0.5 },
    land: { op: 'fill-solid', features: '@f', fill: '$land' },
    a: { op: 'blend', base: '@shaded', over: '@land' },
    line: { op: 'stroke-solid', features: '@f', color: '$border', width: '$width' },
    out: { op: 'blend', base: '@a', over: '@line' },
  },
};

const W = { z: 1, x0: 180, y0: 160, width: 96, height: 96, tileSize: 256 };

function same(a: Raster, b: Raster): boolean {
  return a.data.length === b.data.length && a.data.every((v, i) => v === b.data[i]);
}

describe('incremental re-render', () => {
  const cached = Renderer.create(style, { nodeCache: new NodeCache() });
  // A fresh render of the same plan shape: a node cache that keeps nothing (with a cache, paints
  // whose composite reads more params stay their own nodes, so the float sums run in another order).
  const fresh = Renderer.create(style, { nodeCache: new NodeCache(0) });
  const fused = fusionsFor(cached.plan, true);
  /** Plan nodes that run (fused paint layers run inside their blends) and read `param`. */
  const readers = (param: string) =>
    cached.plan.order.filter((id) => ![...fused.values()].some((f) => f.paintId === id) && cached.plan.nodes.get(id)!.params.has(param));
  const run = (r: Renderer, p: Record<string, string>) => r.renderWindow(W, r.params(p));

  test('after a param change only the nodes reading it re-run, and the pixels equal a fresh render', async () => {
    const first = await run(cached, {});
    const executed = first.stats.nodes;
    expect(first.stats.cached).toBe(0);
    expect(same(first.raster, (await run(fresh, {})).raster)).toBe(true);

    for (const [param, value] of [
      ['border', '#aa0000'],
      ['land', '#204020'],
      ['width', '3'],
    ] as const) {
      const p = { [param]: value };
      const again = await run(cached, p);
      expect({ param, ran: again.stats.nodes }).toEqual({ param, ran: readers(param).length });
      expect(again.stats.cached).toBe(executed - readers(param).length);
      expect(same(again.raster, (await run(fresh, p)).raster)).toBe(true);
    }
    // A border change re-runs the stroke and one composite onto the cached land.
    expect(readers('border')).toEqual(['line', 'out']);
    // A land change re-runs the land fill painted onto the cached shadow; the stroke stays cached.
    expect(readers('land')).toEqual(['a', 'out']);

    // Back to the first values: nothing re-runs, same pixels.
    const back = await run(cached, {});
    expect(back.stats.nodes).toBe(0);
    expect(same(back.raster, first.raster)).toBe(true);
  });

  test('the caller owns the raster: writing into it does not touch the cache', async () => {
    const a = await run(cached, { land: '#123456' });
    a.raster.data.fill(0);
    const b = await run(cached, { land: '#123456' });
    expect(b.stats.nodes).toBe(0);
    expect(same(b.raster, (await run(fresh, { land: '#123456' })).raster)).toBe(true);
  });

  test('the encoded pixels equal a render without any node cache (where every paint fuses)', async () => {
    const none = Renderer.create(style);
    for (const p of [{}, { border: '#aa0000' }, { width: '3' }] as Record<string, string>[]) {
      const a = toRGBA8((await run(cached, p)).raster);
      const b = toRGBA8((await run(none, p)).raster);
      expect(a.every((v, i) => v === b[i])).toBe(true);
    }
  });

  test('the cache is bounded by bytes', async () => {
    const small = new NodeCache(200_000); // two 96 px RGBA float canvases (~147 KB each) do not fit
    const r = Renderer.create(style, { nodeCache: small });
    await r.renderWindow(W, r.params({}));
    expect(small.stats.bytes).toBeLessThanOrEqual(200_000);
  });
});
