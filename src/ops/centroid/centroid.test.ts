// centroid: closed forms (rectangles, an L-shape, a square ring with an off-centre hole, polylines
// weighted by length), include-lines / include-polygons, and that it is not the vertex mean.
import path from 'node:path';
import { centroid, nearCanvas, placePoint, placePointReference } from './index.js';
import { capture } from '../../../tests/helpers/scalars.js';
import { NodeLoader } from '../../hosts/node/loader.js';
import { buildPlan } from '../../graph/build.js';
import type { Features } from '../../types.js';
import { rng } from '../../../tests/helpers/random.js';
import { group, runOp, sq } from '../../../tests/helpers/geometry.js';

const pointsOf = async (node: Record<string, unknown>, g: ReturnType<typeof group>) =>
  Array.from((await runOp(centroid, node, { features: [g] })).groups[0]?.points ?? []);

describe('centroid', () => {
  test('L-shape: the area-weighted mean of its two rectangles, not the vertex mean', async () => {
    // L = [0,30]x[0,10] ∪ [0,10]x[10,40]: areas 300 at (15, 5) and 300 at (5, 25) -> (10, 15).
    const L = Float64Array.of(0, 0, 30, 0, 30, 10, 10, 10, 10, 40, 0, 40);
    const [x, y] = await pointsOf({}, group({ polygons: [[L]] }));
    expect(x).toBeCloseTo(10, 10);
    expect(y).toBeCloseTo(15, 10);
    // The vertex mean (turf's centroid) would be (13.33, 16.67).
    expect(Math.abs(x! - 80 / 6)).toBeGreaterThan(3);
  });

  test('square ring with an off-centre hole: (A c - a h) / (A - a)', async () => {
    const hole = Float64Array.of(50, 50, 50, 80, 80, 80, 80, 50); // [50,80]², counter-clockwise
    const [x, y] = await pointsOf({}, group({ polygons: [[sq(0, 0, 100), hole]] }));
    const c = (10000 * 50 - 900 * 65) / (10000 - 900);
    expect(x).toBeCloseTo(c, 10);
    expect(y).toBeCloseTo(c, 10);
  });

  test('a feature of several polygons gives one point, their area-weighted centroid, at world-pixel coordinates', async () => {
    const X = 1e7; // large world coordinates (z16) keep their precision
    const [x, y] = await pointsOf({}, group({ polygons: [[sq(X, X, 10)], [sq(X + 100, X, 20)]] }));
    expect(x).toBeCloseTo((100 * (X + 5) + 400 * (X + 110)) / 500, 6);
    expect(y).toBeCloseTo((100 * (X + 5) + 400 * (X + 10)) / 500, 6);
  });

  test('polylines: length-weighted over every segment of every line', async () => {
    // Segment of length 10 centred (5, 0) and one of length 30 centred (0, 25) -> (1.25, 18.75).
    const [x, y] = await pointsOf({}, group({ lines: [Float64Array.of(0, 0, 10, 0), Float64Array.of(0, 10, 0, 40)] }));
    expect(x).toBeCloseTo(1.25, 10);
    expect(y).toBeCloseTo(18.75, 10);
  });

  test('include-lines / include-polygons; points pass through; properties kept', async () => {
    const g = group({ polygons: [[sq(0, 0, 2)]], lines: [Float64Array.of(10, 10, 20, 10)], points: Float64Array.of(7, 7), properties: { k: 1 } });
    expect(await pointsOf({}, g)).toEqual([7, 7, 1, 1, 15, 10]);
    expect(await pointsOf({ 'include-lines': false }, g)).toEqual([7, 7, 1, 1]);
    expect(await pointsOf({ 'include-polygons': false }, g)).toEqual([7, 7, 15, 10]);
    const none = await runOp(centroid, { 'include-lines': false, 'include-polygons': false }, { features: [group({ lines: [Float64Array.of(0, 0, 1, 0)] })] });
    expect(none.groups).toEqual([]);
    expect((await runOp(centroid, {}, { features: [g] })).groups[0]!.properties).toEqual({ k: 1 });
  });
});

describe('placing a measure on the canvas (tiled sources): placePoint = placePointReference', () => {
  // placePoint is what the op runs for every piece (thousands a heatmap tile); the reference is
  // the plain form with worldShifts' arrays. Same points in the same order, bit for bit: canvases
  // at zooms 0-17, across ±180° and wider than the world, measures on and off their owner square,
  // on the canvas's grown edges.
  test('random canvases and measures, the grown edges and the antimeridian', () => {
    const r = rng(5);
    let placed = 0;
    for (let t = 0; t < 4000; t++) {
      const z = Math.floor(r() * 18);
      const tileSize = r() < 0.5 ? 256 : 512;
      const W = tileSize * 2 ** z;
      const width = Math.min(W * 3, 64 + Math.floor(r() * 700));
      const height = 64 + Math.floor(r() * 700);
      const canvas = { z, tileSize, x0: Math.floor((r() * 1.4 - 0.2) * W), y0: Math.floor((r() * 1.2 - 0.1) * W), width, height };
      let x = (canvas.x0 + r() * width) / W - Math.floor(r() * 3) + 1;
      let y = (canvas.y0 + r() * height) / W;
      if (t % 7 === 0) x = (canvas.x0 - 32) / W; // on the grown left edge
      if (t % 11 === 0) y = (canvas.y0 + height + 32) / W; // just past the grown bottom edge
      if (t % 13 === 0) x = (canvas.x0 + width + 32) / W;
      const o = t % 3 === 0 ? undefined : ([x - r() * 0.01, y - r() * 0.01, x + (t % 5 === 0 ? 0 : r() * 0.01), y + r() * 0.01] as const);
      const a: number[] = [];
      const b: number[] = [];
      placePoint(x, y, o, canvas, W, a);
      placePointReference(x, y, o, canvas, W, b);
      expect(a).toEqual(b);
      placed += a.length;
    }
    expect(placed).toBeGreaterThan(1000);
  });

  test('a canvas wider than 64 worlds throws worldShifts error', () => {
    const canvas = { z: 0, tileSize: 4, x0: 0, y0: 0, width: 4 * 80, height: 4 };
    expect(() => placePoint(0.5, 0.5, undefined, canvas, 4, [])).toThrow(/world copies/);
    expect(() => placePointReference(0.5, 0.5, undefined, canvas, 4, [])).toThrow(/world copies/);
  });
});

describe('centroid over a tiled source', () => {
  test('nearCanvas: a box it rejects places no point of the box (corners, edges, inside) on the canvas', () => {
    const r = rng(9);
    let rejected = 0;
    for (let t = 0; t < 3000; t++) {
      const z = Math.floor(r() * 18);
      const W = 256 * 2 ** z;
      const width = Math.min(W, 64 + Math.floor(r() * 700));
      const canvas = { z, tileSize: 256, x0: Math.floor((r() * 1.4 - 0.2) * W), y0: Math.floor(r() * W), width, height: 64 + Math.floor(r() * 700) };
      const bx = (canvas.x0 + (r() * 3 - 1) * width) / W - Math.floor(r() * 2);
      const by = (canvas.y0 + (r() * 3 - 1) * canvas.height) / W;
      const box = [bx, by, bx + (r() * 200) / W, by + (r() * 200) / W];
      const near = nearCanvas(canvas, W)!;
      if (near(box)) continue;
      rejected++;
      const pts: number[] = [];
      for (let i = 0; i <= 4; i++)
        for (let j = 0; j <= 4; j++) placePoint(box[0]! + ((box[2]! - box[0]!) * i) / 4, box[1]! + ((box[3]! - box[1]!) * j) / 4, undefined, canvas, W, pts);
      expect(pts).toEqual([]);
    }
    expect(rejected).toBeGreaterThan(500);
    // Wider than the world: no test (placePoint decides, and throws past its bound).
    expect(nearCanvas({ z: 0, tileSize: 256, x0: 0, y0: 0, width: 600, height: 256 }, 256)).toBeUndefined();
  });

  test('a features node read only by centroid samples no groups; the points are those it gives when the groups are sampled', async () => {
    const loader = new NodeLoader({ baseDir: path.resolve('.') });
    // The heatmap example's source: San Francisco's z15 Mapbox Streets tiles.
    const source = { type: 'mvt', tiles: ['npm:@mapbox/mvt-fixtures/real-world/sanfrancisco/{z}-{x}-{y}.mvt'], minzoom: 15, maxzoom: 15 };
    const doc = (strokeToo: boolean) => ({
      output: 'out',
      sources: { s: source },
      nodes: {
        b: { op: 'features', source: 's', layer: 'building' },
        c: { op: 'centroid', features: '@b' },
        dots: { op: 'circles', features: '@c', radius: 2 },
        ...(strokeToo ? { ink: { op: 'stroke-solid', features: '@b', width: 1, color: '#00000001' } } : {}),
        out: strokeToo ? { op: 'blend', base: '@dots', over: '@ink' } : { op: 'blend', base: '@dots', over: '@dots', opacity: 0 },
      },
    });
    expect(buildPlan(doc(false) as never).nodes.get('b')!.groupsUnread).toBe(true);
    expect(buildPlan(doc(true) as never).nodes.get('b')!.groupsUnread).toBeUndefined();
    // A z17 tile inside a source tile, and one whose margins reach four source tiles.
    for (const [x, y] of [
      [20953, 50665],
      [20955, 50667],
    ]) {
      const tile = { z: 17, x0: x * 256, y0: y * 256, width: 256, height: 256, tileSize: 256 };
      const alone = await capture(doc(false), ['b', 'c'], tile, {}, { loader });
      const read = await capture(doc(true), ['b', 'c'], tile, {}, { loader });
      expect((alone.get('b') as Features).groups).toEqual([]);
      expect((read.get('b') as Features).groups.length).toBeGreaterThan(3);
      const pts = (alone.get('c') as Features).groups;
      expect(pts.length).toBeGreaterThan(3);
      expect(pts).toEqual((read.get('c') as Features).groups);
    }
  });
});
