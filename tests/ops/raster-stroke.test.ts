// Stroke geometry (src/geometry/stroke.ts) rasterized exactly, against closed-form areas of
// strokes, joins and caps.
import { Rasterizer } from '../../src/backends/cpu/rasterize.js';
import { ringArea } from '../../src/geometry/clip.js';
import { type RingBuffer, Stroker, strokeReach, type StrokeStyle } from '../../src/geometry/stroke.js';

const base: StrokeStyle = { width: 1, join: 'miter', cap: 'butt', miterLimit: 2, offset: 0 };
const W = 120;
const H = 120;

function stroked(build: (s: Stroker) => void, style: Partial<StrokeStyle>): { rings: RingBuffer; cov: Float64Array } {
  const s = new Stroker();
  s.setStyle({ ...base, ...style });
  build(s);
  const r = new Rasterizer(W, H);
  r.addRings(s.out);
  const cov = new Float64Array(W * H);
  r.sweep((y, x0, x1, c, solid) => {
    for (let x = x0; x < x1; x++) cov[y * W + x] = solid >= 0 ? solid : c[x]!;
  });
  return { rings: s.out, cov };
}

const line = (...xy: number[]) => new Float64Array(xy);
const sum = (a: Float64Array) => a.reduce((s, v) => s + v, 0);
const column = (cov: Float64Array, x: number) => {
  let s = 0;
  for (let y = 0; y < H; y++) s += cov[y * W + x]!;
  return s;
};

describe('stroke geometry', () => {
  test('a round cap: its points on the circle at the arc steps (cos and sin of the angles from -n, within 1e-12 px)', () => {
    let seed = 3;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (const width of [0.3, 1, 2.5, 5, 11, 40]) {
      const h = width / 2;
      const step0 = h > 0.01 ? Math.min(Math.PI / 4, 2 * Math.acos(1 - 0.01 / h)) : Math.PI / 4;
      const k = Math.ceil(Math.PI / step0 - 1e-9);
      for (let t = 0; t < 8; t++) {
        const a = rnd() * 2 * Math.PI;
        const x0 = 60 + rnd();
        const y0 = 60 + rnd();
        const x1 = x0 + Math.cos(a) * (3 + 30 * rnd());
        const y1 = y0 + Math.sin(a) * (3 + 30 * rnd());
        const s = new Stroker();
        s.setStyle({ ...base, width, cap: 'round' });
        s.line(line(x0, y0, x1, y1));
        // The end cap's ring: the last one, from -n round through u to n about (x1, y1).
        const out = s.out;
        const from = out.starts[out.count - 1]!;
        const to = out.starts[out.count]!;
        const pts = out.coords.subarray(from, to);
        expect(pts.length).toBe(2 * (k + 1));
        const ux = (x1 - x0) / Math.hypot(x1 - x0, y1 - y0);
        const uy = (y1 - y0) / Math.hypot(x1 - x0, y1 - y0);
        const start = Math.atan2(-ux, uy);
        for (let i = 1; i < k; i++) {
          const ang = start + (Math.PI / k) * i;
          expect(Math.abs(pts[2 * i]! - (x1 + Math.cos(ang) * h))).toBeLessThan(1e-12);
          expect(Math.abs(pts[2 * i + 1]! - (y1 + Math.sin(ang) * h))).toBeLessThan(1e-12);
        }
      }
    }
  });

  test('every piece is positively wound (interior right of travel, y down)', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (const join of ['miter', 'round', 'bevel'] as const) {
      for (const cap of ['butt', 'round', 'square'] as const) {
        for (const offset of [0, 2.5, -1.5]) {
          const pts: number[] = [];
          for (let i = 0; i < 12; i++) pts.push(10 + rnd() * 100, 10 + rnd() * 100);
          const { rings } = stroked(
            (s) => {
              s.line(line(...pts));
              s.ring(line(...pts));
            },
            { width: 4.5, join, cap, offset },
          );
          expect(rings.count).toBeGreaterThan(20);
          for (let k = 0; k < rings.count; k++) expect(ringArea(rings.ring(k))).toBeGreaterThanOrEqual(-1e-9);
        }
      }
    }
  });

  test('butt: a horizontal line of width w covers w in every column and L*w in all', () => {
    const w = 3.4;
    const { cov } = stroked((s) => s.line(line(10.5, 20.3, 60.25, 20.3)), { width: w });
    for (let x = 11; x < 60; x++) expect(column(cov, x)).toBeCloseTo(w, 9);
    expect(column(cov, 10)).toBeCloseTo(0.5 * w, 9);
    expect(sum(cov)).toBeCloseTo(49.75 * w, 9);
  });

  test('square caps add w/2 at each end; round caps a disk of diameter w', () => {
    const w = 6;
    const L = 49.75;
    const sq = stroked((s) => s.line(line(10.5, 20.3, 60.25, 20.3)), { width: w, cap: 'square' });
    expect(sum(sq.cov)).toBeCloseTo((L + w) * w, 9);
    const rd = stroked((s) => s.line(line(10.5, 20.3, 60.25, 20.3)), { width: w, cap: 'round' });
    // The arc is a polygon within 0.01 px of the circle.
    expect(Math.abs(sum(rd.cov) - (L * w + Math.PI * 9))).toBeLessThan(0.01 * Math.PI * w);
    expect(sum(rd.cov)).toBeLessThan(L * w + Math.PI * 9);
    // A diagonal line: same closed forms, whatever the direction.
    const dl = stroked((s) => s.line(line(20.2, 30.1, 80.7, 95.3)), { width: w, cap: 'square' });
    const len = Math.hypot(60.5, 65.2);
    expect(sum(dl.cov)).toBeCloseTo((len + w) * w, 9);
  });

  describe('joins at a right angle (10,10) -> (40,10) -> (40,40), width 6', () => {
    const path = line(10, 10, 40, 10, 40, 40);
    const union = 2 * 30 * 6 - 9; // two quads minus their inner overlap
    test.each([
      ['miter', 2, union + 9],
      ['bevel', 2, union + 4.5],
      ['miter', 1.2, union + 4.5], // miter ratio sqrt(2) > 1.2: falls back to bevel
    ] as const)('%s (limit %d)', (join, miterLimit, area) => {
      expect(sum(stroked((s) => s.line(path), { width: 6, join, miterLimit }).cov)).toBeCloseTo(area, 9);
    });
    test('round', () => {
      const a = sum(stroked((s) => s.line(path), { width: 6, join: 'round' }).cov);
      expect(Math.abs(a - (union + (Math.PI * 9) / 4))).toBeLessThan(0.05);
    });
    test('the same turn the other way (left turn) gives the same areas', () => {
      const left = line(10, 40, 40, 40, 40, 10);
      expect(sum(stroked((s) => s.line(left), { width: 6, join: 'miter' }).cov)).toBeCloseTo(union + 9, 9);
      expect(sum(stroked((s) => s.line(left), { width: 6, join: 'bevel' }).cov)).toBeCloseTo(union + 4.5, 9);
    });
  });

  test('an acute miter reaches 1/sin(theta/2) * w/2 from the vertex, and falls back past the limit', () => {
    // Interior angle 60 degrees at (60, 60): miter ratio 1/sin(30deg) = 2.
    const a = (Math.PI / 180) * 30;
    const path = line(60 - 40 * Math.cos(a), 60 - 40 * Math.sin(a), 60, 60, 60 - 40 * Math.cos(a), 60 + 40 * Math.sin(a));
    const w = 4;
    const miter = stroked((s) => s.line(path), { width: w, join: 'miter', miterLimit: 2.01 });
    // The tip is at x = 60 + 2 * w/2 = 64: column 63 is partly covered, column 64 not.
    expect(column(miter.cov, 63)).toBeGreaterThan(0);
    expect(column(miter.cov, 64)).toBeLessThan(1e-9);
    const bevel = stroked((s) => s.line(path), { width: w, join: 'miter', miterLimit: 1.99 });
    // The bevel's far edge: the chord between the two outer corners, at x = 60 + (w/2) sin(30deg) = 61.
    expect(column(bevel.cov, 61)).toBeLessThan(1e-9);
    expect(column(bevel.cov, 60)).toBeGreaterThan(0);
  });

  test('a closed ring is joined all round', () => {
    const sq = line(30, 30, 70, 30, 70, 70, 30, 70);
    const miter = stroked((s) => s.ring(sq), { width: 4 });
    expect(sum(miter.cov)).toBeCloseTo(44 * 44 - 36 * 36, 9);
    const round = stroked((s) => s.ring(sq), { width: 4, join: 'round' });
    expect(Math.abs(sum(round.cov) - (44 * 44 - 36 * 36 - 4 * (4 - Math.PI)))).toBeLessThan(0.1);
    // A repeated closing point changes nothing.
    const closed = stroked((s) => s.ring(line(30, 30, 70, 30, 70, 70, 30, 70, 30, 30)), { width: 4 });
    expect(sum(closed.cov)).toBeCloseTo(sum(miter.cov), 9);
  });

  test('cut ends get no cap', () => {
    const w = 6;
    const L = 49.75;
    const one = stroked((s) => s.line(line(10.5, 20.3, 60.25, 20.3), false, true), { width: w, cap: 'square' });
    expect(sum(one.cov)).toBeCloseTo((L + w / 2) * w, 9);
    const none = stroked((s) => s.line(line(10.5, 20.3, 60.25, 20.3), false, false), { width: w, cap: 'round' });
    expect(sum(none.cov)).toBeCloseTo(L * w, 9);
  });

  test('offset shifts the line to the right of its direction of travel', () => {
    const w = 2;
    const centroidY = (cov: Float64Array) => {
      let s = 0;
      let m = 0;
      for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) (s += cov[y * W + x]!), (m += cov[y * W + x]! * (y + 0.5));
      return m / s;
    };
    // Heading east: right is south (+y).
    const east = stroked((s) => s.line(line(10, 50, 90, 50)), { width: w, offset: 5 });
    expect(centroidY(east.cov)).toBeCloseTo(55, 9);
    expect(sum(east.cov)).toBeCloseTo(80 * w, 9);
    const west = stroked((s) => s.line(line(90, 50, 10, 50)), { width: w, offset: 5 });
    expect(centroidY(west.cov)).toBeCloseTo(45, 9);
    // Offset of a closed clockwise square: inward by 3 (right of travel is inside).
    const sq = stroked((s) => s.ring(line(30, 30, 70, 30, 70, 70, 30, 70)), { width: 2, offset: 3 });
    expect(sum(sq.cov)).toBeCloseTo(36 * 36 - 32 * 32, 9);
  });

  test('edges flagged as cuts are not stroked and leave no cap', () => {
    // A ring clipped at x = 256, the clip edge flagged (edge 1: vertex 1 -> 2).
    const ring = line(100, 100, 256, 100, 256, 200, 100, 200);
    const s = new Stroker();
    s.setStyle({ ...base, width: 4, cap: 'round' });
    s.ring(ring, Uint8Array.from([0, 1, 0, 0]));
    const r = new Rasterizer(300, 300);
    r.addRings(s.out);
    let total = 0;
    let onCut = 0;
    r.sweep((_y, x0, x1, c, solid) => {
      for (let x = x0; x < x1; x++) {
        const v = solid >= 0 ? solid : c[x]!;
        total += v;
        if (x >= 256) onCut += v;
      }
    });
    // C shape: outer box [98,256]x[98,202] minus inner [102,256]x[102,198].
    expect(total).toBeCloseTo(158 * 104 - 154 * 96, 9);
    expect(onCut).toBe(0);
    // Two cut edges (top and bottom) leave two open runs; repeated points keep the flags aligned.
    const t = new Stroker();
    t.setStyle({ ...base, width: 4, cap: 'square' });
    t.ring(line(100, 100, 200, 100, 200, 100, 200, 200, 100, 200, 100, 200), Uint8Array.from([1, 0, 0, 1, 0, 0]));
    const r2 = new Rasterizer(300, 300);
    r2.addRings(t.out);
    // Right edge x = 200 (y 100..200) and left edge x = 100, butt at the cut ends.
    expect(r2.sweepMask().reduce((a, v) => a + v, 0)).toBeCloseTo(2 * 100 * 4, 3);
    // Without flags the same ring is stroked all round.
    const u = new Stroker();
    u.setStyle({ ...base, width: 4 });
    u.ring(ring);
    const r3 = new Rasterizer(300, 300);
    r3.addRings(u.out);
    expect(r3.sweepMask().reduce((a, v) => a + v, 0)).toBeCloseTo(160 * 104 - 152 * 96, 3);
  });

  test('strokeReach bounds the ink of every style', () => {
    expect(strokeReach(4, 'miter', 'butt', 2, 0)).toBe(4);
    expect(strokeReach(4, 'round', 'square', 2, 0)).toBeCloseTo(2 * Math.SQRT2, 12);
    expect(strokeReach(4, 'bevel', 'butt', 2, -3)).toBe(2 + 6);
    // A sharp zigzag with square caps and an offset stays within the reach of its vertices.
    const pts = [40, 40, 80, 42, 41, 44, 79, 60];
    for (const join of ['miter', 'round', 'bevel'] as const) {
      const style = { width: 5, join, cap: 'square' as const, miterLimit: 3, offset: 2 };
      const { cov } = stroked((s) => s.line(line(...pts)), style);
      const reach = strokeReach(style.width, join, style.cap, style.miterLimit, style.offset);
      for (let y = 0; y < H; y++) {
        for (let x = 0; x < W; x++) {
          if (!cov[y * W + x]) continue;
          let best = Infinity;
          for (let i = 0; i + 3 < pts.length; i += 2) best = Math.min(best, segDist(x + 0.5, y + 0.5, pts[i]!, pts[i + 1]!, pts[i + 2]!, pts[i + 3]!));
          expect(best).toBeLessThan(reach + Math.SQRT1_2);
        }
      }
    }
  });
});

function segDist(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}
