// Inputs written in place (OpContext.takeInput, src/render/render.ts): a blend writes its output
// into its base's own array where nothing else reads it afterwards. The oracle is the same render
// with no input ever handed over (every blend into a fresh array, as before): the pixels must be
// the same bits, and the renders that can hand inputs over must have done so (RenderStats.inPlace),
// so the comparison is not vacuous. The cases that must not hand over: a base another node reads
// later, a base that is also the node's source or mask, the render's output, a base the node cache
// holds, a base marked one value everywhere.
import path from 'node:path';
import { CpuBackend, NodeCache, Renderer, releaseRaster, tileWindow, type Raster } from '../../src/index.js';
import type { CpuSession } from '../../src/backends/cpu/backend.js';
import { loadStyleFile } from '../../src/hosts/node/style-file.js';
import { squareFeature } from '../helpers/geometry.js';
import { ROOT } from '../server/fixtures.js';

/** A CPU backend whose ops are never handed an input to write into. */
class NoInPlaceBackend extends CpuBackend {
  override begin(): CpuSession {
    const s = super.begin();
    const run = s.run.bind(s);
    s.run = async (op, ctx) => run(op, { ...ctx, takeInput: undefined });
    return s;
  }
}

const bits = (r: Raster) => Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength);

const style = {
  output: 'out',
  sources: { c: { type: 'geojson', data: { type: 'FeatureCollection', features: [squareFeature(-60, -30, 70), squareFeature(0, -50, 60)] } } },
  nodes: {
    f: { op: 'features', source: 'c' },
    paper: { op: 'solid', color: '#f4efe4' },
    grain: { op: 'noise', 'scale-px': 3, octaves: 2, seed: 4, output: 'raster' },
    land: { op: 'fill-solid', features: '@f', fill: '#c8d8a0d0' },
    edge: { op: 'stroke-solid', features: '@f', color: '#303030', width: 3 },
    // a base marked one value (paper) under a multiply: not handed over
    sheet: { op: 'blend', base: '@paper', over: '@grain', mode: 'multiply', opacity: 0.4 },
    // `land` is read by two blends and as a mask: only its last reader may take it
    tinted: { op: 'blend', base: '@land', over: '@grain', mode: 'screen', opacity: 0.5 },
    masked: { op: 'blend', base: '@sheet', over: '@tinted', mask: '@land' },
    // the same node as base and source: not handed over
    twice: { op: 'blend', base: '@edge', over: '@edge', mode: 'multiply' },
    // a chain: each base read once, by the next
    a: { op: 'blend', base: '@masked', over: '@twice', mode: 'multiply' },
    b: { op: 'blend', base: '@a', over: '@land', mode: 'darken', clip: true },
    c: { op: 'blend', base: '@b', over: '@edge', composite: 'erase', opacity: 0.3 },
    out: { op: 'blend', base: '@c', over: '@grain', mode: 'overlay', opacity: 0.2 },
  },
};

describe('inputs written in place', () => {
  const windows = [tileWindow({ z: 2, x: 1, y: 1 }, 256), { z: 1, x0: 170, y0: 150, width: 97, height: 61, tileSize: 256 }];

  test('a style of every hand-over case: the bits of the render that hands nothing over', async () => {
    const r = Renderer.create(style);
    for (const w of windows) {
      const plain = await r.renderWindow(w, r.params({}), { backend: new CpuBackend() });
      const oracle = await r.renderWindow(w, r.params({}), { backend: new NoInPlaceBackend() });
      expect(oracle.stats.inPlace).toBe(0);
      // masked, a, b, c and out take their bases (sheet, masked, a, b, c); tinted cannot (land is read later)
      expect(plain.stats.inPlace).toBe(5);
      expect(Buffer.compare(bits(plain.raster), bits(oracle.raster))).toBe(0);
    }
  });

  test('with a node cache nothing is handed over, and the cached canvases stay as they were', async () => {
    const cache = new NodeCache();
    const r = Renderer.create(style, { nodeCache: cache });
    const w = windows[0]!;
    const first = await r.renderWindow(w, r.params({}));
    expect(first.stats.inPlace).toBe(0);
    const expected = Buffer.from(bits(first.raster));
    const again = await r.renderWindow(w, r.params({}));
    expect(again.stats.nodes).toBe(0);
    expect(Buffer.compare(bits(again.raster), expected)).toBe(0);
    const oracle = await Renderer.create(style).renderWindow(w, r.params({}), { backend: new NoInPlaceBackend() });
    expect(Buffer.compare(bits(oracle.raster), expected)).toBe(0);
  });

  test('the gallery examples whose blends take their bases: the same bits on bench tiles', async () => {
    const tiles: [string, [number, number, number][]][] = [
      [
        'handdrawn',
        [
          [14, 4200, 6089],
          [14, 4201, 6090],
        ],
      ],
      [
        'watercolor',
        [
          [4, 8, 5],
          [4, 3, 6],
        ],
      ],
    ];
    let handed = 0;
    for (const [name, list] of tiles) {
      const { renderer } = await loadStyleFile(path.join(ROOT, 'examples', name, 'style.json'), {});
      for (const [z, x, y] of list) {
        const w = tileWindow({ z, x, y }, 256);
        const plain = await renderer.renderWindow(w, renderer.params({}), { backend: new CpuBackend() });
        const oracle = await renderer.renderWindow(w, renderer.params({}), { backend: new NoInPlaceBackend() });
        handed += plain.stats.inPlace;
        expect({ name, z, x, y, same: Buffer.compare(bits(plain.raster), bits(oracle.raster)) === 0 }).toEqual({ name, z, x, y, same: true });
        releaseRaster(plain.raster);
        releaseRaster(oracle.raster);
      }
    }
    expect(handed).toBeGreaterThan(10);
  });
});
