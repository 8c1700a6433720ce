// The render core: canvases and margins, once-per-render evaluation, features sampling rules.
import { Renderer, type Backend, type Window } from '../../src/index.js';
import { CpuBackend, CpuSession } from '../../src/backends/cpu/backend.js';
import type { Loader } from '../../src/sources/types.js';
import type { OpContext, OpDef } from '../../src/ops/types.js';
import type { Features } from '../../src/types.js';
import { hookedBackend } from '../helpers/backends.js';

/** A CPU backend that records which node ran on which canvas. */
class Recording extends CpuBackend {
  runs: { id: string; op: string; canvas: Window }[] = [];
  override begin(): CpuSession {
    const runs = this.runs;
    return new (class extends CpuSession {
      override async run(op: OpDef, ctx: OpContext) {
        runs.push({ id: ctx.id, op: op.name, canvas: ctx.canvas });
        return super.run(op, ctx);
      }
    })();
  }
}

/** A CPU backend whose sessions do not fuse paint layers into their blends. */
class Unfused extends CpuBackend {
  override begin(): CpuSession {
    return new (class extends CpuSession {
      override readonly paintTargets = false;
    })();
  }
}

const points = {
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', properties: { name: 'a', rank: 1, minz: 0 }, geometry: { type: 'Point', coordinates: [0, 0] } },
    { type: 'Feature', properties: { name: 'b', rank: 5, minz: 3 }, geometry: { type: 'Point', coordinates: [10, 10] } },
    { type: 'Feature', properties: { name: 'c', rank: 9, minz: 0 }, geometry: { type: 'Point', coordinates: [-100, 40] } },
  ],
};

describe('render core', () => {
  test('a node read by two consumers runs once per render', async () => {
    const r = Renderer.create({
      output: 'out',
      nodes: {
        red: { op: 'solid', color: '#ff000080' },
        a: { op: 'blend', base: '@red', over: '@red' },
        out: { op: 'blend', base: '@a', over: '@red', mode: 'multiply' },
      },
    });
    const b = new Recording();
    const { stats } = await r.renderWindow({ z: 1, x0: 0, y0: 0, width: 8, height: 8, tileSize: 256 }, undefined, { backend: b });
    expect(b.runs.map((x) => x.id)).toEqual(['red', 'a', 'out']);
    expect(stats.nodes).toBe(3);
  });

  test('canvases grow by each node margin and the output is cropped to the window', async () => {
    const r = Renderer.create({
      output: 'out',
      params: { s: { type: 'number', default: 1, max: 2 } },
      nodes: { red: { op: 'solid', color: '#ff0000' }, out: { op: 'blur', input: '@red', sigma: '$s' } },
    });
    const b = new Recording();
    const win = { z: 3, x0: 512, y0: 256, width: 40, height: 30, tileSize: 256 };
    // The blur's input is grown by ceil(3 s) for this render's s (1: 3 px), not its max (2: 6 px;
    // src/graph/margins.ts); the plan's margin is the max's.
    expect(r.plan.nodes.get('red')!.margin).toBe(6);
    const { raster } = await r.renderWindow(win, undefined, { backend: b });
    expect(b.runs[0]!.canvas).toEqual({ ...win, x0: 509, y0: 253, width: 46, height: 36 });
    expect(b.runs[1]!.canvas).toEqual(win);
    const atMax = new Recording();
    await r.renderWindow(win, r.params({ s: '2' }), { backend: atMax });
    expect(atMax.runs[0]!.canvas).toEqual({ ...win, x0: 506, y0: 250, width: 52, height: 42 });
    expect([raster.width, raster.height]).toEqual([40, 30]);
    // A uniform field stays uniform under a blur whose padding was sampled too: no dark edges.
    for (let i = 0; i < raster.data.length; i += 4) expect(raster.data[i]).toBeCloseTo(1, 5);
  });

  test('a features node read with very different margins is sampled once per margin, with the same pixels', async () => {
    // A blur reads circles of the features over its reach (~55 px); the other circles need a few. One
    // node sampled over the widest margin made those circles work on every feature of that margin.
    const loader: Loader = { load: async () => new TextEncoder().encode(JSON.stringify(points)) };
    const nodes = (f2: string) => ({
      f: { op: 'features', source: 'pts' },
      ...(f2 === 'f' ? {} : { [f2]: { op: 'features', source: 'pts' } }),
      dots: { op: 'circles', features: '@f', radius: 6, color: '#123456' },
      glow: { op: 'blur', input: '@dots', sigma: 16 },
      ring: { op: 'circles', features: `@${f2}`, radius: 3, color: '#ff0000' },
      out: { op: 'blend', base: '@glow', over: '@ring' },
    });
    const style = (f2: string) => ({ output: 'out', sources: { pts: { type: 'geojson', data: 'p.geojson' } }, nodes: nodes(f2) });
    const one = Renderer.create(style('f'), { loader });
    const two = Renderer.create(style('g'), { loader });
    const margins = [...one.plan.nodes.values()].filter((n) => n.op.name === 'features').map((n) => [n.id, n.copyOf, n.margin]);
    expect(margins.map(([id, of]) => [id, of])).toEqual([
      ['f', undefined],
      [expect.stringMatching(/^f#/), 'f'],
    ]);
    expect(margins[0]![2]).toBeGreaterThan(40); // the blur (sigma 16) and the circles beneath it
    expect(margins[1]![2]).toBeLessThan(25); // the other circles' few pixels and 16 to spare
    // The plan's order still puts every features node before its readers.
    const at = (id: string) => one.plan.order.indexOf(id);
    expect(at(margins[1]![0] as string)).toBeLessThan(at('ring'));
    // The style written with two features nodes by hand gives the same bytes, tile by tile.
    for (const [z, x, y] of [
      [0, 0, 0],
      [2, 2, 1],
      [3, 4, 3],
    ] as const) {
      const a = await one.renderTile({ z, x, y }, undefined, { tileSize: 64 });
      const b = await two.renderTile({ z, x, y }, undefined, { tileSize: 64 });
      expect(Buffer.from(a.data.buffer).equals(Buffer.from(b.data.buffer))).toBe(true);
    }
  });

  test('the backend given to a render is used', async () => {
    const r = Renderer.create({ output: 'o', nodes: { o: { op: 'solid', color: '#000000' } } });
    let used = false;
    const cpu = new CpuBackend();
    const b: Backend = { name: 'cpu', isSupported: () => true, recover: async () => false, begin: () => ((used = true), cpu.begin()) };
    await r.renderTile({ z: 0, x: 0, y: 0 }, undefined, { tileSize: 4, backend: b });
    expect(used).toBe(true);
  });
});

describe('features op on a geojson source', () => {
  const loads: string[] = [];
  const loader: Loader = {
    async load(ref) {
      loads.push(ref);
      return new TextEncoder().encode(JSON.stringify(points));
    },
  };
  const style = (node: Record<string, unknown>) => ({
    output: 'out',
    sources: { pts: { type: 'geojson', data: 'points.geojson' } },
    nodes: { f: { op: 'features', ...node }, out: { op: 'solid', color: '#000000' } },
  });

  async function groups(node: Record<string, unknown>, z: number): Promise<Features['groups']> {
    const r = Renderer.create(style(node), { loader });
    let captured: Features | undefined;
    const b = hookedBackend(new CpuBackend(), {
      after(op, _ctx, v) {
        if (op.name === 'features') captured = v as Features;
      },
    });
    // Render the features node directly by making it reachable: wrap as the plan's only consumer.
    const plan = r.plan;
    const size = 256 * 2 ** z;
    const { render } = await import('../../src/render/render.js');
    await render({ ...plan, order: ['f', ...plan.order], nodes: plan.nodes }, { z, x0: 0, y0: 0, width: size, height: size, tileSize: 256 }, undefined, {
      backend: b,
      sources: r.sources,
    });
    return captured!.groups;
  }

  test('the source is optional when exactly one feature source exists; world pixels at the zoom', async () => {
    const g = await groups({}, 1);
    expect(g.map((x) => x.properties.name).sort()).toEqual(['a', 'b', 'c']);
    const a = g.find((x) => x.properties.name === 'a')!;
    expect(a.points[0]).toBeCloseTo(256, 0);
    expect(a.points[1]).toBeCloseTo(256, 0);
  });

  test('filter-expr keeps truthy features; min-zoom-field drops features above the zoom', async () => {
    expect((await groups({ 'filter-expr': ['>', ['get', 'rank'], 4] }, 1)).map((x) => x.properties.name).sort()).toEqual(['b', 'c']);
    expect((await groups({ 'min-zoom-field': 'minz' }, 2)).map((x) => x.properties.name).sort()).toEqual(['a', 'c']);
    expect((await groups({ 'min-zoom-field': 'minz' }, 3)).map((x) => x.properties.name).sort()).toEqual(['a', 'b', 'c']);
  });

  test('below min-zoom and above max-zoom the layer is empty, and below min-zoom nothing loads', async () => {
    loads.length = 0;
    expect(await groups({ 'min-zoom': 2 }, 1)).toEqual([]);
    expect(loads).toEqual([]);
    expect(await groups({ 'max-zoom': 0 }, 1)).toEqual([]);
  });
});

describe('fused paint blends', () => {
  const poly = (x0: number, y0: number, x1: number, y1: number, c: string) => ({
    type: 'Feature',
    properties: { c },
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [x0, y0],
          [x1, y0],
          [x1, y1],
          [x0, y1],
          [x0, y0],
        ],
      ],
    },
  });
  const style = {
    output: 'out',
    sources: {
      s: { type: 'geojson', data: { type: 'FeatureCollection', features: [poly(-60, -40, 40, 50, '#ff0000aa'), poly(-20, -60, 80, 20, '#0000ff88')] } },
    },
    nodes: {
      f: { op: 'features', source: 's' },
      bg: { op: 'solid', color: '#20804080' },
      fill: { op: 'fill-solid', features: '@f', 'fill-expr': ['get', 'c'] },
      line: { op: 'stroke-solid', features: '@f', width: 3, color: '#ffff00c0' },
      a: { op: 'blend', base: '@bg', over: '@fill' },
      b: { op: 'blend', base: '@a', over: '@line' },
      // bg is read twice: the fused paint must not draw on it in place.
      out: { op: 'blend', base: '@b', over: '@bg', mode: 'multiply' },
    },
  };

  test('the plan fuses plain normal blends of single-use paint layers', () => {
    const r = Renderer.create(style);
    const pairs = (rr: Renderer) => [...rr.plan.fusions].map(([id, f]) => [id, f.paintId]);
    expect(pairs(r)).toEqual([
      ['a', 'fill'],
      ['b', 'line'],
    ]);
    const withOpacity = Renderer.create({ ...style, nodes: { ...style.nodes, a: { ...style.nodes.a, opacity: 0.5 } } });
    expect(pairs(withOpacity)).toEqual([['b', 'line']]);
  });

  test('fused and unfused renders agree', async () => {
    const r = Renderer.create(style);
    const plain: Backend = new Unfused();
    const win = { z: 1, x0: 200, y0: 180, width: 96, height: 64, tileSize: 256 };
    const fused = (await r.renderWindow(win, undefined, { backend: new CpuBackend() })).raster.data;
    const unfused = (await r.renderWindow(win, undefined, { backend: plain })).raster.data;
    let max = 0;
    for (let i = 0; i < fused.length; i++) max = Math.max(max, Math.abs(fused[i]! - unfused[i]!));
    expect(max).toBeLessThan(1e-5);
    expect(fused.some((v) => v > 0.1)).toBe(true);
  });
});

describe('8-bit output', () => {
  test('premultiplied floats convert to the nearest straight-alpha 8-bit value', async () => {
    const { toRGBA8 } = await import('../../src/render/encode.js');
    const px = (r: number, g: number, b: number, a: number) => ({
      kind: 'raster' as const,
      width: 1,
      height: 1,
      data: new Float32Array([r * a, g * a, b * a, a]),
    });
    expect(Array.from(toRGBA8(px(10.3 / 255, 10.7 / 255, 1, 1)))).toEqual([10, 11, 255, 255]);
    expect(Array.from(toRGBA8(px(100 / 255, 0, 0.5, 0.5)))).toEqual([100, 0, 128, 128]);
    expect(Array.from(toRGBA8(px(1, 1, 1, 0)))).toEqual([0, 0, 0, 0]);
  });
});

describe('sessions', () => {
  /** A style of `n` solid layers blended in a chain: 2n - 1 nodes, each one kernel run on the CPU. */
  const chain = (n: number) => {
    const nodes: Record<string, object> = { l0: { op: 'solid', color: '#102030' } };
    for (let i = 1; i < n; i++) {
      nodes[`s${i}`] = { op: 'solid', color: '#405060' };
      nodes[`l${i}`] = { op: 'blend', base: `@l${i - 1}`, over: `@s${i}`, mode: 'multiply' };
    }
    return { output: `l${n - 1}`, nodes };
  };

  test('concurrent renders on one backend report their own counters', async () => {
    const backend = new CpuBackend();
    const sizes = [1, 2, 3, 4];
    const renderers = sizes.map((n) => Renderer.create(chain(n)));
    const results = await Promise.all(
      renderers.map((r) => r.renderWindow({ z: 1, x0: 0, y0: 0, width: 32, height: 32, tileSize: 256 }, undefined, { backend })),
    );
    expect(results.map((r) => r.stats.passes)).toEqual(sizes.map((n) => 2 * n - 1));
    expect(results.map((r) => r.stats.nodes)).toEqual(sizes.map((n) => 2 * n - 1));
  });
});
