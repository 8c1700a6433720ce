import { loadStyle } from '../src/style/load.js';
import { buildPlan } from '../src/graph/build.js';
import { render } from '../src/render/render.js';
import { tileWindow } from '../src/types.js';

test('smoke', async () => {
  const doc = loadStyle({ output: 'bg', params: { c: { type: 'color', default: '#ff0000' } }, nodes: { bg: { op: 'solid', color: '$c' } } });
  const plan = buildPlan(doc);
  const r = await render(plan, tileWindow({ z: 0, x: 0, y: 0 }, 4));
  expect(Array.from(r.raster.data.slice(0, 4))).toEqual([1, 0, 0, 1]);
  expect(() => loadStyle({ output: 'bg', nodes: { bg: { op: 'blurr' } } })).toThrow(/did you mean 'blur'/);
});
