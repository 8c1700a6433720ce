// Wide polygons as RFC 7946 says (issue 19 part 5). RFC 7946 section 3.1.9: "In representing
// Features that cross the antimeridian, interoperability is improved by modifying their geometry.
// Any geometry that crosses the antimeridian SHOULD be represented by cutting it in two such that
// neither part's representation crosses the antimeridian", and section 3.1.1 / 3.1.6 positions and
// rings are straight lines between positions in longitude/latitude. So a GeoJSON edge from -180
// to 180 is a line across the whole world, not a step of zero length: GeoJSON is drawn as written.
// TopoJSON from world-atlas / us-atlas is spherical (d3: an edge is the short great-circle arc), so
// an edge from 179.4 to -180 crosses the antimeridian.
//
// Witnesses: the closed-form area of a longitude/latitude rectangle in Web Mercator pixels (x is
// linear in longitude, y = (1/2 - ln(tan(pi/4 + lat/2)) / 2pi) * world), the shoelace area of a
// projected ring (the filled coverage of straight edges between projected vertices), and Natural
// Earth's own GeoJSON countries (cut at the antimeridian by Natural Earth) against the same
// countries from world-atlas (built from Natural Earth 110m, spherical TopoJSON).
import { readFileSync } from 'node:fs';
import type { Feature, FeatureCollection, MultiPolygon, Polygon, Position } from 'geojson';
import { NodeLoader } from '../../src/hosts/node/loader.js';
import { Renderer } from '../../src/index.js';
import { unwrapAntimeridian } from '../../src/sources/antimeridian.js';
import { fixture, fixturesTest } from '../helpers/fixtures.js';

const T = 256;

/** Web Mercator y of a latitude, in world pixels at zoom z. */
const mercY = (lat: number, z: number) => (0.5 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / (2 * Math.PI)) * T * 2 ** z;
const mercX = (lng: number, z: number) => ((lng + 180) / 360) * T * 2 ** z;

/** Closed-form pixel area of the rectangle [w, s, e, n] inside tile z/x/y. */
function rectArea([w, s, e, n]: number[], z: number, x = 0, y = 0): number {
  const ix = Math.max(0, Math.min(mercX(e!, z), (x + 1) * T) - Math.max(mercX(w!, z), x * T));
  const iy = Math.max(0, Math.min(mercY(s!, z), (y + 1) * T) - Math.max(mercY(n!, z), y * T));
  return ix * iy;
}

/** Shoelace area of a lng/lat ring projected to world pixels at z0. */
function projectedArea(ring: Position[]): number {
  let a = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    const [x0, y0] = [mercX(ring[i]![0]!, 0), mercY(ring[i]![1]!, 0)];
    const [x1, y1] = [mercX(ring[i + 1]![0]!, 0), mercY(ring[i + 1]![1]!, 0)];
    a += x0 * y1 - x1 * y0;
  }
  return Math.abs(a) / 2;
}

/** A lng/lat rectangle ring, counter-clockwise (RFC 7946's right-hand rule for exteriors); clockwise when `hole`. */
function rect([w, s, e, n]: number[], hole = false): Position[] {
  const ccw: Position[] = [
    [w!, s!],
    [e!, s!],
    [e!, n!],
    [w!, n!],
    [w!, s!],
  ];
  return hole ? ccw.reverse() : ccw;
}

const polygon = (rings: Position[][], properties: Record<string, unknown> = {}): Feature<Polygon> => ({
  type: 'Feature',
  properties,
  geometry: { type: 'Polygon', coordinates: rings },
});

function fillStyle(source: Record<string, unknown>, filter?: unknown): object {
  return {
    output: 'o',
    sources: { s: { type: 'geojson', ...source } },
    nodes: { f: { op: 'features', ...(filter ? { 'filter-expr': filter } : {}) }, o: { op: 'fill-solid', features: '@f', fill: '#ff0000' } },
  };
}

const loader = new NodeLoader({ baseDir: process.cwd(), allowOutside: true });

/** Alpha of every pixel of tile z/x/y (256 px). */
async function alpha(style: object, z = 0, x = 0, y = 0): Promise<Float32Array> {
  const r = Renderer.create(style, { loader });
  const { data } = await r.renderTile({ z, x, y }, undefined, { tileSize: T });
  const a = new Float32Array(T * T);
  for (let i = 0; i < a.length; i++) a[i] = data[i * 4 + 3]!;
  return a;
}

const sum = (a: Float32Array) => a.reduce((s, v) => s + v, 0);
/** Alpha at a longitude / latitude of a z0 tile. */
const at = (a: Float32Array, lng: number, lat: number) => a[Math.floor(mercY(lat, 0)) * T + Math.min(T - 1, Math.floor(mercX(lng, 0)))]!;

describe('GeoJSON is drawn as written (RFC 7946)', () => {
  // geojson-vt stores positions on a grid of 8192 per tile: an edge moves by up to 1/64 px at z0.
  const tol = (perimeterPx: number) => perimeterPx / 32 + 1;

  test('a world mask (-180..180, -85..85 with a hole) covers the world but the hole', async () => {
    const world = [-180, -85, 180, 85];
    const hole = [-10, 40, 20, 55];
    const style = fillStyle({ data: polygon([rect(world), rect(hole, true)]) });
    for (const [z, x, y] of [
      [0, 0, 0],
      [1, 0, 0],
      [1, 1, 0],
      [1, 0, 1],
      [1, 1, 1],
    ] as const) {
      const a = await alpha(style, z, x, y);
      const want = rectArea(world, z, x, y) - rectArea(hole, z, x, y);
      expect([z, x, y, Math.abs(sum(a) - want) <= tol(4 * T)]).toEqual([z, x, y, true]);
    }
    const a = await alpha(style);
    expect(at(a, 0, 0)).toBeCloseTo(1, 5);
    expect(at(a, 179.5, 0)).toBeCloseTo(1, 5);
    expect(at(a, -179.5, -80)).toBeCloseTo(1, 5);
    expect(at(a, 5, 48)).toBe(0); // inside the hole
  });

  test('a band 359.98 degrees wide covers 359.98 degrees (it was unwrapped to a sliver 0.02 degrees wide)', async () => {
    const band = [-179.99, -10, 179.99, 10];
    const a = await alpha(fillStyle({ data: polygon([rect(band)]) }));
    expect(Math.abs(sum(a) - rectArea(band, 0)) <= tol(2 * T)).toBe(true);
    expect(at(a, 0, 0)).toBeCloseTo(1, 5);
    expect(at(a, 90, 5)).toBeCloseTo(1, 5);
  });

  test('a rectangle 281 degrees wide covers 281 degrees (an edge over 270 degrees was taken for a crossing)', async () => {
    const wide = [-140, -30, 141, 30];
    const a = await alpha(fillStyle({ data: polygon([rect(wide)]) }));
    expect(Math.abs(sum(a) - rectArea(wide, 0)) <= tol(2 * T)).toBe(true);
    expect(at(a, 0, 0)).toBeCloseTo(1, 5);
    expect(at(a, 170, 0)).toBe(0);
    expect(at(a, -170, 0)).toBe(0);
  });

  test('the same rings read with antimeridian: "short-way" cross the antimeridian instead', async () => {
    const band = [-179.99, -10, 179.99, 10];
    const a = await alpha(fillStyle({ data: polygon([rect(band)]), antimeridian: 'short-way' }));
    // 0.02 degrees at the edge of the world: 0.014 px wide.
    expect(sum(a)).toBeLessThan(rectArea(band, 0) / 1000);
    expect(at(a, 0, 0)).toBe(0);
  });

  fixturesTest("Natural Earth's countries: Antarctica fills the bottom of the map at every longitude, nothing is drawn in open ocean", async () => {
    const fc = JSON.parse(readFileSync(fixture('geojson/ne_110m_admin_0_countries.geojson'), 'utf8')) as FeatureCollection;
    const a = await alpha(fillStyle({ data: fc }));
    for (let lng = -179.5; lng < 180; lng += 5) {
      // Except where the Ross Ice Shelf's edge lies south of -85.05, beyond the map (-161.9 to -143.1).
      if (lng < -160 || lng > -144) expect([lng, at(a, lng, -85) > 0.99]).toEqual([lng, true]);
      // Open ocean, south of every country and north of Antarctica's coast (about -70 at its northernmost).
      expect([lng, at(a, lng, -60)]).toEqual([lng, 0]);
    }
    for (const [lng, lat] of [
      [-150, 0], // Pacific
      [-30, 0], // Atlantic
      [80, -20], // Indian Ocean
      [-170, 30],
      [170, 30],
    ]) {
      expect([lng, lat, at(a, lng, lat)]).toEqual([lng, lat, 0]);
    }
    // Russia on both sides of the antimeridian (Chukotka), Fiji's islands are too small to sample.
    expect(at(a, 175, 67.5)).toBeCloseTo(1, 5);
    expect(at(a, -178, 67.5)).toBeCloseTo(1, 5);
  });

  fixturesTest('a world mask with a Natural Earth country as its hole: the filled area is the world less the projected country', async () => {
    const fc = JSON.parse(readFileSync(fixture('geojson/ne_110m_admin_0_countries.geojson'), 'utf8')) as FeatureCollection;
    const de = fc.features.find((f) => f.properties?.NAME === 'Germany')!.geometry as Polygon;
    const ring = de.coordinates[0]!;
    const world = [-180, -85, 180, 85];
    const a = await alpha(fillStyle({ data: polygon([rect(world), [...ring].reverse()]) }));
    const want = rectArea(world, 0) - projectedArea(ring);
    // Germany's outline at z0 is about 10 px around: quantisation and simplification move little.
    expect(Math.abs(sum(a) - want)).toBeLessThan(tol(4 * T) + 2);
    expect(projectedArea(ring)).toBeGreaterThan(4);
    expect(at(a, 10.5, 51)).toBe(0);
    expect(at(a, 0, 0)).toBeCloseTo(1, 5);
  });
});

describe('TopoJSON crosses the antimeridian the short way (spherical, as d3 writes world-atlas)', () => {
  const topo = 'npm:world-atlas/countries-110m.json';
  const ne = () => JSON.parse(readFileSync(fixture('geojson/ne_110m_admin_0_countries.geojson'), 'utf8')) as FeatureCollection;

  test.each(['Russia', 'Fiji', 'Antarctica'])('%s from world-atlas draws no band across the map', async (name) => {
    const a = await alpha(fillStyle({ data: topo }, ['==', ['get', 'name'], name]));
    const filled = sum(a);
    expect(filled).toBeGreaterThan(0.5);
    if (name === 'Antarctica') {
      // The whole bottom row of latitudes, nothing north of -60.
      for (let lng = -179.5; lng < 180; lng += 5) if (lng < -160 || lng > -144) expect([lng, at(a, lng, -85) > 0.99]).toEqual([lng, true]);
      for (let lng = -179.5; lng < 180; lng += 5) expect([lng, at(a, lng, -55)]).toEqual([lng, 0]);
    } else {
      // Both stay within 60 degrees of the antimeridian (Russia's Kaliningrad excepted: lon 20).
      for (let lng = -100; lng <= 10; lng += 5) for (const lat of [-20, 60, 70]) expect([lng, lat, at(a, lng, lat)]).toEqual([lng, lat, 0]);
    }
  });

  fixturesTest.each(['Russia', 'Fiji', 'Antarctica'])('%s: world-atlas (spherical TopoJSON) covers what Natural Earth (cut GeoJSON) covers', async (name) => {
    const f = ne().features.find((x) => x.properties?.NAME === name)!;
    const mine = await alpha(fillStyle({ data: topo }, ['==', ['get', 'name'], name]));
    const theirs = await alpha(fillStyle({ data: { type: 'FeatureCollection', features: [f] } }));
    let inter = 0,
      union = 0;
    for (let i = 0; i < mine.length; i++) {
      inter += Math.min(mine[i]!, theirs[i]!);
      union += Math.max(mine[i]!, theirs[i]!);
    }
    // The two outlines are the same 110m data, quantised differently (world-atlas to 1e5 steps).
    expect([name, inter / union > (name === 'Fiji' ? 0.8 : 0.97)]).toEqual([name, true]);
    // And the cut GeoJSON's area is its projected shoelace area (each part straight in lng/lat).
    const g = f.geometry as Polygon | MultiPolygon;
    const polys = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
    const area = polys.reduce((s, p) => s + projectedArea(p[0]!) - p.slice(1).reduce((h, r) => h + projectedArea(r), 0), 0);
    // Antarctica's ring runs along -90, beyond the Mercator world: clip its area to the map.
    if (name !== 'Antarctica') expect(Math.abs(sum(theirs) - area)).toBeLessThan(Math.max(2, area * 0.1));
  });

  test('a TopoJSON source read with antimeridian: "as-written" draws the 360-degree steps as written', async () => {
    const a = await alpha(fillStyle({ data: topo, antimeridian: 'as-written' }, ['==', ['get', 'name'], 'Fiji']));
    // Fiji's rings step from 180 to -180 (at -16.07) and back from -180 to 179.36 (at -16.56..-16.8):
    // as straight lines, a band 0.5 to 0.7 degrees tall across the world (about half a pixel at z0).
    expect(at(a, 0, -16.3)).toBeGreaterThan(0.3);
    expect(at(a, -90, -16.3)).toBeGreaterThan(0.3);
    const short = await alpha(fillStyle({ data: topo }, ['==', ['get', 'name'], 'Fiji']));
    expect(at(short, 0, -16.3)).toBe(0);
  });

  test('a ring around a pole is closed through that pole when unwrapped', () => {
    const ring = [
      [-180, -80],
      [-90, -75],
      [0, -70],
      [90, -75],
      [180, -80],
      [-180, -80],
    ];
    const fc: FeatureCollection = { type: 'FeatureCollection', features: [polygon([ring])] };
    const out = (unwrapAntimeridian(fc) as FeatureCollection).features[0]!.geometry as Polygon;
    expect(out.coordinates[0]!.slice(-3)).toEqual([
      [180, -90],
      [-180, -90],
      [-180, -80],
    ]);
  });
});

test('an unknown antimeridian value is a style error naming the two values', () => {
  expect(() => Renderer.create(fillStyle({ data: polygon([rect([0, 0, 1, 1])]), antimeridian: 'wrap' }))).toThrow(
    /as-written.*short-way|short-way.*as-written/,
  );
});
