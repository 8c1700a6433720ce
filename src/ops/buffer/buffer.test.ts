// buffer: closed-form areas (square, segment, point), erosion undoing inflation, joins, winding,
// holes, lines and points under a negative distance, and the padding bound.
import { buffer } from './index.js';
import { group, polygonsArea, ringArea, runOp, sq } from '../../../tests/helpers/geometry.js';
import { arcTolerance, capsule, loadClipper, offset } from '../../geometry/clipper.js';
import { insidePolygon } from '../../geometry/measure.js';
import { rng } from '../../../tests/helpers/random.js';
import { Renderer, toRGBA8 } from '../../index.js';

const run = (node: Record<string, unknown>, groups: ReturnType<typeof group>[]) => runOp(buffer, node, { features: groups });

describe('buffer', () => {
  test.each([
    [40, 5],
    [100, 12.5],
    [10, 30],
  ])('square of side %d buffered by %d with round joins has area s² + 4sd + πd²', async (s, d) => {
    const out = await run({ distance: d, join: 'round' }, [group({ polygons: [[sq(50, 60, s)]] })]);
    const a = polygonsArea(out.groups[0]!.polygons);
    const exact = s * s + 4 * s * d + Math.PI * d * d;
    // Arcs are inscribed polygons within arcTolerance(d) of the circle: the area is short by at most
    // the tolerance times the arc length (2πd), plus Clipper's 1/100 px rounding along the outline.
    expect(a).toBeLessThanOrEqual(exact + 1e-6 * exact);
    expect(exact - a).toBeLessThan(arcTolerance(d) * 2 * Math.PI * d + 0.01 * (4 * s + 2 * Math.PI * d));
  });

  test('miter joins give the square grown by d on every side; bevel joins cut 4 corners of d²/2', async () => {
    const [s, d] = [40, 6];
    const miter = await run({ distance: d, join: 'miter' }, [group({ polygons: [[sq(0, 0, s)]] })]);
    expect(polygonsArea(miter.groups[0]!.polygons)).toBeCloseTo((s + 2 * d) ** 2, 1);
    const bevel = await run({ distance: d, join: 'bevel' }, [group({ polygons: [[sq(0, 0, s)]] })]);
    expect(polygonsArea(bevel.groups[0]!.polygons)).toBeCloseTo((s + 2 * d) ** 2 - (4 * (d * d)) / 2, 1);
  });

  test('a buffer then its negative returns the square (miter joins: exactly, to Clipper rounding)', async () => {
    const src = group({ polygons: [[sq(10, 20, 50)]], properties: { name: 'a' }, id: 7 });
    const grown = await run({ distance: 8, join: 'miter' }, [src]);
    const back = await run({ distance: -8, join: 'miter' }, grown.groups);
    const ring = back.groups[0]!.polygons[0]![0]!;
    const xs = [],
      ys = [];
    for (let i = 0; i < ring.length; i += 2) {
      xs.push(ring[i]!);
      ys.push(ring[i + 1]!);
    }
    expect([Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)].map((v) => Math.round(v * 100) / 100)).toEqual([10, 20, 60, 70]);
    expect(polygonsArea(back.groups[0]!.polygons)).toBeCloseTo(2500, 1);
    expect(back.groups[0]!.properties).toEqual({ name: 'a' });
    expect(back.groups[0]!.id).toBe(7);
    // Round joins: the rounded corners come back to the square's corners within the arc tolerance.
    const r = await run({ distance: -8, join: 'round' }, (await run({ distance: 8, join: 'round' }, [src])).groups);
    expect(Math.abs(polygonsArea(r.groups[0]!.polygons) - 2500)).toBeLessThan(1);
  });

  test('exteriors come out clockwise on screen, holes counter-clockwise; a hole shrinks by 2d per side', async () => {
    const hole = Float64Array.of(30, 30, 30, 70, 70, 70, 70, 30); // counter-clockwise on screen
    const out = await run({ distance: 5, join: 'miter' }, [group({ polygons: [[sq(0, 0, 100), hole]] })]);
    const [ext, h] = out.groups[0]!.polygons[0]!;
    expect(ringArea(ext!)).toBeGreaterThan(0);
    expect(ringArea(h!)).toBeLessThan(0);
    expect(Math.abs(ringArea(h!))).toBeCloseTo(30 * 30, 1);
    expect(polygonsArea(out.groups[0]!.polygons)).toBeCloseTo(110 * 110 - 900, 1);
  });

  test('eroding past half the width removes a polygon; the feature then gives no group', async () => {
    const out = await run({ distance: -11 }, [group({ polygons: [[sq(0, 0, 20)]] })]);
    expect(out.groups).toEqual([]);
  });

  test('lines and points inflate by |distance| even when it is negative: a capsule and a disk', async () => {
    const [L, d] = [60, 4];
    const g = group({ lines: [Float64Array.of(10, 10, 10 + L, 10)], points: Float64Array.of(200, 200) });
    for (const distance of [d, -d]) {
      const out = await run({ distance, join: 'round' }, [g]);
      const polys = out.groups[0]!.polygons;
      expect(polys).toHaveLength(2);
      const exact = 2 * d * L + 2 * Math.PI * d * d;
      expect(Math.abs(polygonsArea(polys) - exact)).toBeLessThan(0.01 * exact);
    }
  });

  test('overlapping pieces of one feature unite; features stay apart', async () => {
    const a = group({ polygons: [[sq(0, 0, 10)], [sq(5, 0, 10)]], properties: { k: 1 } });
    const b = group({ polygons: [[sq(5, 0, 10)]], properties: { k: 2 } });
    const out = await run({ distance: 0 }, [a, b]);
    expect(out.groups.map((g) => g.polygons.length)).toEqual([1, 1]);
    expect(polygonsArea(out.groups[0]!.polygons)).toBeCloseTo(150, 6);
  });

  test('pieces of one feature cut apart by tiles erode as one: no gap opens along the cut', async () => {
    // [0,40]x[0,20] split at x = 20 into two abutting pieces; eroded by 3: [3,37]x[3,17], one ring.
    const out = await run({ distance: -3 }, [group({ polygons: [[sq(0, 0, 20)], [Float64Array.of(20, 0, 40, 0, 40, 20, 20, 20)]] })]);
    expect(out.groups[0]!.polygons).toHaveLength(1);
    expect(polygonsArea(out.groups[0]!.polygons)).toBeCloseTo(34 * 14, 1);
  });

  test('a piece with a zero-width bridge along the cut erodes as one with its neighbour (the stipple example at 2/0/1@2x)', async () => {
    // Clipping a U-shaped coast to a tile leaves the eastern piece as two lobes joined by a bridge
    // along x = 0 (its ring runs down 300..350 and back up 400..0); the western piece abuts the
    // first lobe along x = 0 for y in 100..300. Their union is two polygons: the western piece with
    // the first lobe, and the second lobe. Clipper2 alone keeps the edge x = 0 (three polygons),
    // which an erosion opened into a band along every tile edge. Geometry by hand: at y = 200 the
    // union spans x = -3.3..25, so a 2 px erosion keeps (0, 200) and (1, 200).
    const west = Float64Array.of(0, 100, 0, 300, -10, 400);
    const east = Float64Array.of(0, 0, 50, 100, 0, 300, 0, 350, 20, 350, 0, 400);
    const cut = (ring: Float64Array) =>
      Uint8Array.from({ length: ring.length / 2 }, (_, i) => (ring[i * 2] === 0 && ring[((i + 1) % (ring.length / 2)) * 2] === 0 ? 1 : 0));
    const out = await run({ distance: -2, join: 'round' }, [group({ polygons: [[west], [east]], polygonCuts: [[cut(west)], [cut(east)]] })]);
    const polys = out.groups[0]!.polygons;
    const inside = (x: number, y: number) => polys.some((p) => insidePolygon(p, x, y));
    expect([inside(0, 200), inside(1, 200), inside(-0.5, 200)]).toEqual([true, true, true]);
    expect(polys).toHaveLength(2);
  });

  test('a negative distance from a param whose max is 0 still erodes (the bound caps inflation only)', async () => {
    // A 100 px square at z2 (world 1024 px), eroded by $d = -10: 80 x 80 px filled.
    const ll = (x: number, y: number) => [(x / 1024) * 360 - 180, (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 1024))) * 180) / Math.PI];
    const ring = [ll(100, 100), ll(200, 100), ll(200, 200), ll(100, 200), ll(100, 100)];
    const style = {
      output: 'out',
      params: { d: { type: 'number', default: -10, min: -20, max: 0 } },
      sources: { s: { type: 'geojson', data: { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } } } },
      nodes: {
        f: { op: 'features', source: 's' },
        b: { op: 'buffer', features: '@f', distance: '$d' },
        out: { op: 'fill-solid', features: '@b', fill: '#000000' },
      },
    };
    const px = toRGBA8(await Renderer.create(style).renderTile({ z: 2, x: 0, y: 0 }, undefined, { tileSize: 256 }));
    let covered = 0;
    for (let i = 3; i < px.length; i += 4) covered += px[i]! / 255;
    expect(Math.abs(covered - 80 * 80)).toBeLessThan(80);
  });

  test('batched offsets (many features per Clipper call) equal one call per feature', async () => {
    const next = rng(9);
    const groups = Array.from({ length: 120 }, (_, i) => {
      const x = next() * 400,
        y = next() * 400;
      const line = Float64Array.of(x, y, x + next() * 30, y + next() * 30, x + next() * 30, y - next() * 20);
      // Every fifth a single segment (offset as a capsule without Clipper, but for bevel joins).
      const lines = [i % 5 === 1 ? line.subarray(0, 4) : line];
      return i % 3 ? group({ lines, properties: { i } }) : group({ polygons: [[sq(x, y, 5 + next() * 20)]], properties: { i } });
    });
    const m = await loadClipper();
    for (const [distance, join] of [
      [4, 'round'],
      [3, 'miter'],
      [-2, 'bevel'],
    ] as const) {
      const batched = await run({ distance, join }, groups);
      const single = groups.map((g) =>
        offset(m, { rings: g.polygons.flat(), lines: g.lines, points: g.points, simple: g.polygons.length === 1 }, distance, join),
      );
      const want = single.map((p, i) => [i, polygonsArea(p)] as const).filter(([, a]) => a > 0);
      expect(batched.groups.map((g) => [g.properties.i, polygonsArea(g.polygons)] as const).map(([i, a]) => [i, Math.round(a * 100) / 100])).toEqual(
        want.map(([i, a]) => [i, Math.round(a * 100) / 100]),
      );
    }
  });

  test('arcs: GEOS resolution (8 segments per quarter circle) at 4 px, never more than 0.02 px off the circle', async () => {
    const m = await loadClipper();
    const disk = (d: number) => offset(m, { rings: [], lines: [], points: [100.5, 100.5] }, d, 'round')[0]![0]!;
    // 4 px: 32 segments, as GEOS's quadrant segments 8 (the ring is not closed: 32 vertices).
    expect(disk(4).length / 2).toBe(32);
    for (const d of [0.5, 4, 12, 60]) {
      const ring = disk(d);
      const tol = arcTolerance(d);
      expect(tol).toBeLessThanOrEqual(0.02);
      expect(tol).toBeLessThanOrEqual(Math.max(0.01, d * (1 - Math.cos(Math.PI / 32))) * (1 + 2e-6));
      // Every vertex on the circle (to Clipper's 1/100 px grid); every chord's midpoint within tol of it.
      const n = ring.length / 2;
      for (let i = 0; i < n; i++) {
        const [x, y] = [ring[2 * i]! - 100.5, ring[2 * i + 1]! - 100.5];
        const j = (i + 1) % n;
        const [mx, my] = [(x + ring[2 * j]! - 100.5) / 2, (y + ring[2 * j + 1]! - 100.5) / 2];
        expect(Math.abs(Math.hypot(x, y) - d)).toBeLessThan(0.01);
        expect(d - Math.hypot(mx, my)).toBeLessThan(tol + 0.01);
      }
    }
  });

  test("a single segment's capsule (drawn without Clipper) has Clipper's vertices", async () => {
    const m = await loadClipper();
    const next = rng(17);
    const key = (r: ArrayLike<number>) => {
      const v: string[] = [];
      for (let i = 0; i < r.length; i += 2) v.push(`${r[i]!.toFixed(6)},${r[i + 1]!.toFixed(6)}`);
      return v.sort().join(' ');
    };
    let n = 0;
    for (const d of [0.3, 1.5, 4, 7.25, 12, 40])
      for (let k = 0; k < 60; k++) {
        // World-pixel-like coordinates (large, positive and negative), lengths from 0.02 to 300 px.
        const x0 = (next() - 0.3) * 3e6,
          y0 = (next() - 0.3) * 3e6;
        const len = 0.02 * 15000 ** next(),
          a = next() * 2 * Math.PI;
        const line = Float64Array.of(x0, y0, x0 + len * Math.cos(a), y0 + len * Math.sin(a));
        const want = offset(m, { rings: [], lines: [line], points: [] }, d, 'round');
        const got = capsule(line[0]!, line[1]!, line[2]!, line[3]!, d, arcTolerance(d))!;
        expect(want).toHaveLength(1);
        expect(want[0]).toHaveLength(1);
        expect(ringArea(got)).toBeGreaterThan(0);
        expect(key(got)).toBe(key(want[0]![0]!));
        n++;
      }
    expect(n).toBe(360);
    // Zero length on Clipper's grid: no capsule (Clipper draws the disk).
    expect(capsule(5, 5, 5.001, 5, 4, arcTolerance(4))).toBeUndefined();
  });

  test('pads the canvas by |distance| (its bound)', () => {
    expect(buffer.pad!((f) => (f === 'distance' ? -12 : undefined), 'features', { op: 'buffer' })).toBe(12);
    expect(buffer.paddingFields).toEqual(['distance']);
  });
});
