// A bool param switches a layer on and off (issue 23): an opacity field (blend `opacity`,
// `fill-alpha`, the paint ops' `opacity`) takes a bool param or scalar, true = 1, false = 0.
// Witness: the closed form of normal compositing (W3C Compositing: co = cs·as + cb·(1 − as)):
// opacity 1 over an opaque base shows the layer, opacity 0 shows the base.
import { Renderer, TilegraphError } from '../../src/index.js';

const style = (opacityField: Record<string, unknown>) => ({
  output: 'map',
  params: { roads: { type: 'bool', default: true, description: 'show the red layer' } },
  nodes: {
    paper: { op: 'solid', color: '#ffffff' },
    ink: { op: 'solid', color: '#ff0000' },
    map: { op: 'blend', base: '@paper', over: '@ink', ...opacityField },
  },
});

const firstPixel = async (r: Renderer, params: Record<string, string>) => {
  const raster = await r.renderTile({ z: 0, x: 0, y: 0 }, r.params(params), { tileSize: 8 });
  return Array.from(raster.data.subarray(0, 4)).map((v) => Math.round(v * 255));
};

test('blend opacity from a bool param: true shows the layer, false hides it', async () => {
  const r = Renderer.create(style({ opacity: '$roads' }));
  expect(await firstPixel(r, {})).toEqual([255, 0, 0, 255]);
  expect(await firstPixel(r, { roads: 'false' })).toEqual([255, 255, 255, 255]);
  expect(await firstPixel(r, { roads: 'true' })).toEqual([255, 0, 0, 255]);
});

test('fill-alpha and a paint op opacity take a bool param too; a bool scalar node works like the param', async () => {
  const doc = {
    output: 'map',
    params: { on: { type: 'bool', default: false } },
    sources: {
      s: {
        type: 'geojson',
        data: {
          type: 'Polygon',
          coordinates: [
            [
              [-170, -80],
              [170, -80],
              [170, 80],
              [-170, 80],
              [-170, -80],
            ],
          ],
        },
      },
    },
    nodes: {
      f: { op: 'features', source: 's' },
      paper: { op: 'solid', color: '#ffffff' },
      fill: { op: 'fill-solid', features: '@f', fill: '#0000ff', 'fill-alpha': '$on' },
      map: { op: 'blend', base: '@paper', over: '@fill' },
    },
  };
  const r = Renderer.create(doc);
  const centre = async (params: Record<string, string>) => {
    const raster = await r.renderTile({ z: 0, x: 0, y: 0 }, r.params(params), { tileSize: 8 });
    const i = (4 * 8 + 4) * 4;
    return Array.from(raster.data.subarray(i, i + 4)).map((v) => Math.round(v * 255));
  };
  expect(await centre({})).toEqual([255, 255, 255, 255]);
  expect(await centre({ on: 'true' })).toEqual([0, 0, 255, 255]);
  const node = Renderer.create({
    ...style({ opacity: '@show' }),
    nodes: {
      ...style({}).nodes,
      show: { op: 'expr', type: 'bool', expr: ['<', ['zoom'], 10] },
      map: { op: 'blend', base: '@paper', over: '@ink', opacity: '@show' },
    },
  });
  expect(await firstPixel(node, {})).toEqual([255, 0, 0, 255]); // zoom 0 < 10: shown
});

test('elsewhere a bool param in a number field is still a build error naming the field', () => {
  let e: unknown;
  try {
    Renderer.create({
      ...style({}),
      nodes: { ...style({}).nodes, blur: { op: 'blur', input: '@ink', sigma: '$roads' }, map: { op: 'blend', base: '@paper', over: '@blur' } },
    });
  } catch (x) {
    e = x;
  }
  expect(e).toBeInstanceOf(TilegraphError);
  expect((e as TilegraphError).problems).toEqual([{ pointer: '/nodes/blur/sigma', message: "param 'roads' is a bool but this field takes a number" }]);
});
