import { Renderer, toRGBA8, type Loader } from '../../src/index.js';
import { NodeLoader } from '../../src/hosts/node/loader.js';
import { compareRGBA, type Tolerance } from '../helpers/compare.js';
import { fixturesTest, fixture } from '../helpers/fixtures.js';
import { worldSeam } from '../helpers/seam.js';

/** As in seam.test.ts: at most 1/255 per channel, except on at most 0.01 % of the pixels. */
const TOLERANCE: Tolerance = { channel: 1, fraction: 0.0001 };

async function seam(style: object, loader: Loader, z: number, x: number, y: number, T = 256) {
  const r = Renderer.create(style, { loader });
  const W = 2 * T;
  const mosaic = new Uint8Array(W * W * 4);
  for (const [dx, dy] of [
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ] as const) {
    const px = toRGBA8(await r.renderTile({ z, x: x + dx, y: y + dy }, undefined, { tileSize: T }));
    for (let row = 0; row < T; row++) mosaic.set(px.subarray(row * T * 4, (row + 1) * T * 4), ((dy * T + row) * W + dx * T) * 4);
  }
  const win = toRGBA8((await r.renderWindow({ z, x0: x * T, y0: y * T, width: W, height: W, tileSize: T })).raster);
  const cmp = compareRGBA(win, mosaic, W, W, TOLERANCE);
  let covered = 0;
  for (let i = 3; i < win.length; i += 4) if (win[i]! > 0) covered++;
  return { ok: cmp.ok, badPixels: cmp.badPixels, maxDiff: cmp.maxDiff, covered: covered / (W * W) };
}

function expectSeamless(r: Awaited<ReturnType<typeof seam>>, minCovered: number): void {
  if (process.env.SEAM_DEBUG) console.log(JSON.stringify(r));
  expect(r.covered).toBeGreaterThan(minCovered);
  expect({ ok: r.ok, badPixels: r.badPixels }).toEqual({ ok: true, badPixels: expect.any(Number) });
}

/**
 * A style drawing one geometry node `g` (built on `@src`): polygons filled opaque, points as
 * circles, and for ops that make lines (`lines`), everything buffered by 1.5 px (round) and filled.
 * Lines are drawn as a buffer rather than with stroke-solid (whose ends at source-tile cuts are
 * tested in tests/sources/seam-stroke.test.ts): a buffer's round ends overlap and unite exactly.
 */
function drawn(sources: object, src: object, g: object, extra: Record<string, object> = {}, lines = false) {
  const geom = lines
    ? { wide: { op: 'buffer', features: '@g', distance: 1.5, join: 'round' }, polys: { op: 'fill-solid', features: '@wide', fill: '#08306b' } }
    : { polys: { op: 'fill-solid', features: '@g', fill: '#3182bd' } };
  return {
    output: 'out',
    sources,
    nodes: {
      src,
      ...extra,
      g,
      ...geom,
      dots: { op: 'circles', features: '@g', radius: 3, color: '#e6550d' },
      out: { op: 'blend', base: '@polys', over: '@dots' },
    },
  };
}

// `buffer: 0`: a tile render then takes everything beyond its tile from the neighbouring tiles, as
// the window render does. With geojson-vt's default buffer, the 4 px just past a tile come from the
// tile's own buffer, whose clip points are rounded to 1/32 px: lines drawn there differ from the
// window render by up to 6/255 (measured), whatever the geometry op (plain fills too).
const NE = () => new NodeLoader({ baseDir: fixture('geojson') });
const countries = { c: { type: 'geojson', data: 'ne_110m_admin_0_countries.geojson', buffer: 0 } };
const rivers = { r: { type: 'geojson', data: 'ne_110m_rivers_lake_centerlines.geojson', buffer: 0 } };
const BERLIN = () => new NodeLoader({ baseDir: fixture('mvt/vector-tile-js') });
const berlin = { b: { type: 'mvt', tiles: ['{z}-{x}-{y}.mvt'], minzoom: 14, maxzoom: 14 } };
// The Berlin tile is alone: margins stay under its 8 px (z15) buffer so that no neighbour is read.
// Europe at z4 (x 8..9, y 4..5: the Alps to Scandinavia); Berlin's z14 tile 8801/5371 is z15 17602..17603 / 10742..10743.
const EU = [4, 8, 4] as const;
const BE = [15, 17602, 10742] as const;

describe('whole features (GeoJSON): the dash pattern is anchored at the line start, not at tile edges', () => {
  test('a line from world x 100 to 400 (z2) dashed 8/8: tile 1/1 starts in a gap (156 px from the start is 12 into the period)', async () => {
    const W = 1024;
    const ll = (x: number, y: number) => [(x / W) * 360 - 180, (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / W))) * 180) / Math.PI];
    const style = {
      output: 'out',
      sources: {
        l: { type: 'geojson', data: { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: [ll(100, 300.5), ll(400, 300.5)] } } },
      },
      nodes: {
        f: { op: 'features', source: 'l' },
        d: { op: 'dash', features: '@f', 'dash-px': 8, 'gap-px': 8 },
        out: { op: 'stroke-solid', features: '@d', width: 1, color: '#000000' },
      },
    };
    const r = Renderer.create(style);
    const px = toRGBA8(await r.renderTile({ z: 2, x: 1, y: 1 }, undefined, { tileSize: 256 }));
    const alphaAt = (x: number) => px[(44 * 256 + x) * 4 + 3]!;
    // World x 256..260 is gap, 260..268 dash, 268..276 gap, 276..284 dash.
    expect([1, 2, 3].map(alphaAt)).toEqual([0, 0, 0]);
    expect([5, 8, 11, 21, 24, 27].every((x) => alphaAt(x) > 200)).toBe(true);
    expect([13, 16, 19].map(alphaAt)).toEqual([0, 0, 0]);
  });
});

test('a 100-degree straight line at z14: only its part in the canvas is dashed (no dash bound hit), phase from the line start', async () => {
  // From lng -50 to 50 along lat 0 (world y = 2^21 / 2 at z14, 256 px): 2^21 * 100/360 px long.
  const style = {
    output: 'out',
    sources: {
      l: {
        type: 'geojson',
        data: {
          type: 'Feature',
          properties: {},
          geometry: {
            type: 'LineString',
            coordinates: [
              [-50, -0.0001],
              [50, -0.0001],
            ],
          },
        },
      },
    },
    nodes: {
      f: { op: 'features', source: 'l' },
      d: { op: 'dash', features: '@f', 'dash-px': 8, 'gap-px': 8 },
      out: { op: 'stroke-solid', features: '@d', width: 2, color: '#000000' },
    },
  };
  const W = 256 * 2 ** 14;
  const x0 = Math.round(W / 2) + 1000; // tile column 8192 + 3 starts 768 px east of lng 0
  const tx = Math.floor(x0 / 256);
  const px = toRGBA8(await Renderer.create(style).renderTile({ z: 14, x: tx, y: W / 2 / 256 }, undefined, { tileSize: 256 }));
  // The line starts at world x = W * 130/360; a world x is inked when (x - start) mod 16 < 8.
  const start = (W * 130) / 360;
  let agree = 0,
    total = 0;
  for (let i = 0; i < 256; i++) {
    const x = tx * 256 + i + 0.5;
    const pos = (((x - start) % 16) + 16) % 16;
    if (Math.abs(pos - 0) < 1 || Math.abs(pos - 8) < 1 || Math.abs(pos - 16) < 1) continue; // anti-aliased dash ends
    total++;
    if (px[i * 4 + 3]! > 128 === pos < 8) agree++;
  }
  expect(agree).toBe(total);
});

test('a stroke alone on its features node (GeoJSON): the tiles of z2 and z3 equal the world as one window', async () => {
  // The features node samples only the stroke's pad (1 px) beyond each tile. Reading the tile
  // beside it only where the canvas passed geojson-vt's 4 px buffer took the line just past a tile
  // edge from the buffer of the tile itself: tile-edge pixels differed from the window by up to
  // 139/255. Witness: the mosaic of tiles equals one window render (a closed-form invariant).
  for (const [width, join] of [
    [1.5, 'round'],
    [4, 'miter'],
  ] as const) {
    const r = Renderer.create(
      {
        output: 'out',
        sources: { countries: { type: 'geojson', data: 'npm:world-atlas/countries-110m.json', maxzoom: 6 } },
        nodes: {
          c: { op: 'features', source: 'countries' },
          bg: { op: 'solid', color: '#ffffff' },
          line: { op: 'stroke-solid', features: '@c', color: '#000000', width, join },
          out: { op: 'blend', base: '@bg', over: '@line' },
        },
      },
      { loader: new NodeLoader({ baseDir: 'examples/world' }) },
    );
    expect(r.plan.nodes.get('c')!.margin).toBeLessThan(5);
    for (const z of [2, 3]) {
      const s = await worldSeam(r, z, 256);
      expect({ width, z, world: s.world.ok, bad: s.world.badPixels }).toEqual({ width, z, world: true, bad: 0 });
    }
  }
});

describe('seam invariant for geometry ops: 2x2 tile mosaic = window render', () => {
  describe('GeoJSON (Natural Earth countries and rivers, Europe z4)', () => {
    const c = { op: 'features', source: 'c' };
    fixturesTest('buffer (+6 round, -3 miter)', async () => {
      expectSeamless(await seam(drawn(countries, c, { op: 'buffer', features: '@src', distance: 6, join: 'round' }), NE(), ...EU), 0.3);
      expectSeamless(await seam(drawn(countries, c, { op: 'buffer', features: '@src', distance: -3 }), NE(), ...EU), 0.3);
    });
    fixturesTest('boundary', async () => {
      expectSeamless(await seam(drawn(countries, c, { op: 'boundary', features: '@src' }, {}, true), NE(), ...EU), 0.02);
    });
    fixturesTest('dot-density (POP_EST / area)', async () => {
      const g = { op: 'dot-density', features: '@src', 'density-expr': ['/', ['get', 'POP_EST'], 400000], 'spacing-px': 3, seed: 3 };
      expectSeamless(await seam(drawn(countries, c, g), NE(), ...EU), 0.05);
    });
    fixturesTest('feature-boolean (countries minus a buffer of the rivers; union)', async () => {
      const sources = { ...countries, ...rivers };
      const extra = { riv: { op: 'features', source: 'r' }, rbuf: { op: 'buffer', features: '@riv', distance: 5, join: 'round' } };
      expectSeamless(await seam(drawn(sources, c, { op: 'feature-boolean', a: '@src', b: '@rbuf', operation: 'difference' }, extra), NE(), ...EU), 0.3);
      expectSeamless(await seam(drawn(sources, c, { op: 'feature-boolean', a: '@src', b: '@rbuf', operation: 'union' }, extra), NE(), ...EU), 0.3);
    });
    fixturesTest('centroid of whole features (one point per country, every tile agrees; France with Guiana lies in the Atlantic)', async () => {
      expectSeamless(await seam(drawn(countries, c, { op: 'centroid', features: '@src' }), NE(), ...EU), 0.002);
      // z3 over the Atlantic and western Europe: France's centroid is far from any French land in view.
      expectSeamless(await seam(drawn(countries, c, { op: 'centroid', features: '@src' }), NE(), 3, 2, 2), 0.001);
    });
    fixturesTest('convex-hull and bbox of whole features (Northern Europe)', async () => {
      const north = { op: 'features', source: 'c', 'filter-expr': ['==', ['get', 'SUBREGION'], 'Northern Europe'] };
      expectSeamless(await seam(drawn(countries, north, { op: 'convex-hull', features: '@src' }, {}, true), NE(), ...EU), 0.3);
      expectSeamless(await seam(drawn(countries, north, { op: 'bbox', features: '@src' }, {}, true), NE(), ...EU), 0.3);
    });
    fixturesTest('dash of whole rivers (the pattern continues across tiles)', async () => {
      const riv = { op: 'features', source: 'r' };
      expectSeamless(await seam(drawn(rivers, riv, { op: 'dash', features: '@src', 'dash-px': 7, 'gap-px': 4, 'phase-px': 2 }, {}, true), NE(), ...EU), 0.003);
    });
    fixturesTest('densify', async () => {
      expectSeamless(await seam(drawn(countries, c, { op: 'densify', features: '@src', 'target-px': 4 }), NE(), ...EU), 0.3);
    });
  });

  describe('vector tiles (Berlin z14, over-zoomed to z15)', () => {
    fixturesTest('buffer of roads and landuse', async () => {
      const rd = { op: 'features', source: 'b', layer: 'road' };
      expectSeamless(await seam(drawn(berlin, rd, { op: 'buffer', features: '@src', distance: 4, join: 'round' }), BERLIN(), ...BE), 0.2);
      const lu = { op: 'features', source: 'b', layer: 'landuse' };
      expectSeamless(await seam(drawn(berlin, lu, { op: 'buffer', features: '@src', distance: -4, join: 'bevel' }), BERLIN(), ...BE), 0.1);
    });
    fixturesTest('boundary of buildings', async () => {
      const bu = { op: 'features', source: 'b', layer: 'building' };
      expectSeamless(await seam(drawn(berlin, bu, { op: 'boundary', features: '@src' }, {}, true), BERLIN(), ...BE), 0.1);
    });
    fixturesTest('dot-density of landuse', async () => {
      const lu = { op: 'features', source: 'b', layer: 'landuse' };
      expectSeamless(await seam(drawn(berlin, lu, { op: 'dot-density', features: '@src', density: 20000, 'spacing-px': 4 }), BERLIN(), ...BE), 0.02);
    });
    fixturesTest('feature-boolean: landuse minus buffered roads', async () => {
      const extra = { rd: { op: 'features', source: 'b', layer: 'road' }, rbuf: { op: 'buffer', features: '@rd', distance: 3, join: 'round' } };
      const lu = { op: 'features', source: 'b', layer: 'landuse' };
      expectSeamless(await seam(drawn(berlin, lu, { op: 'feature-boolean', a: '@src', b: '@rbuf', operation: 'difference' }, extra), BERLIN(), ...BE), 0.1);
    });
  });
});
