// GPU fills: the triangles of ShapeTriangles carry the rings' winding area (earcut where it is
// exact, fans otherwise), and drawShapes (coverage render pass + composite) matches the CPU's
// exact-area scanline on shapes chosen to break triangulations: self-intersecting rings, holes
// outside their exterior, overlapping exteriors, slivers, far-off coordinates, pixel-centre ties
// with antialias off, and more shapes than one slot buffer holds.
import type { GpuBackend } from './backend.js';
import type { GpuImage } from './image.js';
import { drawShapes } from './area.js';
import { ShapeTriangles, TRI_FLOATS, triangulationCounts } from './triangles.js';
import { Compositor, Rasterizer } from '../cpu/rasterize.js';
import type { OpContext, OpDef } from '../../ops/types.js';
import { gpu, gpuDescribe, rng, GEOMETRY_TOL } from '../../../tests/gpu/harness.js';

interface Ring {
  coords: number[];
  winding: number;
}
interface Shape {
  /** Polygons, each an exterior and its holes. */
  polygons: Ring[][];
  rgba: [number, number, number, number];
}

function build(shapes: Shape[], W: number, H: number): ShapeTriangles {
  const t = new ShapeTriangles(W, H);
  for (const s of shapes) {
    for (const poly of s.polygons)
      t.addPolygon(
        poly.map((r) => Float64Array.from(r.coords)),
        poly.map((r) => r.winding),
        0,
        0,
      );
    const [r, g, b, a] = s.rgba;
    t.endShape(r * a, g * a, b * a, a);
  }
  return t;
}

function cpuRender(shapes: Shape[], W: number, H: number, antialias: boolean): Float32Array {
  const out = new Float32Array(W * H * 4);
  const rast = new Rasterizer(W, H, antialias);
  const comp = new Compositor(out, W);
  for (const s of shapes) {
    comp.setColor(s.rgba);
    for (const poly of s.polygons) for (const r of poly) rast.addRing(r.coords, 0, 0, r.winding);
    rast.sweep(comp.span);
  }
  return out;
}

async function gpuRender(backend: GpuBackend, tris: ShapeTriangles, antialias: boolean, slotBytes?: number): Promise<Float32Array> {
  const session = backend.begin();
  try {
    const op = { name: 'test-shapes', gpu: { encode: (g: Parameters<typeof drawShapes>[0]) => drawShapes(g, tris, antialias, slotBytes) } } as unknown as OpDef;
    const img = (await session.run(op, {} as OpContext)) as GpuImage;
    return (await session.read(img)).data;
  } finally {
    session.end();
  }
}

function maxDiff(a: Float32Array, b: Float32Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  if (process.env.PARITY_LOG) console.error(`max float diff ${m.toExponential(2)}`);
  return m;
}

/** Pixels partly covered (alpha strictly between 0 and 1) and fully covered: the case draws something. */
function coverage(img: Float32Array): { partial: number; full: number } {
  let partial = 0;
  let full = 0;
  for (let i = 3; i < img.length; i += 4) {
    if (img[i]! > 0 && img[i]! < 0.999) partial++;
    if (img[i]! >= 0.999) full++;
  }
  return { partial, full };
}

/** Twice the signed winding area of the stored triangles of shape s. */
function triangleArea(t: ShapeTriangles, s: number, abs = false): number {
  let sum = 0;
  for (let i = t.shapeTri[s]!; i < t.shapeTri[s + 1]!; i++) {
    const [ax, ay, bx, by, cx, cy] = t.tris.subarray(i * TRI_FLOATS, i * TRI_FLOATS + 6);
    const a = (bx! - ax!) * (cy! - ay!) - (by! - ay!) * (cx! - ax!);
    sum += abs ? Math.abs(a) : a;
  }
  return sum;
}

const ring = (coords: number[], winding = 1): Ring => ({ coords, winding });
const square = (x: number, y: number, s: number, winding = 1) => ring([x, y, x + s, y, x + s, y + s, x, y + s], winding);
const RED: Shape['rgba'] = [0.9, 0.2, 0.1, 0.8];
const BLUE: Shape['rgba'] = [0.1, 0.3, 0.9, 0.6];

describe('ShapeTriangles', () => {
  test('earcut: a polygon with holes becomes non-overlapping triangles of its area', () => {
    const poly = [square(2, 2, 40), square(10, 10, 8, -1), square(25, 20, 10, -1)];
    const t = build([{ polygons: [poly], rgba: RED }], 64, 64);
    // 2 x (1600 - 64 - 100): every triangle on the exterior's side, none overlapping.
    expect(triangleArea(t, 0)).toBeCloseTo(2 * 1436, 6);
    expect(triangleArea(t, 0, true)).toBeCloseTo(2 * 1436, 6);
  });

  test('a bow-tie ring is fanned: its triangles carry its signed winding, lobes of opposite signs', () => {
    const bow = ring([0, 0, 20, 20, 20, 0, 0, 20]);
    const t = build([{ polygons: [[bow]], rgba: RED }], 64, 64);
    expect(triangleArea(t, 0)).toBeCloseTo(0, 6); // the lobes cancel in the winding area
    // Two fan triangles of area 200 with opposite signs, overlapping on the lobes' far halves.
    expect(triangleArea(t, 0, true)).toBeCloseTo(2 * 400, 6);
  });

  test('a hole reaching outside its exterior falls back to fans (the outside part winds -1)', () => {
    const poly = [square(0, 0, 20), square(10, 5, 20, -1)];
    const t = build([{ polygons: [poly], rgba: RED }], 64, 64);
    expect(triangleArea(t, 0)).toBeCloseTo(2 * (400 - 400), 6);
    expect(triangleArea(t, 0, true)).toBeGreaterThanOrEqual(2 * 800 - 1e-6);
  });

  test('triangles off the canvas are dropped; bins list each shape once, in paint order', () => {
    const t = build(
      [
        { polygons: [[square(-50, -50, 10)]], rgba: RED },
        { polygons: [[square(4, 4, 40)]], rgba: RED },
        { polygons: [[square(20, 20, 4)]], rgba: BLUE },
      ],
      64,
      64,
    );
    expect(t.shapes).toBe(2); // the first shape covers nothing
    const { starts, items } = t.bins(0, 2);
    // Shape 0 spans bins (0..2) x (0..2); shape 1 sits in bin (1, 1).
    expect(Array.from(items.subarray(starts[5]!, starts[6]!))).toEqual([0, 1]);
    expect(Array.from(items.subarray(starts[0]!, starts[1]!))).toEqual([0]);
    expect(starts[16]).toBe(10);
    expect(t.chunks(9)).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(t.chunks(10)).toEqual([[0, 2]]);
  });
});

describe('ShapeTriangles: convex pieces fanned straight from their set', () => {
  test('the triangles addRings makes for convex rings; a ring that is not convex still carries its area (shoelace); non-finite rings as addRings', () => {
    const hexagon = [10, 2, 20, 2, 26, 10, 20, 18, 10, 18, 4, 10];
    const comb = [0, 0, 40, 0, 40, 30, 32, 30, 32, 8, 24, 8, 24, 30, 16, 30, 16, 8, 8, 8, 8, 30, 0, 30];
    const bad = [1, 1, Number.NaN, 5, 9, 9, 1, 9];
    const all = [...hexagon, ...square(30, 30, 6).coords, ...bad];
    const set = { coords: Float64Array.from(all), starts: Int32Array.from([0, 12, 20, 28]), count: 3 };
    const a = new ShapeTriangles(64, 64);
    a.addRings(set, 1.5, -0.25);
    a.endShape(1, 1, 1, 1);
    const b = new ShapeTriangles(64, 64);
    b.addConvexRings(set, 1.5, -0.25);
    b.endShape(1, 1, 1, 1);
    expect(b.count).toBe(a.count);
    expect(Array.from(b.tris.subarray(0, b.count * TRI_FLOATS))).toEqual(Array.from(a.tris.subarray(0, a.count * TRI_FLOATS)));
    // Hexagon 2 x (10 x 16 + 2 x 6 x 16 / 2) = 2 x 256, square 2 x 36.
    expect(triangleArea(b, 0)).toBeCloseTo(2 * (256 + 36), 6);
    const c = new ShapeTriangles(64, 64);
    c.addConvexRings({ coords: Float64Array.from(comb), starts: Int32Array.from([0, comb.length]), count: 1 }, 0, 0, -1);
    c.endShape(1, 1, 1, 1);
    expect(triangleArea(c, 0)).toBeCloseTo(-2 * 848, 6);
  });
});

describe('ShapeTriangles: kept triangulations of rings that never change', () => {
  /** The stored triangles' six coordinates each, shifted back by (dx, dy). */
  const coords = (t: ShapeTriangles, dx = 0, dy = 0) => {
    const out: number[] = [];
    for (let i = 0; i < t.count; i++) for (let j = 0; j < 6; j++) out.push(t.tris[i * TRI_FLOATS + j]! - (j % 2 ? dy : dx));
    return out;
  };
  // A non-convex exterior (a comb: earcut, not a fan) with two holes, and a lone non-convex ring.
  const comb = [0, 0, 40, 0, 40, 30, 32, 30, 32, 8, 24, 8, 24, 30, 16, 30, 16, 8, 8, 8, 8, 30, 0, 30];
  const holes = [square(33, 1, 4, -1).coords, square(2, 1, 3, -1).coords];

  test('the same rings again, shifted: the same triangles moved by the shift, of the rings area (shoelace)', () => {
    const poly = [Float64Array.from(comb), ...holes.map((h) => Float64Array.from(h))];
    const windings = [1, -1, -1];
    const a = new ShapeTriangles(64, 64);
    const before = { ...triangulationCounts };
    a.addPolygon(poly, windings, 2, 3, true);
    a.endShape(1, 1, 1, 1);
    expect(triangulationCounts.kept - before.kept).toBe(1);
    const b = new ShapeTriangles(64, 64);
    b.addPolygon(poly, windings, 9, 14, true);
    b.endShape(1, 1, 1, 1);
    expect(triangulationCounts.reused - before.reused).toBe(1);
    expect(b.count).toBe(a.count);
    expect(coords(b, 9, 14)).toEqual(coords(a, 2, 3));
    // Shoelace: comb 40 x 30 less two 8 x 22 slots = 848, less the holes 16 + 9 = 823; twice that,
    // every triangle on the exterior's side (no overlap, as earcut made them).
    expect(triangleArea(b, 0)).toBeCloseTo(2 * 823, 6);
    expect(triangleArea(b, 0, true)).toBeCloseTo(2 * 823, 6);
  });

  test('other ring objects (or windings) with the same first ring are triangulated afresh; rings given without keep are never kept', () => {
    const outer = Float64Array.from(comb);
    const a = new ShapeTriangles(64, 64);
    a.addPolygon([outer, Float64Array.from(holes[0]!)], [1, -1], 0, 0, true);
    a.endShape(1, 1, 1, 1);
    const before = { ...triangulationCounts };
    const b = new ShapeTriangles(64, 64);
    b.addPolygon([outer, Float64Array.from(holes[1]!)], [1, -1], 0, 0, true);
    b.endShape(1, 1, 1, 1);
    expect(triangulationCounts.reused).toBe(before.reused);
    expect(triangleArea(b, 0)).toBeCloseTo(2 * (848 - 9), 6);
    // Without keep: a ring written between two calls is read anew.
    const r = Float64Array.from(comb);
    const c = new ShapeTriangles(64, 64);
    c.addPolygon([r], [1], 0, 0);
    c.endShape(1, 1, 1, 1);
    for (let i = 0; i < r.length; i++) r[i] = r[i]! / 2;
    const d = new ShapeTriangles(64, 64);
    d.addPolygon([r], [1], 0, 0);
    d.endShape(1, 1, 1, 1);
    expect(triangulationCounts.kept).toBe(before.kept + 1);
    expect(triangleArea(d, 0)).toBeCloseTo(2 * 212, 6);
  });

  test('a kept ring set: each ring by its start, reused at another shift and winding', () => {
    const coordsOf = Float64Array.from([...comb, ...comb.map((v) => v + 1)]);
    const set = { coords: coordsOf, starts: Int32Array.from([0, comb.length, 2 * comb.length]), count: 2 };
    const a = new ShapeTriangles(128, 128);
    a.addRings(set, 1, 1, 1, true);
    a.endShape(1, 1, 1, 1);
    const before = { ...triangulationCounts };
    const b = new ShapeTriangles(128, 128);
    b.addRings(set, 50, 60, 1, true);
    b.endShape(1, 1, 1, 1);
    expect(triangulationCounts.reused - before.reused).toBe(2);
    expect(coords(b, 50, 60)).toEqual(coords(a, 1, 1));
    // Two combs of 848 each (shoelace), winding -1 this time.
    const c = new ShapeTriangles(128, 128);
    c.addRings(set, 0, 0, -1, true);
    c.endShape(1, 1, 1, 1);
    expect(triangulationCounts.reused - before.reused).toBe(4);
    expect(triangleArea(c, 0)).toBeCloseTo(-2 * 2 * 848, 6);
    expect(triangleArea(c, 0, true)).toBeCloseTo(2 * 2 * 848, 6);
  });
});

gpuDescribe('drawShapes: CPU/GPU parity on hard shapes', () => {
  let backend: GpuBackend;
  beforeAll(async () => {
    backend = (await gpu()) as GpuBackend;
  });

  const W = 61;
  const H = 47;
  const cases: Record<string, Shape[]> = {
    'bow-tie and a star that winds twice': [
      { polygons: [[ring([3, 3, 40, 30, 40, 3, 3, 30])]], rgba: RED },
      { polygons: [[ring([30, 2, 38, 44, 18, 10, 58, 20, 14, 34])]], rgba: BLUE },
    ],
    'hole outside its exterior, overlapping exteriors in one shape': [
      { polygons: [[square(2.3, 2.7, 25.5), square(15.1, 9.9, 20.2, -1)]], rgba: RED },
      { polygons: [[square(20.5, 14.25, 30)], [square(30.75, 20.1, 25)]], rgba: BLUE },
    ],
    'slivers, needles and sub-pixel triangles': [
      { polygons: [[ring([1, 1, 60, 1.02, 60, 1.05])], [ring([5, 40, 55.5, 3.3, 5.01, 40.02])]], rgba: RED },
      { polygons: [[ring([30.2, 30.3, 30.6, 30.4, 30.3, 30.9])], [ring([10, 20, 10.01, 45, 10.03, 20])]], rgba: BLUE },
    ],
    'far-off vertices and a non-convex ring crossing the canvas': [
      { polygons: [[ring([-900, -700, 1200, 20, 30, 900, 25, 30])]], rgba: RED },
      { polygons: [[ring([-5, 10, 70, 12, 40, 25, 70, 40, -3, 44, 20, 27])]], rgba: BLUE },
    ],
  };

  for (const [name, shapes] of Object.entries(cases)) {
    for (const antialias of [true, false]) {
      test(`${name} (antialias ${antialias})`, async () => {
        const cpu = cpuRender(shapes, W, H, antialias);
        if (antialias) expect(coverage(cpu).partial + coverage(cpu).full).toBeGreaterThan(20);
        const out = await gpuRender(backend, build(shapes, W, H), antialias);
        expect(maxDiff(cpu, out)).toBeLessThanOrEqual(GEOMETRY_TOL);
      });
    }
  }

  test('antialias off: vertices on pixel centres and edges through them sample as the CPU does', async () => {
    const shapes: Shape[] = [
      { polygons: [[ring([2.5, 2.5, 20.5, 2.5, 20.5, 30.5, 2.5, 30.5])]], rgba: RED },
      { polygons: [[ring([10, 10, 40, 10, 25, 40]), ring([15.5, 15.5, 35.5, 15.5, 25.5, 35.5], -1)]], rgba: BLUE },
      { polygons: [[ring([30.5, 5.5, 55.5, 30.5, 30.5, 40.5, 45.5, 20.5])]], rgba: RED },
    ];
    const cpu = cpuRender(shapes, W, H, false);
    const out = await gpuRender(backend, build(shapes, W, H), false);
    expect(maxDiff(cpu, out)).toBeLessThanOrEqual(GEOMETRY_TOL);
  });

  test('more shapes than one slot buffer holds: composited run after run, in paint order', async () => {
    const r = rng(5);
    const shapes: Shape[] = [];
    for (let i = 0; i < 40; i++) {
      const x = r() * W;
      const y = r() * H;
      const s = 3 + r() * 20;
      shapes.push({ polygons: [[ring([x, y, x + s, y + r() * 5, x + r() * s, y + s])]], rgba: [r(), r(), r(), 0.3 + 0.7 * r()] });
    }
    const tris = build(shapes, W, H);
    const cpu = cpuRender(shapes, W, H, true);
    // 6 slots a run: many runs, each carried to the next in f32.
    expect(tris.chunks(6).length).toBeGreaterThan(5);
    const out = await gpuRender(backend, tris, true, 6 * 1024);
    expect(maxDiff(cpu, out)).toBeLessThanOrEqual(GEOMETRY_TOL);
    expect(maxDiff(out, await gpuRender(backend, tris, true))).toBeLessThanOrEqual(GEOMETRY_TOL);
  });
});
