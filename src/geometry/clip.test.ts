// clipRing against closed forms (areas of clipped squares and triangles), and against the plain
// Sutherland–Hodgman it replaced (number[] passes; issue 25's speed work): the same points, bit
// for bit, on random rings with vertices on, inside and outside the rectangle's sides.
import { clipRing, ringArea, type Rect } from './clip.js';

/** The implementation clipRing had before (kept here as the reference of the optimisation). */
function clipRingPlain(ring: ArrayLike<number>, r: Rect): Float64Array {
  let pts: number[] = Array.from(ring);
  const n0 = pts.length;
  if (n0 >= 4 && pts[0] === pts[n0 - 2] && pts[1] === pts[n0 - 1]) pts = pts.slice(0, n0 - 2);
  const edges: [number, number, number][] = [
    [0, r.x0, 1],
    [0, r.x1, -1],
    [1, r.y0, 1],
    [1, r.y1, -1],
  ];
  for (const [axis, v, sign] of edges) {
    const n = pts.length / 2;
    if (n === 0) break;
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const ax = pts[((i + n - 1) % n) * 2]!;
      const ay = pts[((i + n - 1) % n) * 2 + 1]!;
      const bx = pts[i * 2]!;
      const by = pts[i * 2 + 1]!;
      const a = axis === 0 ? ax : ay;
      const b = axis === 0 ? bx : by;
      const aIn = (a - v) * sign >= 0;
      const bIn = (b - v) * sign >= 0;
      if (aIn !== bIn) {
        const t = (v - a) / (b - a);
        out.push(ax + (bx - ax) * t, ay + (by - ay) * t);
      }
      if (bIn) out.push(bx, by);
    }
    pts = out;
  }
  return new Float64Array(pts);
}

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const R: Rect = { x0: 10, y0: -5, x1: 30.5, y1: 20 };

describe('clipRing', () => {
  test('closed forms: a square across a corner keeps the overlap; a triangle cut by x = x0 keeps its known area', () => {
    // [0, 20] x [0, 20] against R: the overlap is [10, 20] x [0, 20] = 200.
    expect(Math.abs(ringArea(clipRing([0, 0, 20, 0, 20, 20, 0, 20], R)))).toBe(200);
    // Right triangle (0,0) (40,0) (0,40) cut by x >= 10 (and y >= -5, y <= 20, x <= 30.5): the strip
    // 10 <= x <= 30.5, 0 <= y <= min(20, 40 - x): x in [10, 20]: height 20 (area 200); x in [20, 30.5]:
    // height 40 - x (area (20 + 9.5) / 2 * 10.5 = 154.875).
    expect(Math.abs(ringArea(clipRing([0, 0, 40, 0, 0, 40], R)))).toBeCloseTo(354.875, 10);
    // Wholly inside: the same points; wholly outside: nothing.
    expect(Array.from(clipRing([11, 0, 12, 0, 12, 1], R))).toEqual([11, 0, 12, 0, 12, 1]);
    expect(clipRing([0, 0, 1, 0, 1, 1], R).length).toBe(0);
    // A repeated closing point is dropped.
    expect(Array.from(clipRing([11, 0, 12, 0, 12, 1, 11, 0], R))).toEqual([11, 0, 12, 0, 12, 1]);
  });

  test('the same points, bit for bit, as the plain Sutherland–Hodgman it replaced (4,000 random rings)', () => {
    const rand = rng(25);
    // Coordinates snapped to a grid that holds the rectangle's sides, so vertices fall on them too.
    const coord = (lo: number, hi: number) => (rand() < 0.3 ? Math.round(lo + rand() * (hi - lo)) / 2 : lo + rand() * (hi - lo));
    let clipped = 0;
    for (let k = 0; k < 4000; k++) {
      const n = 1 + Math.floor(rand() ** 3 * 1200);
      const ring: number[] = [];
      for (let i = 0; i < n; i++) ring.push(coord(-10, 70), coord(-30, 50));
      if (rand() < 0.2) ring.push(ring[0]!, ring[1]!);
      const input = rand() < 0.5 ? ring : Float64Array.from(ring);
      const a = clipRing(input, R);
      const b = clipRingPlain(input, R);
      expect(a.length).toBe(b.length);
      for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) throw new Error(`ring ${k}: value ${i} is ${a[i]}, the plain clip gave ${b[i]}`);
      if (a.length && a.length !== ring.length) clipped++;
    }
    expect(clipped).toBeGreaterThan(2000);
  });
});
