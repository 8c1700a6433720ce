import { Renderer } from '../../src/index.js';
test('dbg', async () => {
  const z = 2;
  const lngLat = (x: number, y: number): [number, number] => { const world = 256 * 2 ** z; const n = Math.PI - (2 * Math.PI * y) / world; return [(x / world) * 360 - 180, (180 / Math.PI) * Math.atan(Math.sinh(n))]; };
  const line = [[420, 470], [530, 380], [590, 490]].map(([x, y]) => lngLat(x!, y!));
  const r = Renderer.create({ output: 'f2', sources: { s: { type: 'geojson', data: { type: 'FeatureCollection', features: [{ type: 'Feature', id: 2, properties: {}, geometry: { type: 'LineString', coordinates: line } }] }, tolerance: 0 } },
    nodes: { f: { op: 'features', source: 's' }, f2: { op: 'stroke-solid', features: '@f' } } });
  for (const c of [{ z: 2, x0: 252, y0: 252, width: 264, height: 264, tileSize: 256 }, { z: 2, x0: 252, y0: 252, width: 520, height: 264, tileSize: 256 }]) {
    const fs = await r.sources.featureSource('s').features('s', c);
    for (const g of fs) { console.log(JSON.stringify(Array.from(g.cutEnds ?? []))); for (const l of g.lines) console.log(Array.from(l).map((v) => v.toFixed(4)).join(' ')); }
  }
});
