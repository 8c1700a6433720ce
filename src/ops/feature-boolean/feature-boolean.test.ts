// feature-boolean: areas of all four operations against polyclip-ts (an independent Martinez-type
// implementation) on random polygons with holes; hand cases for grouping, properties and dropping.
import * as polyclip from 'polyclip-ts';
import { featureBoolean } from './index.js';
import { group, polygonsArea, ringArea, runOp, sq } from '../../../tests/helpers/geometry.js';
import { rng } from '../../../tests/helpers/random.js';

type Ring = [number, number][];
const toPc = (polys: Float64Array[][]): polyclip.Geom =>
  polys.map((p) =>
    p.map((r) => {
      const pts: Ring = [];
      for (let i = 0; i < r.length; i += 2) pts.push([r[i]!, r[i + 1]!]);
      pts.push(pts[0]!);
      return pts;
    }),
  ) as polyclip.Geom;
const pcArea = (mp: [number, number][][][]): number =>
  mp.reduce((s, p) => s + p.reduce((t, r, k) => t + (k ? -1 : 1) * Math.abs(ringArea(r.slice(0, -1).flat())), 0), 0);

/** A star-ish simple polygon (clockwise on screen) with a hole (counter-clockwise) around its centre. */
function randomPolygon(next: () => number): Float64Array[] {
  const cx = 40 + next() * 120,
    cy = 40 + next() * 120,
    n = 5 + Math.floor(next() * 10);
  const ext: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = (i / n) * 2 * Math.PI,
      r = 25 + next() * 35;
    ext.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
  }
  const hole: number[] = [];
  const hr = 5 + next() * 15;
  for (let i = 0; i < 6; i++) {
    const a = -(i / 6) * 2 * Math.PI;
    hole.push(cx + hr * Math.cos(a), cy + hr * Math.sin(a));
  }
  return [Float64Array.from(ext), Float64Array.from(hole)];
}

const pcOps = { intersection: polyclip.intersection, union: polyclip.union, difference: polyclip.difference, xor: polyclip.xor };

describe('feature-boolean', () => {
  test.each(['intersection', 'union', 'difference', 'xor'] as const)(
    '%s: areas match polyclip-ts on 60 random pairs of polygons with holes',
    async (operation) => {
      const next = rng(1234);
      let worst = 0;
      for (let t = 0; t < 60; t++) {
        const a = [randomPolygon(next), randomPolygon(next)];
        const b = [randomPolygon(next)];
        const out = await runOp(featureBoolean, { operation }, { a: [group({ polygons: a })], b: [group({ polygons: b })] });
        // A subject with no clip polygon near it passes through as it was (possibly overlapping polygons): measure the union.
        const polys = out.groups.flatMap((g) => g.polygons);
        const got = polys.length ? pcArea(polyclip.union(toPc(polys.slice(0, 1)), ...polys.slice(1).map((p) => toPc([p]))) as [number, number][][][]) : 0;
        // polyclip-ts takes a set of disjoint polygons per argument: unite a's two polygons first.
        const A = polyclip.union(toPc([a[0]!]), toPc([a[1]!]));
        const want = pcArea(pcOps[operation](A, toPc(b)) as [number, number][][][]);
        // Clipper rounds coordinates to 1/100 px: at most ~0.005 px times the outline length.
        const tol = 1e-3 * Math.max(1, want) + 0.5;
        worst = Math.max(worst, Math.abs(got - want) / Math.max(1, want));
        expect(Math.abs(got - want)).toBeLessThan(tol);
        for (const g of out.groups) for (const p of g.polygons) p.forEach((r, k) => expect(ringArea(r) > 0).toBe(k === 0));
      }
      if (process.env.GEOM_DEBUG) console.log(operation, 'worst relative area difference', worst);
    },
  );

  test('intersection (default) keeps one feature per subject with its properties; lines and points are dropped', async () => {
    const a = [
      group({ polygons: [[sq(0, 0, 10)]], lines: [Float64Array.of(0, 0, 5, 5)], properties: { n: 'left' }, id: 1 }),
      group({ polygons: [[sq(20, 0, 10)]], properties: { n: 'right' } }),
      group({ polygons: [[sq(100, 100, 10)]], properties: { n: 'far' } }),
    ];
    const b = [group({ polygons: [[sq(5, 0, 20)]], points: Float64Array.of(1, 1) })];
    const out = await runOp(featureBoolean, {}, { a, b });
    expect(out.groups.map((g) => [g.properties.n, g.id, polygonsArea(g.polygons), g.lines.length, g.points.length])).toEqual([
      ['left', 1, 50, 0, 0],
      ['right', undefined, 50, 0, 0],
    ]);
  });

  test('difference subtracts every b from each a; union and xor give one feature without properties', async () => {
    const a = [group({ polygons: [[sq(0, 0, 10)]], properties: { n: 1 } }), group({ polygons: [[sq(20, 0, 10)]], properties: { n: 2 } })];
    const b = [group({ polygons: [[sq(5, 0, 20)]] })];
    const diff = await runOp(featureBoolean, { operation: 'difference' }, { a, b });
    expect(diff.groups.map((g) => [g.properties.n, polygonsArea(g.polygons)])).toEqual([
      [1, 50],
      [2, 50],
    ]);
    const union = await runOp(featureBoolean, { operation: 'union' }, { a, b });
    expect(union.groups).toHaveLength(1);
    expect(union.groups[0]!.properties).toEqual({});
    expect(polygonsArea(union.groups[0]!.polygons)).toBeCloseTo(500, 6);
    const xor = await runOp(featureBoolean, { operation: 'xor' }, { a, b });
    expect(polygonsArea(xor.groups[0]!.polygons)).toBeCloseTo(500 - 100, 6);
  });

  test('a square minus a smaller square is a polygon with a hole', async () => {
    const out = await runOp(
      featureBoolean,
      { operation: 'difference' },
      { a: [group({ polygons: [[sq(0, 0, 30)]] })], b: [group({ polygons: [[sq(10, 10, 10)]] })] },
    );
    const [p] = out.groups[0]!.polygons;
    expect(p).toHaveLength(2);
    expect(ringArea(p![0]!)).toBeCloseTo(900, 6);
    expect(ringArea(p![1]!)).toBeCloseTo(-100, 6);
  });

  test('empty inputs', async () => {
    const a = [group({ polygons: [[sq(0, 0, 10)]] })];
    expect((await runOp(featureBoolean, {}, { a, b: [] })).groups).toEqual([]);
    expect((await runOp(featureBoolean, { operation: 'difference' }, { a, b: [] })).groups[0]!.polygons).toEqual(a[0]!.polygons);
    expect(polygonsArea((await runOp(featureBoolean, { operation: 'union' }, { a: [], b: a })).groups[0]!.polygons)).toBeCloseTo(100, 6);
  });
});

test('pieces of one feature cut apart by tiles, one with a zero-width bridge along the cut, act as one polygon (against polyclip-ts)', async () => {
  // The case of buffer.test.ts: the western piece abuts the eastern piece's first lobe along x = 0;
  // the eastern piece's two lobes are joined by a bridge along the cut (x = 0, y 300..350).
  const west = Float64Array.of(0, 100, 0, 300, -10, 400);
  const east = Float64Array.of(0, 0, 50, 100, 0, 300, 0, 350, 20, 350, 0, 400);
  const cut = (ring: Float64Array) =>
    Uint8Array.from({ length: ring.length / 2 }, (_, i) => (ring[i * 2] === 0 && ring[((i + 1) % (ring.length / 2)) * 2] === 0 ? 1 : 0));
  const pieces = group({ polygons: [[west], [east]], polygonCuts: [[cut(west)], [cut(east)]] });
  const want = polyclip.union(toPc([[west]]), toPc([[east]]));
  for (const operation of ['intersection', 'union'] as const) {
    const out = await runOp(featureBoolean, { operation }, { a: [group({ polygons: [[sq(-20, -10, 420)]] })], b: [pieces] });
    const polys = out.groups[0]!.polygons;
    expect({ operation, polygons: polys.length }).toEqual({ operation, polygons: operation === 'union' ? 1 : want.length });
    if (operation === 'intersection') expect(polygonsArea(polys)).toBeCloseTo(pcArea(want), 3);
  }
  const a = await runOp(featureBoolean, { operation: 'intersection' }, { a: [pieces], b: [group({ polygons: [[sq(-20, -10, 420)]] })] });
  expect(a.groups[0]!.polygons).toHaveLength(want.length);
});
