// The exact-area rasterizer against closed forms: polygon areas, and per pixel the area of the
// polygon clipped to the pixel square (Sutherland–Hodgman from src/geometry/clip.ts, an
// independent computation).
import { Rasterizer } from '../../src/backends/cpu/rasterize.js';
import { clipRing, ringArea } from '../../src/geometry/clip.js';
import { Stroker } from '../../src/geometry/stroke.js';

const rect = (x0: number, y0: number, x1: number, y1: number) => new Float64Array([x0, y0, x1, y0, x1, y1, x0, y1]);
const reverse = (r: Float64Array) => {
  const out = new Float64Array(r.length);
  for (let i = 0; i < r.length; i += 2) {
    out[r.length - 2 - i] = r[i]!;
    out[r.length - 1 - i] = r[i + 1]!;
  }
  return out;
};
function regular(n: number, cx: number, cy: number, r: number, phase = 0.1): Float64Array {
  const out = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) {
    const a = phase + (2 * Math.PI * i) / n;
    out[i * 2] = cx + r * Math.cos(a);
    out[i * 2 + 1] = cy + r * Math.sin(a);
  }
  return out;
}

function mask(w: number, h: number, rings: [Float64Array, number?][], aa = true): Float32Array {
  const r = new Rasterizer(w, h, aa);
  for (const [ring, sign] of rings) r.addRing(ring, 0, 0, sign ?? 1);
  return r.sweepMask();
}

/** Coverage as doubles (the mask is float32; sums compare in double through the span callback). */
function coverageSum(w: number, h: number, rings: [Float64Array, number?][]): number {
  const r = new Rasterizer(w, h);
  for (const [ring, sign] of rings) r.addRing(ring, 0, 0, sign ?? 1);
  let s = 0;
  r.sweep((_y, x0, x1, cov, solid) => {
    for (let x = x0; x < x1; x++) s += solid >= 0 ? solid : cov[x]!;
  });
  return s;
}

function exactPixel(ring: Float64Array, x: number, y: number): number {
  return Math.abs(ringArea(clipRing(ring, { x0: x, y0: y, x1: x + 1, y1: y + 1 })));
}

describe('exact-area rasterizer', () => {
  test('rectangle with fractional edges: total area and every partial pixel', () => {
    const ring = rect(1.3, 2.25, 7.6, 5.5);
    expect(coverageSum(10, 8, [[ring]])).toBeCloseTo(6.3 * 3.25, 9);
    const m = mask(10, 8, [[ring]]);
    expect(m[2 * 10 + 1]).toBeCloseTo(0.7 * 0.75, 6); // top-left corner pixel
    expect(m[3 * 10 + 1]).toBeCloseTo(0.7, 6); // left edge
    expect(m[3 * 10 + 4]).toBeCloseTo(1, 6); // inside
    expect(m[5 * 10 + 7]).toBeCloseTo(0.6 * 0.5, 6); // bottom-right corner pixel
    expect(m[6 * 10 + 4]).toBe(0); // below
    expect(m[3 * 10 + 8]).toBe(0); // right
  });

  test('a half-pixel edge gives exactly one half', () => {
    const m = mask(8, 4, [[rect(0, 0, 4.5, 4)]]);
    for (let y = 0; y < 4; y++) {
      expect(m[y * 8 + 3]).toBe(1);
      expect(m[y * 8 + 4]).toBe(0.5);
      expect(m[y * 8 + 5]).toBe(0);
    }
    // The diagonal of a pixel: exactly half of it on each side.
    const tri = mask(2, 2, [[new Float64Array([0, 0, 1, 0, 0, 1])]]);
    expect(tri[0]).toBe(0.5);
    expect(tri[1]).toBe(0);
  });

  test('triangle: total area and per-pixel areas of the clipped polygon', () => {
    const tri = new Float64Array([1.1, 0.7, 9.3, 2.2, 3.4, 8.9]);
    const area = Math.abs(ringArea(tri));
    expect(coverageSum(12, 10, [[tri]])).toBeCloseTo(area, 9);
    const m = mask(12, 10, [[tri]]);
    for (let y = 0; y < 10; y++) for (let x = 0; x < 12; x++) expect(Math.abs(m[y * 12 + x]! - exactPixel(tri, x, y))).toBeLessThan(1e-6);
  });

  test('a concave polygon with long shallow edges, per pixel', () => {
    const poly = new Float64Array([0.2, 0.3, 30.7, 1.1, 29.9, 9.6, 15.5, 2.4, 0.9, 9.9]);
    const m = mask(32, 11, [[poly]]);
    for (let y = 0; y < 11; y++) for (let x = 0; x < 32; x++) expect(Math.abs(m[y * 32 + x]! - exactPixel(poly, x, y))).toBeLessThan(1e-6);
  });

  test('polygon with a hole: holes cancel by winding', () => {
    const outer = rect(2, 2.5, 18.25, 17);
    const hole = reverse(rect(5.5, 6, 11.75, 12.4));
    expect(ringArea(hole)).toBeLessThan(0);
    const expected = 16.25 * 14.5 - 6.25 * 6.4;
    expect(Math.abs(coverageSum(20, 20, [[outer], [hole]]) - expected)).toBeLessThan(1e-6);
    const m = mask(20, 20, [[outer], [hole]]);
    expect(m[8 * 20 + 8]).toBe(0); // inside the hole
    expect(m[8 * 20 + 5]).toBeCloseTo(0.5, 9); // the hole's left edge at x = 5.5
  });

  test('regular 256-gon against its closed-form area', () => {
    const n = 256;
    const r = 40.3;
    const ring = regular(n, 50.2, 49.7, r);
    const area = 0.5 * n * r * r * Math.sin((2 * Math.PI) / n);
    expect(Math.abs(coverageSum(101, 100, [[ring]]) - area)).toBeLessThan(1e-6 * area);
  });

  test('clockwise and counter-clockwise rings cover the same pixels', () => {
    const ring = regular(7, 9.3, 8.1, 6.2);
    const a = mask(20, 20, [[ring]]);
    const b = mask(20, 20, [[reverse(ring)]]);
    for (let i = 0; i < a.length; i++) expect(b[i]).toBeCloseTo(a[i]!, 12);
  });

  test('nonzero: overlapping positive pieces saturate at 1; the sum is the union', () => {
    const a = rect(1, 1, 6, 6);
    const b = rect(3.5, 3.5, 9, 8);
    const union = 25 + 5.5 * 4.5 - 2.5 * 2.5;
    expect(coverageSum(12, 12, [[a], [b]])).toBeCloseTo(union, 9);
    expect(mask(12, 12, [[a], [b]])[4 * 12 + 4]).toBe(1);
  });

  test('shapes beyond the canvas are clipped exactly on every side', () => {
    const big = rect(-10.5, -3, 30.25, 12.75);
    const m = mask(20, 10, [[big]]);
    expect(Array.from(m).every((v) => v === 1)).toBe(true);
    // Half outside on the right and the bottom: only the inside part counts.
    const part = new Float64Array([14.5, 3.2, 27, 5.9, 11.2, 14.1]);
    const inside = Math.abs(ringArea(clipRing(part, { x0: 0, y0: 0, x1: 20, y1: 10 })));
    expect(coverageSum(20, 10, [[part]])).toBeCloseTo(inside, 9);
    // Oblique edges crossing the left edge.
    const left = new Float64Array([-6.3, 1.2, 5.7, 4.4, -2.2, 9.1]);
    const insideL = Math.abs(ringArea(clipRing(left, { x0: 0, y0: 0, x1: 20, y1: 10 })));
    expect(coverageSum(20, 10, [[left]])).toBeCloseTo(insideL, 9);
    const mL = mask(20, 10, [[left]]);
    for (let y = 0; y < 10; y++) for (let x = 0; x < 20; x++) expect(Math.abs(mL[y * 20 + x]! - exactPixel(left, x, y))).toBeLessThan(1e-6);
  });

  test('buffers are reused: a second shape after a sweep sees nothing of the first', () => {
    const r = new Rasterizer(16, 16);
    r.addRing(rect(1, 1, 12.5, 9));
    r.sweepMask();
    r.addRing(rect(4, 4, 5, 5));
    const m = r.sweepMask();
    expect(m.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
    expect(r.empty).toBe(true);
  });

  test('non-AA mode: 1 where the pixel centre is inside (nonzero), else 0', () => {
    const m = mask(10, 8, [[rect(1.3, 2.25, 7.6, 5.5)]], false);
    let count = 0;
    for (let y = 0; y < 8; y++) {
      for (let x = 0; x < 10; x++) {
        const v = m[y * 10 + x]!;
        expect(v === 0 || v === 1).toBe(true);
        const inside = x + 0.5 >= 1.3 && x + 0.5 < 7.6 && y + 0.5 >= 2.25 && y + 0.5 < 5.5;
        expect(v).toBe(inside ? 1 : 0);
        count += v;
      }
    }
    expect(count).toBe(7 * 3);
    // Holes and off-canvas parts follow the same rule.
    const withHole = mask(20, 20, [[rect(-5, -5, 15.2, 15.2)], [reverse(rect(4, 4, 8.7, 8.7))]], false);
    expect(withHole[0]).toBe(1);
    expect(withHole[5 * 20 + 5]).toBe(0);
    expect(withHole[5 * 20 + 14]).toBe(1); // centre 14.5 < 15.2
    expect(withHole[5 * 20 + 15]).toBe(0); // centre 15.5 > 15.2
    // A disk: centres inside the 256-gon, checked point by point.
    const disk = regular(256, 10, 10, 6.5);
    const d = mask(20, 20, [[disk]], false);
    for (let y = 0; y < 20; y++) {
      for (let x = 0; x < 20; x++) {
        const rr = Math.hypot(x + 0.5 - 10, y + 0.5 - 10);
        if (Math.abs(rr - 6.5) > 0.01) expect(d[y * 20 + x]).toBe(rr < 6.5 ? 1 : 0);
      }
    }
  });

  test('random star polygons across the canvas edges, per pixel (canvas wider than one 32-cell word)', () => {
    let seed = 11;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const W = 77;
    const H = 23;
    for (let trial = 0; trial < 12; trial++) {
      const n = 5 + Math.floor(rnd() * 30);
      const cx = rnd() * W;
      const cy = rnd() * H;
      const ring = new Float64Array(n * 2);
      for (let i = 0; i < n; i++) {
        const a = (2 * Math.PI * i) / n;
        const r = 3 + rnd() * 45;
        ring[i * 2] = cx + r * Math.cos(a);
        ring[i * 2 + 1] = cy + r * Math.sin(a) * 0.5;
      }
      const m = mask(W, H, [[ring]]);
      let worst = 0;
      for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) worst = Math.max(worst, Math.abs(m[y * W + x]! - exactPixel(ring, x, y)));
      expect(worst).toBeLessThan(1e-6);
    }
  });

  test('the same strokes on canvases of other widths and offsets give the same pixels', () => {
    let seed = 3;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let trial = 0; trial < 40; trial++) {
      const pts: number[] = [];
      for (let i = 0; i < 6; i++) pts.push(rnd() * 120 - 10, rnd() * 40);
      const s = new Stroker();
      s.setStyle({ width: 1 + rnd() * 6, join: 'round', cap: 'round', miterLimit: 2, offset: 0 });
      s.line(new Float64Array(pts));
      const masks = (
        [
          [100, 0],
          [64, 0],
          [70, -30],
          [33, -67],
        ] as const
      ).map(([w, dx]) => {
        const r = new Rasterizer(w, 40);
        r.addRings(s.out, dx, 0);
        return { w, dx, m: r.sweepMask() };
      });
      const ref = masks[0]!;
      let worst = 0;
      let ink = 0;
      for (const o of masks.slice(1)) {
        for (let y = 0; y < 40; y++) {
          for (let x = 0; x < o.w; x++) {
            const gx = x - o.dx;
            if (gx < 100) worst = Math.max(worst, Math.abs(o.m[y * o.w + x]! - ref.m[y * 100 + gx]!));
            ink += o.m[y * o.w + x]!;
          }
        }
      }
      expect(ink).toBeGreaterThan(10);
      expect(worst).toBeLessThan(1e-6);
    }
  });
});
