// math: every function against its closed form, operand resolution ($param, @node), and the errors.
import { BuildError, RenderError, Renderer } from '../../index.js';
import { capture, readsScalar, win } from '../../../tests/helpers/scalars.js';

async function value(fn: string, a: unknown, b?: unknown, extra: object = {}, params: Record<string, string> = {}): Promise<unknown> {
  const style = readsScalar({ m: { op: 'math', fn, a, ...(b === undefined ? {} : { b }) } }, 'm', extra);
  const got = await capture(style, ['m'], win(3), params);
  const v = got.get('m');
  return v?.kind === 'scalar' ? v.value : undefined;
}

describe('math', () => {
  test.each([
    ['add', 2.5, 4, 6.5],
    ['sub', 2.5, 4, -1.5],
    ['mul', 2.5, 4, 10],
    ['div', 10, 4, 2.5],
    ['min', 2.5, 4, 2.5],
    ['max', 2.5, 4, 4],
    ['pow', 2, 10, 1024],
    ['mod', 7.5, 2, 1.5],
    ['atan2', 1, 1, Math.PI / 4],
  ])('%s(%p, %p) = %p', async (fn, a, b, expected) => {
    expect(await value(fn, a, b)).toBeCloseTo(expected, 12);
  });

  test.each([
    ['abs', -3.25, 3.25],
    ['neg', 3.25, -3.25],
    ['sqrt', 6.25, 2.5],
    ['floor', -1.5, -2],
    ['ceil', -1.5, -1],
    ['round', 2.5, 3],
  ])('%s(%p) = %p', async (fn, a, expected) => {
    expect(await value(fn, a)).toBe(expected);
  });

  test('operands from a $param and from another scalar node (zoom)', async () => {
    const params = { params: { k: { type: 'number', default: 2 } } };
    expect(await value('mul', '$k', 3, params)).toBe(6);
    expect(await value('mul', '$k', 3, params, { k: '0.5' })).toBe(1.5);
    const style = readsScalar({ z: { op: 'zoom' }, m: { op: 'math', fn: 'div', a: '@z', b: 6 } }, 'm');
    const got = await capture(style, ['m'], win(3));
    expect(got.get('m')).toEqual({ kind: 'scalar', value: 0.5 });
  });

  test('a binary function without b is a build error; a non-finite result is a render error', async () => {
    expect(() => Renderer.create(readsScalar({ m: { op: 'math', fn: 'add', a: 1 } }, 'm'))).toThrow(BuildError);
    await expect(value('div', 1, 0)).rejects.toThrow(RenderError);
  });
});
