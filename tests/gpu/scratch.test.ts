import { randomFeatures, renderBoth, testWindow } from './harness.js';
const W = testWindow(32);
test('ramp', async () => {
  const sources = { pts: { type: 'geojson', data: randomFeatures(72, W, { points: 30 }, 24) } };
  for (const stops of [[{ value: 0, color: '#000000' }, { value: 1, color: '#ffffff' }], [{ value: 0, color: '#000000' }, { value: 0.5, color: '#808080' }, { value: 1, color: '#ffffff' }]]) {
  const style = { output: 'out', sources, nodes: { f: { op: 'features' }, d: { op: 'density', features: '@f', radius: 14, intensity: 2.5 }, out: { op: 'color-ramp', field: '@d', stops } } };
  const b = (await renderBoth(style, W))!;
  for (let i = 0; i < 20; i += 4) console.log(Array.from(b.cpu.data.slice(i * 4, i * 4 + 4)).map((v) => v.toFixed(3)).join(','), '|', Array.from(b.gpu.data.slice(i * 4, i * 4 + 4)).map((v) => v.toFixed(3)).join(','));
  }
});
