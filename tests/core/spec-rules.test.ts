// Issue 13, defect 9: rules of the spec found broken, each with its regression test.
import { BuildError, Renderer } from '../../src/index.js';
import { compileExpr } from '../../src/expr/index.js';

const points = (values: unknown[]) => ({
  type: 'FeatureCollection',
  features: values.map((mz, i) => ({ type: 'Feature', properties: { mz }, geometry: { type: 'Point', coordinates: [-100 + i * 50, 0] } })),
});

describe('filter-expr keeps a feature when the result is truthy', () => {
  test('["get", "mz"] with values 1 and 3 keeps both; 0, null, "" and false are dropped', () => {
    const f = compileExpr(['get', 'mz'], 'filter', '/nodes/f/filter-expr');
    const keep = (v: unknown) => f.evaluate(3, { type: 1, properties: { mz: v } } as never);
    expect([1, 3, 'a', true].map(keep)).toEqual([true, true, true, true]);
    expect([0, null, '', false].map(keep)).toEqual([false, false, false, false]);
    // Legacy filters keep their meaning.
    expect(compileExpr(['==', 'mz', 3], 'filter', '/x').evaluate(3, { type: 1, properties: { mz: 3 } } as never)).toBe(true);
  });

  test('through a render: the kept points are drawn', async () => {
    const r = Renderer.create({
      output: 'o',
      sources: { p: { type: 'geojson', data: points([1, 3, 0]) } },
      nodes: { f: { op: 'features', 'filter-expr': ['get', 'mz'] }, o: { op: 'circles', features: '@f', radius: 6, color: '#ff0000' } },
    });
    const { data, width } = await r.renderTile({ z: 0, x: 0, y: 0 }, r.params(), { tileSize: 256 });
    const alphaAt = (lng: number) => data[(128 * width + Math.round(((lng + 180) / 360) * 256)) * 4 + 3]!;
    expect(alphaAt(-100)).toBeGreaterThan(0.9); // mz 1
    expect(alphaAt(-50)).toBeGreaterThan(0.9); // mz 3
    expect(alphaAt(0)).toBe(0); // mz 0
  });
});

test('in a function body an @node scalar port may name another body node', async () => {
  const r = Renderer.create({
    output: 'o',
    functions: {
      f: {
        inputs: { k: { kind: 'scalar', default: 2 } },
        nodes: {
          m: { op: 'math', fn: 'mul', a: '$k', b: 0.25 },
          s: { op: 'solid', color: '#ff0000' },
          t: { op: 'solid', color: '#0000ff' },
          b: { op: 'blend', base: '@s', over: '@t', opacity: '@m' },
        },
        output: 'b',
        'output-kind': 'raster',
      },
    },
    nodes: { o: { op: 'func', function: 'f' } },
  });
  const { data } = await r.renderTile({ z: 0, x: 0, y: 0 }, r.params(), { tileSize: 4 });
  // Blue over red at opacity 0.5.
  expect(data[0]).toBeCloseTo(0.5, 2);
  expect(data[2]).toBeCloseTo(0.5, 2);
});

test('an unknown expression operator that is an Object.prototype name is a build error', () => {
  const e = (() => {
    try {
      Renderer.create({
        output: 'o',
        sources: { p: { type: 'geojson', data: points([1]) } },
        nodes: { f: { op: 'features' }, o: { op: 'fill-solid', features: '@f', fill: '#000000', 'fill-expr': ['toString', 1] } },
      });
    } catch (x) {
      return x;
    }
  })();
  expect(e).toBeInstanceOf(BuildError);
  expect((e as BuildError).problems[0]!.pointer).toBe('/nodes/o/fill-expr');
});

describe('an expr of the wrong type for the field it feeds is a build error with a pointer', () => {
  const build = (type: string, field: object) => {
    try {
      Renderer.create({ output: 'o', nodes: { e: { op: 'expr', expr: ['zoom'], type }, o: { op: 'solid', ...field } } });
    } catch (x) {
      return x;
    }
    return undefined;
  };

  test('a number expression into a colour field', () => {
    const e = build('number', { color: '@e' }) as BuildError;
    expect(e).toBeInstanceOf(BuildError);
    expect(e.problems).toEqual([{ pointer: '/nodes/o/color', message: "'@e' produces a number but this field takes a color" }]);
  });

  test('a colour expression into a colour field builds; a math node into a colour field does not', () => {
    expect(() =>
      Renderer.create({ output: 'o', nodes: { e: { op: 'expr', expr: ['to-color', '#ff0000'], type: 'color' }, o: { op: 'solid', color: '@e' } } }),
    ).not.toThrow();
    expect(() => Renderer.create({ output: 'o', nodes: { m: { op: 'math', fn: 'add', a: 1, b: 2 }, o: { op: 'solid', color: '@m' } } })).toThrow(
      /'@m' produces a number but this field takes a color/,
    );
  });
});
