import { CpuBackend } from '../../src/index.js';
import { diffRasters, randomFeatures, renderBoth, renderOn, tap, testWindow, gpu } from './harness.js';

const w = testWindow(96);
const src = (seed: number, c: object) => ({ pts: { type: 'geojson', data: randomFeatures(seed, w, c) } });

test('fill', async () => {
  for (const aa of [true, false]) {
    const style = { output: 'out', sources: src(1, { polygons: 12 }), nodes: { f: { op: 'features' }, out: { op: 'fill-solid', features: '@f', fill: '#33aa8899', antialias: aa } } };
    const t0 = performance.now();
    const b = (await renderBoth(style, w))!;
    console.log('fill', aa, performance.now() - t0, diffRasters(b.cpu, b.gpu), b.stats);
  }
});
test('stroke', async () => {
  const style = { output: 'out', sources: src(2, { polygons: 4, lines: 8 }), nodes: { f: { op: 'features' }, out: { op: 'stroke-solid', features: '@f', color: '#aa3388cc', width: 3.3, join: 'round', cap: 'round' } } };
  const t0 = performance.now();
  const b = (await renderBoth(style, w))!;
  console.log('stroke', performance.now() - t0, diffRasters(b.cpu, b.gpu), b.stats);
});
test('circles', async () => {
  const style = { output: 'out', sources: src(3, { points: 40 }), nodes: { f: { op: 'features' }, out: { op: 'circles', features: '@f', color: '#aa338899', radius: 6.3, 'stroke-width': 1.7, 'stroke-color': '#112233' } } };
  const b = (await renderBoth(style, w))!;
  console.log('circles', diffRasters(b.cpu, b.gpu), b.stats);
});
test('density', async () => {
  const style = { output: 'out', sources: src(4, { points: 60 }), nodes: { f: { op: 'features' }, d: { op: 'density', features: '@f', radius: 12.5 }, c: { op: 'contour', field: '@d', interval: 0.05 }, out: { op: 'stroke-solid', features: '@c', color: '#000000' } } };
  const tc = tap(new CpuBackend(), 'd');
  await renderOn(tc.backend, style, w);
  const tg = tap((await gpu())!, 'd');
  await renderOn(tg.backend, style, w);
  const a = tc.value().data, b = tg.value().data;
  let m = 0, mx = 0; for (let i = 0; i < a.length; i++) { m = Math.max(m, Math.abs(a[i]! - b[i]!)); mx = Math.max(mx, a[i]!); }
  console.log('density', m, mx, a.length, b.length);
  const bb = (await renderBoth(style, w))!; console.log('contour', diffRasters(bb.cpu, bb.gpu), bb.stats);
});
