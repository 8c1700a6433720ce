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

describe('legend colour scales (issue 23: the heatmap legend had no colour scale)', () => {
  const ramp = {
    output: 'ramp',
    params: {
      top: { type: 'number', default: 10, min: 1, max: 100 },
      hot: { type: 'color', default: '#ffffff' },
      opacity: { type: 'number', default: 1, min: 0, max: 1 },
    },
    sources: { s: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } } },
    nodes: {
      f: { op: 'features', source: 's' },
      d: { op: 'density', features: '@f', radius: 10 },
      ramp: {
        op: 'color-ramp',
        field: '@d',
        opacity: '$opacity',
        stops: [
          { value: 0, color: '#000000' },
          { value: '$top', color: '$hot' },
        ],
      },
      shade: { op: 'color-ramp', field: '@d', 'ramp-expr': ['interpolate', ['linear'], ['heatmap-density'], 0, '#000000', 1, '#ff0000'] },
      fill: { op: 'fill-solid', features: '@f', fill: '#123456' },
    },
    legend: {
      entries: [
        { label: 'Density', from: 'ramp' },
        { label: 'Shade', from: 'shade' },
        { label: 'Fill', from: 'fill' },
      ],
    },
  };
  const r = Renderer.create(ramp);
  const px8 = (s: { raster: { data: Float32Array; width: number } }, x: number) => at(s.raster, x, 0).map((v) => Math.round(v * 255));

  test("a color-ramp entry is its scale: first to last stop value, each column the ramp's colour at its value", () => {
    // Witness: linear interpolation in sRGB between two stops (the rgb space), a closed form:
    // column x of 11 holds value x, whose colour is x/10 of the way from black to white.
    const s = r.renderLegendScale(0, r.params(), { width: 11, height: 3 })!;
    expect([s.min, s.max, s.raster.width, s.raster.height]).toEqual([0, 10, 11, 3]);
    // (The op's table is within 0.5/255 of exact, so a value at a half step may round either way.)
    for (let x = 0; x <= 10; x++) {
      const want = (255 * x) / 10;
      expect([x, px8(s, x).map((v, k) => Math.abs(v - (k < 3 ? want : 255)) <= 1)]).toEqual([x, [true, true, true, true]]);
    }
    expect(at(s.raster, 4, 2)).toEqual(at(s.raster, 4, 0)); // every row alike
  });

  test('params move the stops, colour them and fade the scale; a ramp-expr spans 0..1; other entries have none', () => {
    const s = r.renderLegendScale(0, r.params({ top: '20', hot: '#ff0000', opacity: '0.5' }), { width: 5 })!;
    expect([s.min, s.max]).toEqual([0, 20]);
    expect(px8(s, 4)).toEqual([128, 0, 0, 128]); // premultiplied red at half opacity
    const e = r.renderLegendScale(1, r.params(), { width: 3 })!;
    expect([e.min, e.max]).toEqual([0, 1]);
    expect(px8(e, 2)).toEqual([255, 0, 0, 255]);
    expect(r.renderLegendScale(2, r.params())).toBeUndefined();
  });

  test('the heatmap example has one, ending at its hot colour', () => {
    const doc = JSON.parse(readFileSync('examples/heatmap/style.json', 'utf8'));
    const h = Renderer.create(doc, { loader: new NodeLoader({ baseDir: 'examples/heatmap' }) });
    const i = (h.legend?.entries ?? []).findIndex((e) => e.from === 'ramp');
    const s = h.renderLegendScale(i, h.params(), { width: 50 })!;
    expect([s.min, s.max]).toEqual([0, 1]);
    const hot = doc.params.hot.default as string;
    const opacity = doc.params.opacity.default as number;
    const [rr, gg, bb] = [1, 3, 5].map((k) => parseInt(hot.slice(k, k + 2), 16));
    expect(px8(s, 49).map((v, k) => Math.abs(v - [rr! * opacity, gg! * opacity, bb! * opacity, 255 * opacity][k]!) <= 1)).toEqual([true, true, true, true]);
    expect(px8(s, 0)[3]).toBe(0); // the first stop is transparent
  });
});
