// expr: a map-style expression evaluated once per tile with the zoom in context.
import { BuildError, Renderer } from '../../index.js';
import { capture, readsScalar, win } from '../../../tests/helpers/scalars.js';

const curve = ['interpolate', ['linear'], ['zoom'], 0, 0.25, 10, 0.75];

describe('expr', () => {
  test('a linear zoom curve: 0.25 at z0, 0.75 at z10, halfway at z5, clamped beyond', async () => {
    for (const [z, v] of [
      [0, 0.25],
      [5, 0.5],
      [10, 0.75],
      [14, 0.75],
    ] as const) {
      const got = await capture(readsScalar({ e: { op: 'expr', expr: curve } }, 'e'), ['e'], win(z));
      expect(got.get('e')).toEqual({ kind: 'scalar', value: v });
    }
  });

  test('a step curve and a colour expression', async () => {
    const step = ['step', ['zoom'], 1, 4, 2, 8, 3];
    const got = await capture(readsScalar({ e: { op: 'expr', expr: step } }, 'e'), ['e'], win(6));
    expect(got.get('e')).toEqual({ kind: 'scalar', value: 2 });
    const style = {
      output: 'out',
      nodes: { c: { op: 'expr', type: 'color', expr: ['interpolate', ['linear'], ['zoom'], 0, '#000000', 4, '#ffffff'] }, out: { op: 'solid', color: '@c' } },
    };
    const r = Renderer.create(style);
    const { raster } = await r.renderWindow(win(2, 1));
    expect(raster.data[0]).toBeCloseTo(0.5, 6);
    expect(raster.data[3]).toBe(1);
  });

  test('an invalid expression is a build error with a pointer', () => {
    try {
      Renderer.create(readsScalar({ e: { op: 'expr', expr: ['no-such-operator', 1] } }, 'e'));
      throw new Error('built');
    } catch (e) {
      expect(e).toBeInstanceOf(BuildError);
      expect((e as BuildError).problems[0]!.pointer).toBe('/nodes/e/expr');
    }
  });
});
