// Issue 13, defects 1 and 8: every size a caller or a style can ask for is bounded; past a bound a
// TilegraphError with a pointer and a sentence, before anything is allocated.
import { BuildError, LimitError, Renderer, StyleError, TilegraphError, loadStyle } from '../../src/index.js';
import { limitProblems, renderFootprint } from '../../src/graph/limits.js';
import { LIMITS } from '../../src/limits.js';
import { tooDeep } from '../../src/style/load.js';

const blurStyle = (max: number, extra: Record<string, unknown> = {}) => ({
  output: 'out',
  params: { soft: { type: 'number', default: 1, min: 0, max } },
  nodes: { base: { op: 'solid', color: '#336699' }, out: { op: 'blur', input: '@base', sigma: '$soft' }, ...extra },
});

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

describe('margins are bounded at build time (defect 1)', () => {
  test('a blur param with max 5000 is a build error naming the field, the margin and the limit', () => {
    const e = thrown(() => Renderer.create(blurStyle(5000)));
    expect(e).toBeInstanceOf(BuildError);
    expect((e as BuildError).problems).toEqual([
      {
        pointer: '/nodes/out/sigma',
        message: "'sigma' max 5000 (param 'soft') needs a 15,000 px margin; the limit is 1,024 px (lower the bound: the margin is paid on every tile)",
      },
    ]);
  });

  test('a literal sigma past the limit too; one within it builds', () => {
    const lit = { output: 'out', nodes: { base: { op: 'solid', color: '#336699' }, out: { op: 'blur', input: '@base', sigma: 400 } } };
    expect(() => Renderer.create(lit)).toThrow(/'sigma' 400 needs a 1,200 px margin/);
    expect(() => Renderer.create(blurStyle(300))).not.toThrow();
  });

  test('an op that pads from an ordinary field (a stroke width) names that field', () => {
    const style = {
      output: 'o',
      sources: { s: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } } },
      nodes: { f: { op: 'features' }, o: { op: 'stroke-solid', features: '@f', width: 1e6, color: '#000000' } },
    };
    const e = thrown(() => Renderer.create(style)) as BuildError;
    expect(e.problems[0]!.pointer).toBe('/nodes/o/width');
    expect(e.problems[0]!.message).toMatch(/^'width' 1000000 needs a [\d,]+ px margin; the limit is 1,024 px/);
  });

  test('margins that add up along a chain past the limit name the node where they pass it', () => {
    const style = {
      output: 'out',
      nodes: {
        base: { op: 'solid', color: '#336699' },
        a: { op: 'blur', input: '@base', sigma: 200 },
        out: { op: 'blur', input: '@a', sigma: 200 },
      },
    };
    const r = thrown(() => Renderer.create(style)) as BuildError;
    expect(r).toBeInstanceOf(BuildError);
    expect(r.problems[0]!.pointer).toBe('/nodes/a');
    expect(r.problems[0]!.message).toMatch(/add up to 1,200 px; the limit is 1,024 px/);
  });
});

describe('windows and canvases are bounded at render time (defects 1 and 8)', () => {
  const r = Renderer.create(blurStyle(300));

  test.each([0, -1, 2.5, 1e9, NaN, 8192])('renderTile with tileSize %p is a LimitError, at once', async (tileSize) => {
    const t0 = Date.now();
    const e = await r.renderTile({ z: 0, x: 0, y: 0 }, undefined, { tileSize }).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(LimitError);
    expect(e).toBeInstanceOf(TilegraphError);
    expect((e as LimitError).code).toBe('render');
    expect((e as Error).message).toMatch(/tileSize .* is not an integer in 1\.\.4096/);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  test('a tiny tile size under a large margin would load thousands of source tiles: refused', async () => {
    // Blur bound 300: margin 900 px. At tileSize 3 the canvas spans 602 x 602 tiles.
    const e = await r.renderTile({ z: 0, x: 0, y: 0 }, undefined, { tileSize: 3 }).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(LimitError);
    expect((e as Error).message).toMatch(/at tileSize 3 a canvas here \(margin 900 px\) spans 362,404 source tiles; the limit is 1,024/);
    // Without a margin a small tile size is fine.
    const flat = Renderer.create({ output: 'o', nodes: { o: { op: 'solid', color: '#ff0000' } } });
    expect((await flat.renderTile({ z: 0, x: 0, y: 0 }, undefined, { tileSize: 3 })).width).toBe(3);
  });

  test.each([
    [{ z: 0, x0: 0, y0: 0, width: 0, height: 256, tileSize: 256 }, /width 0 is not a positive integer/],
    [{ z: 0, x0: 0, y0: 0, width: 2.5, height: 256, tileSize: 256 }, /width 2.5/],
    [{ z: 40, x0: 0, y0: 0, width: 256, height: 256, tileSize: 256 }, /zoom 40 is not an integer in 0\.\.30/],
    [{ z: 1, x0: 0.5, y0: 0, width: 256, height: 256, tileSize: 256 }, /origin/],
    [{ z: 12, x0: 0, y0: 0, width: 5000, height: 5000, tileSize: 256 }, /needs a [\d,]+-pixel canvas here .*limit is 16,777,216 pixels/],
  ])('window %j is refused', async (w, msg) => {
    await expect(r.renderWindow(w)).rejects.toThrow(msg);
  });

  test('the memory estimate counts every raster canvas; past the budget a LimitError', () => {
    const nodes: Record<string, unknown> = { n0: { op: 'solid', color: '#000000' } };
    for (let i = 1; i < 12; i++) nodes[`n${i}`] = { op: 'blend', base: `@n${i - 1}`, over: '@n0' };
    const many = Renderer.create({ output: 'n11', nodes });
    const w = { z: 12, x0: 0, y0: 0, width: 4096, height: 4096, tileSize: 256 };
    const f = renderFootprint(many.plan, w);
    expect(f.bytes).toBe(12 * 4096 * 4096 * 16);
    expect(f.bytes).toBeGreaterThan(LIMITS.maxRenderBytes);
    return expect(many.renderWindow(w)).rejects.toThrow(/estimated 3.0 GiB of canvases; the limit of one render is 2.0 GiB/);
  });

  test('a plan within the limits has no problems', () => {
    expect(limitProblems(r.plan)).toEqual([]);
  });
});

describe('deep nesting is a StyleError, not a RangeError (defect 8)', () => {
  const deep = (n: number): unknown => {
    let v: unknown = 1;
    for (let i = 0; i < n; i++) v = [v];
    return v;
  };

  test.each([100, 100_000])('a colour nested %d deep', (n) => {
    const doc = { output: 'o', nodes: { o: { op: 'solid', color: deep(n) } } };
    const text = `{"output":"o","nodes":{"o":{"op":"solid","color":${'['.repeat(n)}1${']'.repeat(n)}}}}`;
    for (const input of [doc, text]) {
      const e = thrown(() => loadStyle(input));
      expect(e).toBeInstanceOf(StyleError);
      expect((e as StyleError).problems[0]!.message).toMatch(/nested deeper than 64 levels/);
    }
  });

  test('tooDeep names where', () => {
    expect(tooDeep({ a: { b: [[1]] } }, 3)).toBe('/a/b/0');
    expect(tooDeep({ a: { b: [1] } }, 3)).toBeUndefined();
  });
});

describe('world copies of a feature are bounded on their own (not only by GeoJSON validation)', () => {
  test('a normal feature at z0 is drawn at its few world copies', async () => {
    const { worldShifts } = await import('../../src/geometry/whole.js');
    const canvas = { z: 0, x0: -10, y0: 0, width: 276, height: 256, tileSize: 256 };
    expect(worldShifts(0.01, 0.99, canvas, 0)).toEqual([-256, 0, 256]);
    expect(worldShifts(0.1, 0.9, canvas, 0)).toEqual([0]);
  });
  test('a span of a million worlds (or a NaN) is an error, not a loop', async () => {
    const { worldShifts, MAX_WORLD_SHIFTS } = await import('../../src/geometry/whole.js');
    const canvas = { z: 0, x0: 0, y0: 0, width: 256, height: 256, tileSize: 256 };
    expect(() => worldShifts(-1e6, 1e6, canvas, 0)).toThrow(`world copies (at most ${MAX_WORLD_SHIFTS})`);
    expect(() => worldShifts(Number.NaN, 0, canvas, 0)).toThrow('infinitely many world copies');
  });
});

// Issue 23: a style of 10,000 chained `blend` nodes failed as "cannot read style ...: Maximum call
// stack size exceeded" (the cycle check recursed once per node). The node count, the depth of the
// graph and the nesting of function calls are limits with their own sentences; nothing in load or
// build recurses once per node.
describe('graph size: node count, depth, function nesting (issue 23)', () => {
  /** n nodes: a solid, then n-1 blends each over the one before (depth n). */
  const chain = (n: number) => {
    const nodes: Record<string, unknown> = { n0: { op: 'solid', color: '#ff0000' } };
    for (let i = 1; i < n; i++) nodes[`n${i}`] = { op: 'blend', base: `@n${i - 1}`, over: '@n0' };
    return { output: `n${n - 1}`, nodes };
  };
  /** Functions f0..f(n-1), each calling the next `calls` times; the last holds one solid. */
  const nested = (n: number, calls = 1) => {
    const functions: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const body: Record<string, unknown> =
        i === n - 1
          ? { out: { op: 'solid', color: '#00ff00' } }
          : Object.fromEntries(Array.from({ length: calls }, (_, k) => [`c${k}`, { op: 'func', function: `f${i + 1}` }]));
      if (i < n - 1 && calls > 1) body.out = { op: 'blend', base: '@c0', over: '@c1' };
      functions[`f${i}`] = { nodes: body, output: i < n - 1 && calls === 1 ? 'c0' : 'out', 'output-kind': 'raster' };
    }
    return { output: 'top', functions, nodes: { top: { op: 'func', function: 'f0' } } };
  };

  test('the limits are documented values', () => {
    expect([LIMITS.maxNodes, LIMITS.maxGraphDepth, LIMITS.maxFunctionNesting]).toEqual([1024, 128, 16]);
  });

  test('10,000 chained blends: a StyleError naming the node limit, before validation', () => {
    const t0 = performance.now();
    const e = thrown(() => loadStyle(chain(10_000)));
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(e).toBeInstanceOf(StyleError);
    expect((e as StyleError).problems).toEqual([{ pointer: '/nodes', message: 'the style has 10,000 nodes; the limit is 1,024 (functions included)' }]);
  });

  test('a chain deeper than the depth limit is a BuildError naming it; one at the limit builds', () => {
    const e = thrown(() => Renderer.create(chain(129)));
    expect(e).toBeInstanceOf(BuildError);
    expect((e as BuildError).problems).toEqual([
      { pointer: '/nodes/n128', message: 'a chain of 129 nodes leads to this node (from @n0); the limit is 128 nodes deep' },
    ]);
    expect(() => Renderer.create(chain(128))).not.toThrow();
  });

  test('1,000 nodes in a cycle: the cycle is reported (no recursion per node)', () => {
    const doc = chain(1000);
    (doc.nodes.n0 as Record<string, unknown>) = { op: 'blend', base: '@n999', over: '@n1' };
    const e = thrown(() => Renderer.create(doc));
    expect(e).toBeInstanceOf(BuildError);
    // Data flows along the arrows: n0 feeds n1 ... n999 feeds n0; the middle is counted, not listed.
    expect((e as BuildError).problems).toEqual([
      {
        pointer: '/nodes/n0',
        message: 'the graph has a cycle: @n0 -> @n1 -> @n2 -> @n3 -> @n4 -> @n5 -> ... (989 more) -> @n995 -> @n996 -> @n997 -> @n998 -> @n999 -> @n0',
      },
    ]);
  });

  test('function calls nested past the limit: a BuildError naming the chain of calls', () => {
    expect(() => Renderer.create(nested(16))).not.toThrow();
    const e = thrown(() => Renderer.create(nested(17)));
    expect(e).toBeInstanceOf(BuildError);
    expect((e as BuildError).problems).toEqual([
      {
        pointer: '/functions/f15/nodes/c0/function',
        message: `function calls nested 17 deep (${Array.from({ length: 16 }, (_, i) => `f${i}`).join(' > ')} > f16); the limit is 16`,
      },
    ]);
  });

  test('functions that double at every level (2^15 nodes from 31): a BuildError naming the node limit, quickly', () => {
    const t0 = performance.now();
    const e = thrown(() => Renderer.create(nested(16, 2)));
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(e).toBeInstanceOf(BuildError);
    expect((e as BuildError).problems).toEqual([{ pointer: '/nodes/top', message: 'inlining the function calls makes more than 1,024 nodes (the limit)' }]);
  });
});
