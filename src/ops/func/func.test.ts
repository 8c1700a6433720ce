// func: a call is inlined (its body's nodes run under `call/body` ids); missing inputs take their
// defaults; kinds and recursion are checked at build time.
import { BuildError, Renderer } from '../../index.js';
import { capture, win } from '../../../tests/helpers/scalars.js';

const functions = {
  tint: {
    inputs: { color: { kind: 'scalar', default: '#ff0000' }, alpha: { kind: 'scalar', default: 1 } },
    nodes: {
      s: { op: 'solid', color: '$color' },
      a: { op: 'math', fn: 'mul', a: '$alpha', b: 0.5 },
      out: { op: 'blend', base: '@s', over: '@s', opacity: '@a' },
    },
    output: 'out',
    'output-kind': 'raster',
  },
};

describe('func', () => {
  test('the body is inlined with the given inputs; missing inputs take their defaults', async () => {
    const style = {
      output: 'b',
      functions,
      nodes: { a: { op: 'func', function: 'tint', inputs: { color: '#0000ff' } }, b: { op: 'func', function: 'tint', inputs: { alpha: 3 } } },
    };
    const r = Renderer.create(style);
    expect([...r.plan.nodes.keys()].sort()).toEqual(['a/a', 'a/out', 'a/s', 'b/a', 'b/out', 'b/s']);
    const got = await capture(style, ['b/s', 'b/a'], win(0));
    const s = got.get('b/s');
    expect(s?.kind === 'raster' && Array.from(s.data.subarray(0, 4))).toEqual([1, 0, 0, 1]);
    expect(got.get('b/a')).toEqual({ kind: 'scalar', value: 1.5 });
  });

  test('a call inside a function body, and @node ports between body nodes', async () => {
    const fns = {
      ...functions,
      twice: { nodes: { inner: { op: 'func', function: 'tint', inputs: { color: '#00ff00' } } }, output: 'inner', 'output-kind': 'raster' },
    };
    const style = { output: 'x', functions: fns, nodes: { x: { op: 'func', function: 'twice' } } };
    const got = await capture(style, ['x/inner/s', 'x/inner/a'], win(0));
    const s = got.get('x/inner/s');
    expect(s?.kind === 'raster' && Array.from(s.data.subarray(0, 4))).toEqual([0, 1, 0, 1]);
    expect(got.get('x/inner/a')).toEqual({ kind: 'scalar', value: 0.5 });
  });

  test('unknown function, unknown input, wrong output kind and recursion are build errors', () => {
    const build =
      (nodes: object, fns: object = functions) =>
      () =>
        Renderer.create({ output: 'o', functions: fns, nodes });
    expect(build({ o: { op: 'func', function: 'nope' } })).toThrow(/unknown function 'nope'/);
    expect(build({ o: { op: 'func', function: 'tint', inputs: { colour: '#000000' } } })).toThrow(/has no input 'colour'/);
    expect(build({ o: { op: 'func', function: 'tint' } }, { tint: { ...functions.tint, 'output-kind': 'scalar' } })).toThrow(BuildError);
    const loop = { f: { nodes: { x: { op: 'func', function: 'f' } }, output: 'x', 'output-kind': 'raster' } };
    expect(build({ o: { op: 'func', function: 'f' } }, loop)).toThrow(/calls itself/);
  });
});
