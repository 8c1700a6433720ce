// clipRing against closed forms (areas of clipped squares and triangles), and against the plain
// Sutherland–Hodgman it replaced (number[] passes; issue 25's speed work): the same points, bit
// for bit, on random rings with vertices on, inside and outside the rectangle's sides. clipLine
// against the plain Liang–Barsky loop it replaced (per-segment arrays, number[] pieces), the same
// way: the same pieces, points and cut flags, bit for bit, on random polylines.
import { CUT_END, CUT_END_X, CUT_END_Y, CUT_START, CUT_START_X, CUT_START_Y, clipLine, clipRing, ringArea, type Rect } from './clip.js';
import { rng } from '../../tests/helpers/random.js';

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

/** The implementation clipLine had before (kept here as the reference of the optimisation). */
function clipLinePlain(line: ArrayLike<number>, r: Rect): { line: Float64Array; cut: number }[] {
  const out: { line: Float64Array; cut: number }[] = [];
  let cur: number[] = [];
  let curCut = 0;
  const n = line.length / 2;
  const inside = (x: number, y: number) => x >= r.x0 && x <= r.x1 && y >= r.y0 && y <= r.y1;
  const sideOf = (x: number, y: number, xBit: number, yBit: number) => (x === r.x0 || x === r.x1 ? xBit : y === r.y0 || y === r.y1 ? yBit : 0);
  const flush = (endCut: number) => {
    if (cur.length >= 4) out.push({ line: new Float64Array(cur), cut: curCut | endCut });
    cur = [];
    curCut = 0;
  };
  for (let i = 0; i < n - 1; i++) {
    const ax = line[i * 2]!;
    const ay = line[i * 2 + 1]!;
    const bx = line[i * 2 + 2]!;
    const by = line[i * 2 + 3]!;
    let t0 = 0;
    let t1 = 1;
    let k0 = -1;
    let k1 = -1;
    const dx = bx - ax;
    const dy = by - ay;
    const p = [-dx, dx, -dy, dy];
    const q = [ax - r.x0, r.x1 - ax, ay - r.y0, r.y1 - ay];
    let reject = false;
    for (let k = 0; k < 4; k++) {
      if (p[k] === 0) {
        if (q[k]! < 0 || (q[k] === 0 && (k === 1 || k === 3))) reject = true;
      } else {
        const t = q[k]! / p[k]!;
        if (p[k]! < 0) {
          if (t > t0) {
            t0 = t;
            k0 = k;
          }
        } else if (t < t1) {
          t1 = t;
          k1 = k;
        }
      }
    }
    if (reject || t0 > t1) {
      if (cur.length) flush(CUT_END | sideOf(cur[cur.length - 2]!, cur[cur.length - 1]!, CUT_END_X, CUT_END_Y));
      continue;
    }
    let sx = ax + dx * t0;
    let sy = ay + dy * t0;
    let ex = ax + dx * t1;
    let ey = ay + dy * t1;
    if (k0 >= 0) {
      if (k0 < 2) sx = k0 === 0 ? r.x0 : r.x1;
      else sy = k0 === 2 ? r.y0 : r.y1;
    }
    if (k1 >= 0 && t1 < 1) {
      if (k1 < 2) ex = k1 === 0 ? r.x0 : r.x1;
      else ey = k1 === 2 ? r.y0 : r.y1;
    }
    if (cur.length === 0) {
      cur.push(sx, sy);
      if (t0 > 0) curCut = CUT_START | (k0 < 2 ? CUT_START_X : CUT_START_Y);
      else curCut = inside(ax, ay) ? 0 : CUT_START;
    }
    cur.push(ex, ey);
    if (t1 < 1) flush(CUT_END | (k1 < 2 ? CUT_END_X : CUT_END_Y));
  }
  if (cur.length) flush(0);
  return out;
}

describe('clipLine', () => {
  test('closed forms: a line across the rectangle is cut on both sides, flagged with the side of each cut', () => {
    // y = 0 from x = 0 to 40 against R: [10, 30.5], cut on x = x0 and x = x1.
    expect(clipLine([0, 0, 40, 0], R).map((p) => [Array.from(p.line), p.cut])).toEqual([[[10, 0, 30.5, 0], CUT_START | CUT_START_X | CUT_END | CUT_END_X]]);
    // Down through y0 and y1 at x = 20: [-5, 20]; a line on the max side x = x1 is outside.
    expect(clipLine([20, -40, 20, 40], R).map((p) => [Array.from(p.line), p.cut])).toEqual([[[20, -5, 20, 20], CUT_START | CUT_START_Y | CUT_END | CUT_END_Y]]);
    expect(clipLine([30.5, 0, 30.5, 10], R)).toEqual([]);
    // Out and back in: two pieces.
    expect(clipLine([12, 0, 12, 30, 14, 30, 14, 0], R).map((p) => Array.from(p.line))).toEqual([
      [12, 0, 12, 20],
      [14, 20, 14, 0],
    ]);
  });

  test('the same pieces and flags, bit for bit, as the plain Liang–Barsky loop it replaced (2,000 random lines, a quarter read from the front of a longer array)', () => {
    const rand = rng(26);
    // Grid coordinates that hold the rectangle's sides (points and segments on them), and runs
    // along one axis (segments parallel to a side).
    const coord = (lo: number, hi: number) => (rand() < 0.3 ? Math.round(lo + rand() * (hi - lo)) / 2 : lo + rand() * (hi - lo));
    let cut = 0;
    for (let k = 0; k < 2000; k++) {
      const n = 2 + Math.floor(rand() ** 3 * 600);
      const line: number[] = [];
      for (let i = 0; i < n; i++) {
        const r = rand();
        if (i > 0 && r < 0.15) line.push(line[line.length - 2]!, coord(-30, 50));
        else if (i > 0 && r < 0.3) line.push(coord(-10, 70), line[line.length - 1]!);
        else if (i > 0 && r < 0.33) line.push(line[line.length - 2]!, line[line.length - 1]!);
        else line.push(coord(-10, 70), coord(-30, 50));
      }
      const input = rand() < 0.5 ? line : Float64Array.from(line);
      // A quarter read the line from the front of a longer array (the `length` argument).
      const a = k % 4 === 0 ? clipLine(Float64Array.from([...line, 1e9, -1e9, 20, 0]), R, line.length) : clipLine(input, R);
      const b = clipLinePlain(input, R);
      if (a.length !== b.length) throw new Error(`line ${k}: ${a.length} pieces, the plain clip gave ${b.length}`);
      for (let j = 0; j < a.length; j++) {
        const pa = a[j]!,
          pb = b[j]!;
        if (pa.cut !== pb.cut) throw new Error(`line ${k} piece ${j}: cut ${pa.cut}, the plain clip gave ${pb.cut}`);
        if (pa.line.length !== pb.line.length) throw new Error(`line ${k} piece ${j}: ${pa.line.length} values, the plain clip gave ${pb.line.length}`);
        for (let i = 0; i < pa.line.length; i++)
          if (!Object.is(pa.line[i], pb.line[i])) throw new Error(`line ${k} piece ${j}: value ${i} is ${pa.line[i]}, the plain clip gave ${pb.line[i]}`);
      }
      if (a.some((p) => p.cut)) cut++;
    }
    expect(cut).toBeGreaterThan(1000);
  });
});
