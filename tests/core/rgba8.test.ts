// The 8-bit output: toRGBA8 in WebAssembly (png-rows.wat's `convert`) against toRGBA8Reference,
// its TypeScript reference, byte for byte; and a render asked for RGBA8 (the preview's tiles:
// RenderOptions.rgba8) against toRGBA8 of the same render's raster, with and without a node cache,
// the cache's canvases left as they were.
import { NodeCache, Renderer } from '../../src/index.js';
import { toRGBA8, toRGBA8Reference } from '../../src/render/encode.js';
import { arenaAlloc, arenaFree, inArena } from '../../src/util/wasm-arena.js';
import { squareFeature } from '../helpers/geometry.js';
import { rng } from '../helpers/random.js';

/** Premultiplied pixels of every kind: opaque, translucent, transparent, runs of one colour, out-of-range and non-finite values. */
function pixels(n: number, seed: number): Float32Array {
  const r = rng(seed);
  const d = new Float32Array(n * 4);
  for (let i = 0; i < n * 4; i += 4) {
    if (i > 0 && r() < 0.3) {
      d.copyWithin(i, i - 4, i); // a run
      continue;
    }
    const kind = r();
    const a = kind < 0.4 ? 1 : kind < 0.55 ? 0 : kind < 0.6 ? 1 + r() : kind < 0.62 ? -r() : r();
    for (let c = 0; c < 3; c++) d[i + c] = r() * Math.max(0, Math.min(1, a)) * (r() < 0.02 ? 3 : 1);
    d[i + 3] = a;
    if (r() < 0.01) d[i + Math.floor(r() * 4)] = r() < 0.5 ? Number.NaN : -0;
    if (r() < 0.01) d[i] = 127.5 / 255; // a tie once scaled
  }
  return d;
}

describe('toRGBA8', () => {
  test('in WebAssembly: the bytes of the TypeScript reference, in the arena and outside it, with and without `out`', () => {
    for (const [w, h, seed] of [
      [1, 1, 1],
      [7, 3, 2],
      [256, 256, 3],
      [300, 17, 4],
    ] as const) {
      const data = pixels(w * h, seed);
      const ref = toRGBA8Reference({ kind: 'raster', width: w, height: h, data });
      const arena = arenaAlloc(w * h * 4, false)!;
      arena.set(data);
      expect(inArena(arena)).toBe(true);
      for (const d of [data, arena]) {
        const raster = { kind: 'raster' as const, width: w, height: h, data: d };
        expect(Buffer.compare(Buffer.from(toRGBA8(raster)), Buffer.from(ref))).toBe(0);
        const out = new Uint8ClampedArray(w * h * 4).fill(7);
        expect(toRGBA8(raster, out)).toBe(out);
        expect(Buffer.compare(Buffer.from(out), Buffer.from(ref))).toBe(0);
      }
      arenaFree(arena);
    }
  });
});

describe('a render asked for RGBA8 (RenderOptions.rgba8)', () => {
  const style = {
    output: 'out',
    params: { width: { type: 'number', default: 1.5, min: 0, max: 4 } },
    sources: { c: { type: 'geojson', data: { type: 'FeatureCollection', features: [squareFeature(-40, -20, 50), squareFeature(20, 10, 30)] } } },
    nodes: {
      f: { op: 'features', source: 'c' },
      sea: { op: 'solid', color: '#a9cfe6' },
      land: { op: 'fill-solid', features: '@f', fill: '#f3efe28c' },
      a: { op: 'blend', base: '@sea', over: '@land' },
      line: { op: 'stroke-solid', features: '@f', color: '#333333', width: '$width' },
      out: { op: 'blend', base: '@a', over: '@line' },
    },
  };
  const W = { z: 1, x0: 180, y0: 160, width: 96, height: 96, tileSize: 256 };

  test('the bytes of toRGBA8 of the raster, with and without a node cache; the cached canvases unchanged', async () => {
    const plain = Renderer.create(style);
    const cached = Renderer.create(style, { nodeCache: new NodeCache() });
    for (const width of ['1.5', '3', '1.5']) {
      const p = plain.params({ width });
      const expected = toRGBA8Reference((await plain.renderWindow(W, p)).raster);
      for (const r of [plain, cached]) {
        const got = await r.renderWindow(W, r.params({ width }), { rgba8: true });
        expect(got.raster.width).toBe(96);
        expect(got.raster.data.length).toBe(0);
        expect(Buffer.compare(Buffer.from(got.rgba8!), Buffer.from(expected))).toBe(0);
      }
      // The cache's output canvas was read, not given back to the pool: a render from the cache
      // (every node a hit) still gives the same bytes.
      const again = await cached.renderWindow(W, cached.params({ width }), { rgba8: true });
      expect(again.stats.nodes).toBe(0);
      expect(Buffer.compare(Buffer.from(again.rgba8!), Buffer.from(expected))).toBe(0);
    }
  });
  test("into an array of the output's bytes (a recycled buffer), else into a new one", async () => {
    const r = Renderer.create(style, { nodeCache: new NodeCache() });
    for (const width of ['1.5', '3']) {
      const expected = toRGBA8Reference((await Renderer.create(style).renderWindow(W, r.params({ width }))).raster);
      const spare = new Uint8ClampedArray(96 * 96 * 4).fill(7);
      const got = await r.renderWindow(W, r.params({ width }), { rgba8: spare });
      expect(got.rgba8).toBe(spare);
      expect(Buffer.compare(Buffer.from(spare), Buffer.from(expected))).toBe(0);
      // One of another size is left alone.
      const small = new Uint8ClampedArray(16).fill(7);
      const other = await r.renderWindow(W, r.params({ width }), { rgba8: small });
      expect(other.rgba8).not.toBe(small);
      expect(small.every((v) => v === 7)).toBe(true);
      expect(Buffer.compare(Buffer.from(other.rgba8!), Buffer.from(expected))).toBe(0);
    }
  });
});
