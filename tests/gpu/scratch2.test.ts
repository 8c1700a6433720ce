import { diffRasters, renderBoth, testWindow } from './harness.js';
const w = testWindow(16);
test('fill tri', async () => {
  const poly = [[[5.3, 50.2], [40.7, 52.2], [12.7, 63.1], [5.3, 50.2]]];
  const style = { output: 'out', sources: { pts: { type: 'geojson', data: { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: poly } } } }, nodes: { f: { op: 'features' }, out: { op: 'fill-solid', features: '@f', fill: '#ffffff' } } };
  const b = (await renderBoth(style, w))!;
  console.log(diffRasters(b.cpu, b.gpu));
  const rowA = (r: any, y: number) => Array.from({ length: 16 }, (_, x) => r.data[(y * 16 + x) * 4 + 3].toFixed(2)).join(' ');
  for (let y = 0; y < 16; y++) console.log(y, rowA(b.cpu, y), '|', rowA(b.gpu, y));
});
