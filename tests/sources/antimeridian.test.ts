// Rings written across the antimeridian (179 -> -179) in spherical data ('short-way': TopoJSON's
// default, or a geojson source that says so) must not draw as bands across the world. GeoJSON is
// read as written by default (RFC 7946): tests/sources/wide-polygons.test.ts.
import { unwrapAntimeridian } from '../../src/sources/antimeridian.js';
import { Renderer } from '../../src/index.js';
import { antimeridianMode } from '../../src/sources/geojson.js';
import type { FeatureCollection, Polygon } from 'geojson';

const square = (coords: number[][]): FeatureCollection => ({
  type: 'FeatureCollection',
  features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [coords] } }],
});

describe('antimeridian', () => {
  test('consecutive longitudes are unwrapped to differ by at most 180 degrees', () => {
    const fc = unwrapAntimeridian(
      square([
        [170, 10],
        [-170, 10],
        [-170, -10],
        [170, -10],
        [170, 10],
      ]),
    ) as FeatureCollection;
    expect((fc.features[0]!.geometry as Polygon).coordinates[0]).toEqual([
      [170, 10],
      [190, 10],
      [190, -10],
      [170, -10],
      [170, 10],
    ]);
  });

  test('a ring around a pole is closed through that pole', () => {
    const ring = [
      [-180, -80],
      [-90, -75],
      [0, -70],
      [90, -75],
      [180, -80],
      [-180, -80],
    ];
    const out = (unwrapAntimeridian(square(ring)) as FeatureCollection).features[0]!.geometry as Polygon;
    expect(out.coordinates[0]!.slice(-3)).toEqual([
      [180, -90],
      [-180, -90],
      [-180, -80],
    ]);
  });

  test('a crossing polygon read the short way renders at both edges of the world and nowhere between', async () => {
    const r = Renderer.create({
      output: 'o',
      sources: {
        s: {
          type: 'geojson',
          antimeridian: 'short-way',
          data: square([
            [170, 10],
            [-170, 10],
            [-170, -10],
            [170, -10],
            [170, 10],
          ]),
        },
      },
      nodes: { f: { op: 'features' }, o: { op: 'fill-solid', features: '@f', fill: '#ff0000' } },
    });
    const { data, width } = await r.renderTile({ z: 0, x: 0, y: 0 }, undefined, { tileSize: 256 });
    const alphaAt = (x: number, y: number) => data[(y * width + x) * 4 + 3]!;
    expect(alphaAt(2, 128)).toBeCloseTo(1, 5); // lon -179: inside
    expect(alphaAt(253, 128)).toBeCloseTo(1, 5); // lon 178: inside
    expect(alphaAt(128, 128)).toBe(0); // lon 0: the band a naive renderer draws
    expect(alphaAt(30, 128)).toBe(0); // lon -138: outside
  });
});

describe('wide polygons that do not cross (issue 13 defect 9)', () => {
  const wide = square([
    [-120, -40],
    [100, -60],
    [30, 70],
    [-120, -40],
  ]);

  test('GeoJSON is read as written unless the source says otherwise; TopoJSON the short way', () => {
    expect(antimeridianMode({ type: 'geojson' }, wide)).toBe('as-written');
    expect(antimeridianMode({ type: 'geojson' }, { type: 'Topology', objects: {}, arcs: [] })).toBe('short-way');
    expect(antimeridianMode({ type: 'geojson', antimeridian: 'short-way' }, wide)).toBe('short-way');
    expect(antimeridianMode({ type: 'geojson', antimeridian: 'as-written' }, { type: 'Topology' })).toBe('as-written');
  });

  test('the wide triangle renders filled inside, empty outside (not inverted, not empty)', async () => {
    const r = Renderer.create({
      output: 'o',
      sources: { s: { type: 'geojson', data: wide } },
      nodes: { f: { op: 'features' }, o: { op: 'fill-solid', features: '@f', fill: '#ff0000' } },
    });
    const { data, width } = await r.renderTile({ z: 0, x: 0, y: 0 }, undefined, { tileSize: 256 });
    const alphaAt = (lng: number, y: number) => data[(y * width + Math.round(((lng + 180) / 360) * 256)) * 4 + 3]!;
    expect(alphaAt(0, 128)).toBeCloseTo(1, 5); // lon 0, lat 0: inside the triangle
    expect(alphaAt(-170, 128)).toBe(0); // west of it
    expect(alphaAt(170, 128)).toBe(0); // east of it
  });
});
