// The converter's structure: what a MapLibre style becomes and what is reported. What the graph
// draws is checked against MapLibre itself in tests/maplibre (its render tests).
import { convertMapLibre } from './convert.js';
import { isMapLibreStyle, formatNote, type MlStyle } from './types.js';
import { loadAnyStyle } from '../style/load.js';
import { Renderer, StyleError } from '../index.js';
import { squareFeature } from '../../tests/helpers/geometry.js';

const geojson = { type: 'geojson', data: { type: 'FeatureCollection', features: [] } };
const style = (layers: unknown[], sources: Record<string, unknown> = { g: geojson }): MlStyle => ({ version: 8, sources, layers }) as unknown as MlStyle;

describe('MapLibre style conversion', () => {
  test('detection: version 8 with a layers array', () => {
    expect(isMapLibreStyle(style([]))).toBe(true);
    expect(isMapLibreStyle({ version: 8 })).toBe(false);
    expect(isMapLibreStyle({ output: 'x', nodes: {} })).toBe(false);
  });

  test('layers composite in order over each other, with the 512 px zoom basis', () => {
    const { style: doc, notes } = convertMapLibre(
      style([
        { id: 'bg', type: 'background', paint: { 'background-color': 'rgb(255, 0, 0)' } },
        { id: 'water', type: 'fill', source: 'g', paint: { 'fill-color': 'blue', 'fill-antialias': false } },
        { id: 'dots', type: 'circle', source: 'g' },
      ]),
    );
    expect(notes).toEqual([]);
    expect(doc['zoom-basis']).toBe(512);
    expect(doc.nodes.bg).toEqual({ op: 'solid', color: '#ff0000' });
    expect(doc.nodes.water).toMatchObject({ op: 'fill-solid', fill: '#0000ff', antialias: false });
    const out = doc.nodes[doc.output]!;
    expect(out).toMatchObject({ op: 'blend', over: '@dots' });
    expect(doc.nodes[String(out.base).slice(1)]).toMatchObject({ op: 'blend', base: '@bg', over: '@water' });
  });

  test('legacy stops functions and filters become expressions; zoom curves become expr nodes or *-expr fields', () => {
    const { style: doc } = convertMapLibre(
      style([
        {
          id: 'roads',
          type: 'line',
          source: 'g',
          filter: ['==', 'kind', 'road'],
          paint: {
            'line-width': {
              stops: [
                [10, 1],
                [16, 8],
              ],
            },
            'line-offset': {
              stops: [
                [10, 0],
                [16, 4],
              ],
            },
          },
        },
      ]),
    );
    expect(doc.nodes['roads-features']!['filter-expr']).toEqual(['==', ['get', 'kind'], 'road']);
    expect(doc.nodes.roads).toMatchObject({ 'width-expr': ['interpolate', ['linear'], ['zoom'], 10, 1, 16, 8], 'width-max': 8 });
    expect(doc.nodes.roads).toMatchObject({ 'offset-expr': ['interpolate', ['linear'], ['zoom'], 10, 0, 16, 4], 'offset-max': 4 });
  });

  test('what cannot be drawn is reported with its layer, property and reason', () => {
    const { notes } = convertMapLibre(
      style([
        { id: 'b', type: 'fill-extrusion', source: 'g' },
        { id: 'l', type: 'line', source: 'g', paint: { 'line-gradient': ['interpolate', ['linear'], ['line-progress'], 0, 'red', 1, 'blue'] } },
        { id: 'h', type: 'line', source: 'g', layout: { visibility: 'none' }, paint: { 'line-gradient': 'red' } },
      ]),
    );
    const lines = notes.map(formatNote);
    expect(lines).toEqual([
      "layer 'b': fill-extrusion is drawn as its roofs seen from straight above (no height, walls or lighting)",
      "layer 'l' line-gradient: line gradients are not supported; the line colour is drawn",
    ]);
  });

  test('sources: pmtiles:// urls, TileJSON urls, raster-dem encodings, geojson units', () => {
    const { style: doc, notes } = convertMapLibre(
      style([], {
        a: { type: 'vector', url: 'pmtiles://data/x.pmtiles' },
        b: { type: 'vector', url: 'https://example.com/tiles.json' },
        c: { type: 'raster-dem', tiles: ['t/{z}/{x}/{y}.png'], encoding: 'terrarium', tileSize: 256 },
        d: { type: 'geojson', data: 'x.geojson', buffer: 64, tolerance: 1, cluster: true },
        e: { type: 'video', urls: [], coordinates: [] },
      }),
    );
    expect(doc.sources).toEqual({
      a: { type: 'pmtiles', url: 'data/x.pmtiles' },
      b: { type: 'mvt', tilejson: 'https://example.com/tiles.json', missing: 'empty' },
      c: { type: 'dem', tiles: ['t/{z}/{x}/{y}.png'], tileSize: 256, missing: 'empty', encoding: 'terrarium' },
      d: { type: 'geojson', data: 'x.geojson', buffer: 512, tolerance: 8 },
    });
    expect(notes.map(formatNote)).toEqual([
      'source:d: cluster is not supported; ignored',
      "source:e: source type 'video' is not supported; its layers are left out",
    ]);
  });

  test('every host loads a MapLibre style through loadAnyStyle: the converted graph validates and builds', () => {
    const input = style([{ id: 'bg', type: 'background', minzoom: 3, paint: { 'background-color': '#123456', 'background-opacity': 0.5 } }]);
    const loaded = loadAnyStyle(JSON.stringify(input));
    expect(loaded.maplibre).toEqual([]);
    const r = Renderer.create(input);
    expect(r.maplibreNotes).toEqual([]);
    expect(r.doc['zoom-basis']).toBe(512);
  });

  test('an invalid MapLibre style is refused with the style-spec validation messages and their place', () => {
    expect(() => loadAnyStyle(style([{ id: 'x', type: 'fill', source: 'nowhere' }]))).toThrow(StyleError);
    try {
      loadAnyStyle(style([{ id: 'x', type: 'fill', source: 'nowhere' }]));
    } catch (e) {
      expect((e as StyleError).problems[0]).toEqual({ pointer: '/layers/0', message: 'source "nowhere" not found' });
    }
  });
});

describe('metadata["tilegraph:graph"]: a MapLibre style grown into a graph', () => {
  const base = [
    { id: 'bg', type: 'background', paint: { 'background-color': '#ffffff' } },
    { id: 'water', type: 'fill', source: 'g', paint: { 'fill-color': '#0000ff' } },
  ];
  test("its nodes join the converted graph, reading '@basemap' (the composite of every layer) and the layers' nodes", () => {
    const graph = {
      params: { grain: { type: 'number', default: 0.5, min: 0, max: 1 } },
      nodes: {
        water: { op: 'noise', 'scale-px': 4 },
        shade: { op: 'blend', base: '@basemap', over: '@water-2', mode: 'multiply', opacity: '$grain' },
      },
      output: 'shade',
      description: 'grown',
    };
    const { style: doc, notes } = convertMapLibre({ ...style(base), metadata: { 'tilegraph:graph': graph } } as MlStyle);
    expect(notes).toEqual([]);
    expect(doc.output).toBe('shade');
    expect(doc.params).toEqual(graph.params);
    expect(doc.description).toBe('grown');
    // The extension's names come first: the layer 'water' takes 'water-2'.
    expect(doc.nodes.water).toEqual({ op: 'noise', 'scale-px': 4 });
    expect(doc.nodes['water-2']).toMatchObject({ op: 'fill-solid', fill: '#0000ff' });
    // The fill and its outline composited in turn over the background.
    expect(doc.nodes.basemap).toMatchObject({ op: 'blend', base: '@composite', over: '@water-outline' });
    expect(doc.nodes.composite).toMatchObject({ op: 'blend', base: '@bg', over: '@water-2' });
    // It loads and builds as any style.
    expect(Renderer.create({ ...style(base), metadata: { 'tilegraph:graph': graph } }).doc.output).toBe('shade');
  });

  test('an unusable graph is reported and left out, the basemap drawn', () => {
    for (const [graph, why] of [
      [{ nodes: { x: { op: 'solid' } }, output: 'nowhere' }, "'output' must name one of its nodes or 'basemap'"],
      [{ nodes: { basemap: { op: 'solid' } } }, "node name 'basemap' is reserved"],
      [[1], 'expected an object with nodes and output'],
    ] as const) {
      const { style: doc, notes } = convertMapLibre({ ...style(base), metadata: { 'tilegraph:graph': graph } } as MlStyle);
      expect(notes.map(formatNote)).toEqual([`metadata.tilegraph:graph: ${why}; the graph is left out`]);
      expect(doc.nodes[doc.output]).toMatchObject({ op: 'blend', base: '@composite', over: '@water-outline' });
    }
  });
});

describe('a fill and its anti-aliased outline', () => {
  // Two overlapping squares, translucent, with an outline of another colour over a background.
  const squares = { type: 'geojson', data: { type: 'FeatureCollection', features: [squareFeature(-40, -30, 30), squareFeature(-20, -10, 30)] } };
  const layers = [
    { id: 'bg', type: 'background', paint: { 'background-color': '#f4f1ea' } },
    { id: 'park', type: 'fill', source: 's', paint: { 'fill-color': '#2f8a3a', 'fill-outline-color': '#a03020', 'fill-opacity': 0.6 } },
  ];

  test('composite in turn over the layers below, each painted straight onto them (fused)', () => {
    const { style: doc } = convertMapLibre(style(layers, { s: squares }));
    expect(doc.nodes.composite).toMatchObject({ op: 'blend', base: '@bg', over: '@park' });
    expect(doc.nodes[doc.output]).toMatchObject({ op: 'blend', base: '@composite', over: '@park-outline' });
    const plan = Renderer.create(doc).plan;
    expect(plan.fusions.get('composite')?.paintId).toBe('park');
    expect(plan.fusions.get(doc.output)?.paintId).toBe('park-outline');
  });

  test('the same pixels as the outline over the fill composited as one layer (source-over is associative), within float rounding', async () => {
    const { style: direct } = convertMapLibre(style(layers, { s: squares }));
    const grouped = JSON.parse(JSON.stringify(direct)) as typeof direct;
    grouped.nodes['park-with-outline'] = { op: 'blend', base: '@park', over: '@park-outline' };
    grouped.nodes[grouped.output] = { op: 'blend', base: '@bg', over: '@park-with-outline' };
    delete grouped.nodes.composite;
    const pixels = async (doc: typeof direct) =>
      (await Renderer.create(doc).renderWindow({ z: 2, x0: 256, y0: 384, width: 256, height: 256, tileSize: 256 })).raster.data;
    const a = await pixels(direct);
    const b = await pixels(grouped);
    // The window holds both squares and their overlap: the fill (green over the paper) and the
    // outline (red over it) are both drawn.
    let fill = 0;
    let outline = 0;
    let maxDiff = 0;
    for (let i = 0; i < a.length; i++) {
      maxDiff = Math.max(maxDiff, Math.abs(a[i]! - b[i]!));
      if (i % 4 === 0 && a[i + 1]! > a[i]! + 0.1) fill++;
      if (i % 4 === 0 && a[i]! > a[i + 1]! + 0.1) outline++;
    }
    expect(fill).toBeGreaterThan(1000);
    expect(outline).toBeGreaterThan(100);
    expect(maxDiff).toBeLessThan(1e-6);
  });
});

describe('shared feature selections', () => {
  // A road's casing and its fill, a park's fill and its outline: layers with the same source,
  // source-layer, filter and zoom range read one features node, selected once a render.
  const roads = {
    type: 'geojson',
    data: {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { class: 'primary' },
          geometry: {
            type: 'LineString',
            coordinates: [
              [-20, -5],
              [20, 5],
            ],
          },
        },
        {
          type: 'Feature',
          properties: { class: 'street' },
          geometry: {
            type: 'LineString',
            coordinates: [
              [-20, 5],
              [20, -5],
            ],
          },
        },
      ],
    },
  };
  const major = ['==', ['get', 'class'], 'primary'];
  const layers = [
    { id: 'casing', type: 'line', source: 'r', filter: major, paint: { 'line-color': '#804000', 'line-width': 9 } },
    { id: 'fill', type: 'line', source: 'r', filter: major, paint: { 'line-color': '#ffd080', 'line-width': 5 } },
    { id: 'minor', type: 'line', source: 'r', filter: ['!=', ['get', 'class'], 'primary'], paint: { 'line-color': '#ffffff', 'line-width': 3 } },
    { id: 'late', type: 'line', source: 'r', minzoom: 3, filter: major, paint: { 'line-color': '#000000', 'line-width': 1 } },
  ];

  test('layers with the same source, filter and zoom range read one features node; any difference keeps its own', () => {
    const { style: doc } = convertMapLibre(style(layers, { r: roads }));
    expect(doc.nodes.casing!.features).toBe('@casing-features');
    expect(doc.nodes.fill!.features).toBe('@casing-features');
    expect(doc.nodes['fill-features']).toBeUndefined();
    expect(doc.nodes.minor!.features).toBe('@minor-features');
    expect(doc.nodes.late!.features).toBe('@late-features');
    expect(Object.values(doc.nodes).filter((n) => n.op === 'features')).toHaveLength(3);
  });

  test('the shared selection draws what a selection per layer draws (the same pixels)', async () => {
    const { style: shared } = convertMapLibre(style(layers, { r: roads }));
    const own = JSON.parse(JSON.stringify(shared)) as typeof shared;
    own.nodes['fill-features'] = { ...own.nodes['casing-features']! };
    own.nodes.fill!.features = '@fill-features';
    const pixels = async (doc: typeof shared) =>
      (await Renderer.create(doc).renderWindow({ z: 3, x0: 896, y0: 896, width: 256, height: 256, tileSize: 256 })).raster.data;
    const a = await pixels(shared);
    const b = await pixels(own);
    expect(a.some((v, i) => i % 4 === 3 && v > 0.5)).toBe(true);
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
  });
});

describe('zoom basis', () => {
  test('expressions at 256 px tiles see one zoom less than the tile zoom; at 512 px the tile zoom; @2x of 256 one less', async () => {
    const seen: number[] = [];
    const input = style([{ id: 'bg', type: 'background', paint: { 'background-opacity': ['interpolate', ['linear'], ['zoom'], 0, 0, 10, 1] } }]);
    const r = Renderer.create(input);
    for (const w of [
      { z: 5, tileSize: 256 },
      { z: 5, tileSize: 512 },
      { z: 5, tileSize: 512, pixelRatio: 2 },
    ]) {
      const out = await r.renderWindow({ ...w, x0: 0, y0: 0, width: 1, height: 1 });
      seen.push(Math.round(out.raster.data[3]! * 1000) / 100);
    }
    expect(seen).toEqual([4, 5, 4]);
  });
});

describe('line-gap-width', () => {
  // MapLibre's line shader (line.vertex.glsl): without a gap the line is one line of line-width;
  // with one, two lines of line-width each side of it. A zoom curve that is 0 at some zooms
  // draws one line there (issue 21: it used to draw two lines at every zoom).
  test('a zoom-dependent gap that is 0 at this zoom draws the single line; at a zoom where it is not, the casing', async () => {
    const line = {
      type: 'geojson',
      data: {
        type: 'Feature',
        properties: {},
        geometry: {
          type: 'LineString',
          coordinates: [
            [-10, 0.001],
            [10, 0.001],
          ],
        },
      },
    };
    const layer = (gap: unknown) => ({
      id: 'l',
      type: 'line',
      source: 'g',
      paint: { 'line-width': 3, ...(gap === undefined ? {} : { 'line-gap-width': gap }) },
    });
    const curve = ['interpolate', ['linear'], ['zoom'], 4, 0, 5, 0, 6, 8];
    const render = async (gap: unknown, z: number) => {
      const r = Renderer.create(style([layer(gap)], { g: line }));
      // A column across the line's middle (world x at the centre, the line at the equator).
      const T = 512;
      const out = await r.renderWindow({ z, tileSize: T, x0: (T << z) / 2, y0: (T << z) / 2 - 16, width: 1, height: 32 });
      return Array.from(out.raster.data.filter((_, i) => i % 4 === 3)).map((a) => Math.round(a * 255));
    };
    // Zoom 4.x (MapLibre's zoom z at 512 px tiles): gap 0, the plain line's pixels exactly.
    const single = await render(undefined, 4);
    expect(await render(curve, 4)).toEqual(single);
    // A 3 px line: its fade is symmetric, so the column holds 3 px of coverage.
    expect(Math.abs(single.reduce((a, b) => a + b, 0) - 3 * 255)).toBeLessThanOrEqual(3);
    // Zoom 6: gap 8, two 3 px lines with a hole between them.
    const cased = await render(curve, 6);
    expect(cased[16]).toBe(0);
    expect(Math.max(...cased.slice(0, 12))).toBe(255);
    expect(Math.max(...cased.slice(20))).toBe(255);
  });
});
