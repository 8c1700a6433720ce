// Tile pieces (src/sources/pieces.ts): a tile's own copy of each feature, in Mercator units, owned
// by the tile's square, so that a feature two tiles hold (one of them in its buffer) is measured once.
import { wholeCentroids, type WholeFeature } from '../../src/geometry/whole.js';
import { tilePieces } from '../../src/sources/pieces.js';
import type { DecodedLayer, TileFeature } from '../../src/sources/sample.js';

function feature(type: 1 | 2 | 3, rings: number[][], exterior?: number[]): TileFeature {
  const coords = Int32Array.from(rings.flat());
  const parts = [0];
  for (const r of rings) parts.push(parts[parts.length - 1]! + r.length / 2);
  const xs = rings.flatMap((r) => r.filter((_, i) => i % 2 === 0));
  const ys = rings.flatMap((r) => r.filter((_, i) => i % 2 === 1));
  return {
    properties: {},
    type,
    coords,
    parts: Uint32Array.from(parts),
    exterior: exterior ? Uint8Array.from(exterior) : undefined,
    bbox: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
  };
}
const layer = (...features: TileFeature[]): DecodedLayer => ({ extent: 4096, features });
const square = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1, x0, y0];

/** Centroids the centroid op counts: those inside their piece's owner square. */
function counted(pieces: WholeFeature[]): [number, number][] {
  const out: [number, number][] = [];
  for (const w of pieces) {
    const c = wholeCentroids(w).polygon;
    const o = w.owner!;
    if (c && c[0] >= o[0] && c[0] < o[2] && c[1] >= o[1] && c[1] < o[3]) out.push(c);
    for (let i = 0; i < w.points.length; i += 2) {
      const [x, y] = [w.points[i]!, w.points[i + 1]!];
      if (x >= o[0] && x < o[2] && y >= o[1] && y < o[3]) out.push([x, y]);
    }
  }
  return out;
}

test('a building both tiles hold (on the shared edge, inside both buffers) has one exact centroid', () => {
  // z1 tiles 0/0 and 1/0 share the edge x = 0.5; the building spans 4000..4100 of tile 0's units.
  const a = tilePieces(layer(feature(3, [square(4000, 100, 4100, 200)])), 1, 0, 0);
  const b = tilePieces(layer(feature(3, [square(-96, 100, 4, 200)])), 1, 1, 0);
  expect(a[0]!.owner).toEqual([0, 0, 0.5, 0.5]);
  expect(b[0]!.owner).toEqual([0.5, 0, 1, 0.5]);
  // Both copies have the same centroid (closed form: the square's centre), and only tile 0 owns it.
  const c = [4050 / 8192, 150 / 8192];
  expect(wholeCentroids(a[0]!).polygon![0]).toBeCloseTo(c[0]!, 12);
  expect(wholeCentroids(b[0]!).polygon![0]).toBeCloseTo(c[0]!, 12);
  const all = counted([...a, ...b]);
  expect(all).toHaveLength(1);
  expect(all[0]![0]).toBeCloseTo(c[0]!, 12);
  expect(all[0]![1]).toBeCloseTo(c[1]!, 12);
});

test('a point in one tile’s buffer is counted by the tile whose square holds it', () => {
  const a = tilePieces(layer(feature(1, [[4100, 50, 10, 10]])), 1, 0, 0);
  const b = tilePieces(layer(feature(1, [[4, 50]])), 1, 1, 0);
  expect(counted([...a, ...b]).map(([x, y]) => [x * 8192, y * 8192])).toEqual([
    [10, 10],
    [4100, 50],
  ]);
});

test('holes follow their exterior; a hole subtracts from the centroid', () => {
  // A 400 x 400 square with a 200 x 200 hole in its left half: the centroid moves right.
  const f = feature(3, [square(0, 0, 400, 400), [50, 100, 50, 300, 250, 300, 250, 100, 50, 100]], [1, 0]);
  const [w] = tilePieces(layer(f), 0, 0, 0);
  expect(w!.polygons).toHaveLength(1);
  expect(w!.polygons[0]).toHaveLength(2);
  // (160000 x 200 - 40000 x 150) / 120000 = 216.67 tile units.
  expect(wholeCentroids(w!).polygon![0] * 4096).toBeCloseTo(216.6667, 3);
  expect(wholeCentroids(w!).polygon![1] * 4096).toBeCloseTo(200, 6);
});
