// Strokes of lines and polygon rings cut at a source-tile edge inside one canvas
// (src/sources/sample.ts clips each source tile's features to its own square; FeatureGroup.cutEnds
// and polygonCuts flag the cut ends and edges, with the side of the square they lie on): the two
// pieces, each ended on the cut line (Stroker.seam), draw the uncut stroke, whether they are one
// group (one coverage) or two groups composited one over the other (MVT features without ids).
import { Rasterizer } from '../../backends/cpu/rasterize.js';
import { CUT_END, CUT_END_X, CUT_END_Y, CUT_START, CUT_START_X, clipLine, clipRing, cutAxis, type Rect } from '../../geometry/clip.js';
import { dashLine, ringBoundary } from '../../geometry/lines.js';
import { Stroker, type CutAxis, type StrokeStyle } from '../../geometry/stroke.js';
import { checkParity, featuresStyle, gpuTest, randomColor, randomFeatures, rng, GEOMETRY_TOL } from '../../../tests/gpu/harness.js';

const W = 80;
const H = 80;
/** The source-tile edge: x = K (vertical) or y = K (horizontal), on a pixel boundary as tile edges are. */
const K = 40;

function style(width: number, offset = 0): StrokeStyle {
  return { width, join: 'miter', cap: 'butt', miterLimit: 2, offset };
}

/** Coverage of what `draw` strokes (merged: the CPU kernel's outlines; else the GPU's convex pieces). */
function coverage(merged: boolean, s: StrokeStyle, draw: (st: Stroker) => void): Float32Array {
  const st = new Stroker();
  st.merged = merged;
  st.setStyle(s);
  draw(st);
  const r = new Rasterizer(W, H);
  r.addRings(st.out);
  return r.sweepMask();
}

/** Alpha of coverages painted one over the other (source-over), as separate groups are. */
function over(...layers: Float32Array[]): Float32Array {
  const out = new Float32Array(W * H);
  for (const l of layers) for (let i = 0; i < out.length; i++) out[i] = out[i]! + l[i]! * (1 - out[i]!);
  return out;
}

function maxDiff(a: Float32Array, b: Float32Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m * 255;
}

/** The two sides of the edge as contribution rectangles (outer sides far away). */
function halves(axis: 1 | 2): [Rect, Rect] {
  return axis === 1
    ? [
        { x0: -1000, y0: -1000, x1: K, y1: 1000 },
        { x0: K, y0: -1000, x1: 1000, y1: 1000 },
      ]
    : [
        { x0: -1000, y0: -1000, x1: 1000, y1: K },
        { x0: -1000, y0: K, x1: 1000, y1: 1000 },
      ];
}

/**
 * A polyline crossing the edge at P = (K, 37.3) (or (37.3, K)) at `deg` degrees to the edge, with
 * a bend on each side well away from it (so joins are part of the picture).
 */
function crossing(axis: 1 | 2, deg: number, reverse: boolean): Float64Array {
  const a = (deg * Math.PI) / 180;
  // Along the edge, and across it.
  const [ex, ey] = axis === 1 ? [0, 1] : [1, 0];
  const [cx, cy] = axis === 1 ? [1, 0] : [0, 1];
  const ux = Math.cos(a) * ex + Math.sin(a) * cx;
  const uy = Math.cos(a) * ey + Math.sin(a) * cy;
  const px = axis === 1 ? K : 37.3;
  const py = axis === 1 ? 37.3 : K;
  // 30 px each side of P, then a bend: farther than the band a 10-degree crossing of width 6
  // leaves between a butt end and the edge (3 cos 10 / sin 10 = 17 px along the line).
  const L = 30;
  const pts = [px - ux * L - 6 * cx, py - uy * L - 6 * cy, px - ux * L, py - uy * L, px + ux * L, py + uy * L, px + ux * L + 8 * ex, py + uy * L + 8 * ey];
  if (reverse) {
    const r: number[] = [];
    for (let i = pts.length - 2; i >= 0; i -= 2) r.push(pts[i]!, pts[i + 1]!);
    return Float64Array.from(r);
  }
  return Float64Array.from(pts);
}

/** The pieces of `line` in each half, with their flags: what sample.ts makes of one line over two source tiles. */
function pieces(line: Float64Array, axis: 1 | 2) {
  return halves(axis).map((r) => clipLine(line, r));
}

function strokePieces(st: Stroker, ps: { line: Float64Array; cut: number }[], sides = true): void {
  for (const p of ps) {
    const a0: CutAxis = sides ? cutAxis(p.cut, false) : 0;
    const a1: CutAxis = sides ? cutAxis(p.cut, true) : 0;
    st.line(p.line, (p.cut & CUT_START) === 0, (p.cut & CUT_END) === 0, a0, a1);
  }
}

describe('clipLine: cut ends lie exactly on the side they were cut at, and say which side', () => {
  test('a line through two sides of a rectangle', () => {
    const out = clipLine(Float64Array.of(-5, 1, 5, 3, 5, 20), { x0: 0, y0: 0, x1: 10, y1: 10 });
    expect(out).toHaveLength(1);
    const [p] = out;
    expect(p!.cut).toBe(CUT_START | CUT_START_X | CUT_END | CUT_END_Y);
    expect(p!.line[0]).toBe(0);
    expect(p!.line[p!.line.length - 1]).toBe(10);
    expect(cutAxis(p!.cut, false)).toBe(1);
    expect(cutAxis(p!.cut, true)).toBe(2);
    // Only the flags 1 / 2 (producers that do not know the side): no cut line.
    expect(cutAxis(3, false)).toBe(0);
    expect(cutAxis(3, true)).toBe(0);
  });

  test('dash keeps the side of the ends it keeps; boundary gives the side of the clipped edge', () => {
    const d = dashLine(Float64Array.of(0, 0, 100, 0), 30, 5, 0, CUT_START | CUT_START_X | CUT_END | CUT_END_Y);
    expect(d[0]!.cut).toBe(CUT_START | CUT_START_X);
    expect(d[d.length - 1]!.cut).toBe(CUT_END | CUT_END_Y);
    // A square clipped at x = 10: edge 1 (10,0 -> 10,10) is the cut.
    const b = ringBoundary(Float64Array.of(0, 0, 10, 0, 10, 10, 0, 10), Uint8Array.of(0, 1, 0, 0));
    expect(b.map((q) => q.cut)).toEqual([CUT_START | CUT_START_X | CUT_END | CUT_END_X]);
  });
});

describe('a stroke cut at a source-tile edge equals the uncut stroke', () => {
  const cases: [number, number][] = [
    [30, 6],
    [60, 6],
    [10, 6],
    [45, 2.5],
    [90, 5],
  ];
  for (const axis of [1, 2] as const) {
    for (const [deg, width] of cases) {
      test(`${axis === 1 ? 'vertical' : 'horizontal'} edge, line at ${deg} degrees to it, width ${width}`, () => {
        for (const reverse of [false, true]) {
          for (const offset of [0, 1.3]) {
            const s = style(width, offset);
            const line = crossing(axis, deg, reverse);
            const [a, b] = pieces(line, axis);
            expect(a).toHaveLength(1);
            expect(b).toHaveLength(1);
            for (const merged of [true, false]) {
              const whole = coverage(merged, s, (st) => st.line(line));
              // One group: one coverage of both pieces.
              expect(
                maxDiff(
                  coverage(merged, s, (st) => strokePieces(st, [...a!, ...b!])),
                  whole,
                ),
              ).toBeLessThan(1e-6);
              // Two groups, painted one over the other.
              const two = over(
                coverage(merged, s, (st) => strokePieces(st, a!)),
                coverage(merged, s, (st) => strokePieces(st, b!)),
              );
              expect(maxDiff(two, whole)).toBeLessThan(1e-6);
            }
          }
        }
      });
    }
  }

  test('before: butt ends (no cut line) abut exactly in one group, but two groups show the butt line', () => {
    // The butt ends of the two pieces lie on one line square to the stroke through P, so one
    // group's coverage is the uncut stroke (0 levels apart): no sliver is missing. But two groups
    // composited one over the other paint that line's anti-aliased pixels twice at partial
    // coverage (a + b - ab < a + b): a light line across the stroke, 62.6, 63.4 and 62.7 / 255 of
    // alpha at 30, 60 and 10 degrees (measured), which ending the pieces on the tile edge (a pixel
    // boundary) removes: 0 above.
    const gaps: number[] = [];
    for (const deg of [30, 60, 10]) {
      const s = style(6);
      const line = crossing(1, deg, false);
      const [a, b] = pieces(line, 1);
      const whole = coverage(true, s, (st) => st.line(line));
      expect(
        maxDiff(
          coverage(true, s, (st) => strokePieces(st, [...a!, ...b!], false)),
          whole,
        ),
      ).toBeLessThan(1e-6);
      gaps.push(
        maxDiff(
          over(
            coverage(true, s, (st) => strokePieces(st, a!, false)),
            coverage(true, s, (st) => strokePieces(st, b!, false)),
          ),
          whole,
        ),
      );
    }
    if (process.env.SEAM_DEBUG) console.log(gaps);
    for (const g of gaps) expect(g).toBeGreaterThan(30);
  });

  test('a short piece across a tile corner (both ends cut on one segment) never goes negative', () => {
    // A segment from the left edge to the top edge of tile [K, K + 100]^2, 1.5 px from its corner.
    const line = Float64Array.of(K - 10, K + 11.5, K + 11.5, K - 10);
    const s = style(6);
    const quads: Rect[] = [
      { x0: -1000, y0: -1000, x1: K, y1: K },
      { x0: K, y0: -1000, x1: 1000, y1: K },
      { x0: -1000, y0: K, x1: K, y1: 1000 },
      { x0: K, y0: K, x1: 1000, y1: 1000 },
    ];
    const ps = quads.map((r) => clipLine(line, r));
    const corner = ps[3]!;
    expect(corner).toHaveLength(1);
    expect(corner[0]!.cut).toBe(CUT_START | CUT_START_X | CUT_END | CUT_END_Y);
    for (const merged of [true, false]) {
      const whole = coverage(merged, s, (st) => st.line(line));
      const one = coverage(merged, s, (st) => strokePieces(st, ps.flat()));
      // The pieces through the corner tiles are short: each end's band reaches past the other
      // tile's piece, so only near the corner do they differ from the uncut stroke.
      let far = 0;
      for (let y = 0; y < H; y++)
        for (let x = 0; x < W; x++) if (Math.hypot(x + 0.5 - K, y + 0.5 - K) > 6) far = Math.max(far, Math.abs(one[y * W + x]! - whole[y * W + x]!));
      expect(far * 255).toBeLessThan(1e-6);
      const st = new Stroker();
      st.merged = merged;
      st.setStyle(s);
      strokePieces(st, corner);
      // The signed winding area of the corner piece is never negative: its coverage with the
      // nonzero rule (|sum|) equals the coverage of its positive part only.
      const r = new Rasterizer(W, H);
      r.addRings(st.out);
      const cov = r.sweepMask();
      for (let i = 0; i < cov.length; i++) {
        const x = (i % W) + 0.5;
        const y = Math.floor(i / W) + 0.5;
        if (cov[i]! > 1e-9) expect([x, y, x > K && y > K]).toEqual([x, y, true]);
      }
    }
  });

  test('polygon rings cut at the edge (polygonCuts): the pieces of the outline meet on the edge', () => {
    // A square turned by 25 degrees across x = K and one by 70 across y = K.
    for (const [axis, turn] of [
      [1, 25],
      [2, 70],
    ] as const) {
      const a = (turn * Math.PI) / 180;
      const ring: number[] = [];
      for (let i = 0; i < 4; i++) {
        const t = a + (i * Math.PI) / 2;
        ring.push(38.6 + 26 * Math.cos(t), 41.2 + 26 * Math.sin(t));
      }
      const whole = Float64Array.from(ring);
      const parts = halves(axis).map((r) => {
        const c = clipRing(whole, r);
        const n = c.length / 2;
        const cuts = new Uint8Array(n);
        for (let i = 0; i < n; i++) {
          const j = (i + 1) % n;
          const on = (k: number) => (axis === 1 ? c[k * 2] : c[k * 2 + 1]) === K;
          if (on(i) && on(j)) cuts[i] = 1;
        }
        return { ring: c, cuts };
      });
      expect(parts.every((p) => p.cuts.some((c) => c))).toBe(true);
      for (const width of [2, 7]) {
        const s = style(width);
        for (const merged of [true, false]) {
          const ref = coverage(merged, s, (st) => st.ring(whole));
          const two = over(...parts.map((p) => coverage(merged, s, (st) => st.ring(p.ring, p.cuts))));
          expect(maxDiff(two, ref)).toBeLessThan(1e-6);
        }
      }
    }
  });
});

describe('CPU/GPU parity', () => {
  // Two by two 72 px source tiles in one window: the random lines and polygon outlines are cut at
  // x0 + 72 and y0 + 72 inside the canvas, and both backends draw the rings that end the pieces on
  // those edges (the CPU in merged outlines, the GPU in convex pieces).
  const w = { z: 3, x0: 4 * 72, y0: 2 * 72, width: 144, height: 144, tileSize: 72 };
  gpuTest('stroke-solid: lines and outlines cut at source-tile edges, every join, with and without offset', async () => {
    const joins = ['miter', 'round', 'bevel'];
    for (let i = 0; i < 3; i++) {
      const seed = 70 + i;
      const r = rng(seed);
      const pts = { type: 'geojson', buffer: 0, data: randomFeatures(seed, w, { polygons: 3, lines: 10 }, 24) };
      const style = featuresStyle({ pts }, 'stroke-solid', {
        join: joins[i],
        'miter-limit': 1 + 3 * r(),
        width: 1 + 8 * r(),
        offset: i === 2 ? 1.5 * r() : 0,
        'color-expr': ['match', ['get', 'k'], 0, randomColor(r), 1, randomColor(r), randomColor(r)],
      });
      await checkParity(`stroke-solid cut ${joins[i]}`, style, w, GEOMETRY_TOL);
    }
  });
});
