// Legend swatches: an entry's `from` node over stand-in features, with the current params.
import { Renderer } from '../../src/index.js';
import { NodeLoader } from '../../src/hosts/node/loader.js';
import { readFileSync } from 'node:fs';
import { standInFeatures } from '../../src/render/legend.js';

const style = {
  output: 'map',
  params: { fill: { type: 'color', default: '#336699' } },
  sources: { s: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } } },
  nodes: {
    f: { op: 'features', source: 's', 'filter-expr': ['==', ['get', 'kind'], 'park'] },
    parks: { op: 'fill-solid', features: '@f', fill: '$fill' },
    all: { op: 'features', source: 's' },
    edges: { op: 'stroke-solid', features: '@all', width: 3, color: '#ff0000' },
    map: { op: 'blend', base: '@parks', over: '@edges' },
  },
  legend: {
    title: 'Test',
    entries: [
      { label: 'Park', from: 'parks', geometry: 'polygon', properties: { kind: 'park' } },
      { label: 'Not a park', from: 'parks', geometry: 'polygon', properties: { kind: 'road' } },
      { label: 'Edge', from: 'edges', geometry: 'line' },
    ],
  },
};

const at = (r: { data: Float32Array; width: number }, x: number, y: number) => Array.from(r.data.slice((y * r.width + x) * 4, (y * r.width + x) * 4 + 4));

describe('legend swatches', () => {
  const r = Renderer.create(style);

  test("an entry's properties select its case through the node's filter, with the current params", async () => {
    const park = await r.renderLegendSwatch(0, r.params({ fill: '#00ff00' }), { size: 24 });
    expect([park.width, park.height]).toEqual([24, 24]);
    expect(at(park, 12, 12)).toEqual([0, 1, 0, 1]);
    expect(at(park, 0, 0)[3]).toBe(0); // outside the stand-in rectangle
    const road = await r.renderLegendSwatch(1, r.params(), { size: 24 });
    expect(road.data.every((v) => v === 0)).toBe(true);
  });

  test('a line entry strokes a stand-in line', async () => {
    const edge = await r.renderLegendSwatch(2, undefined, { size: 32 });
    let red = 0;
    for (let i = 0; i < edge.data.length; i += 4) if (edge.data[i + 3]! > 0.99 && edge.data[i]! > 0.99) red++;
    expect(red).toBeGreaterThan(40);
  });

  test('stand-ins: all three geometries by default', () => {
    const g = standInFeatures({ label: 'x', from: 'y' }, 32);
    expect(g.map((x) => [x.polygons.length, x.lines.length, x.points.length])).toEqual([
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 2],
    ]);
  });

  test("the bundled example's legend entries draw their symbols", async () => {
    const ex = Renderer.create(readFileSync('examples/world/style.json', 'utf8'), { loader: new NodeLoader({ baseDir: 'examples/world' }) });
    const land = await ex.renderLegendSwatch(0, ex.params({ land: '#102030' }), { size: 20 });
    expect(at(land, 10, 10).map((v) => Math.round(v * 255))).toEqual([0x10, 0x20, 0x30, 255]);
  });
});
