// zoom: the scalar is the zoom of the window being rendered, whatever the tile size.
import { capture, readsScalar, win } from '../../../tests/helpers/scalars.js';

describe('zoom', () => {
  test.each([0, 3, 14, 22])('yields %p at zoom %p', async (z) => {
    const got = await capture(readsScalar({ z: { op: 'zoom' } }, 'z'), ['z'], win(z));
    expect(got.get('z')).toEqual({ kind: 'scalar', value: z });
  });

  test('a 512 px tile of zoom 2 is zoom 2 (not 3)', async () => {
    const got = await capture(readsScalar({ z: { op: 'zoom' } }, 'z'), ['z'], { z: 2, x0: 512, y0: 0, width: 8, height: 8, tileSize: 512 });
    expect(got.get('z')).toEqual({ kind: 'scalar', value: 2 });
  });
});
