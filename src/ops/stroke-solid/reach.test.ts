// strokeOutlines leaves out a group whose outline cannot reach the canvas before stroking it, also
// a group with cut line ends: cutReach bounds what their seam bands reach (Stroker.seamReach, which
// the test after stroking reads). Witness: the Stroker's own seamReach on the same lines; a bound
// below it would drop a group that draws on the canvas.
import { CUT_END, CUT_END_X, CUT_END_Y, CUT_START, CUT_START_X, CUT_START_Y, cutAxis } from '../../geometry/clip.js';
import { Rasterizer } from '../../backends/cpu/rasterize.js';
import { Stroker } from '../../geometry/stroke.js';
import { rng } from '../../../tests/helpers/random.js';
import { cutReach } from './plan.js';

const CUTS = [
  CUT_START | CUT_START_X,
  CUT_START | CUT_START_Y,
  CUT_END | CUT_END_X,
  CUT_END | CUT_END_Y,
  CUT_START | CUT_START_X | CUT_END | CUT_END_Y,
  CUT_START | CUT_START_Y | CUT_END | CUT_END_X,
];

describe('stroke-solid: the reach of cut ends known before stroking', () => {
  test('cutReach is at least the reach the stroker gives every line, or not known', () => {
    const rand = rng(25);
    let known = 0;
    let tight = 0;
    for (let c = 0; c < 4000; c++) {
      const n = 2 + Math.floor(rand() * 4);
      const line = new Float64Array(n * 2);
      let x = 100;
      let y = 100;
      for (let i = 0; i < n; i++) {
        line[i * 2] = x;
        line[i * 2 + 1] = y;
        // Steps of every size (near-duplicate points, sub-pixel, long) and every direction,
        // axis-aligned and near the cut lines' directions included.
        const len = [1e-7, 0.3, 1, 5, 40][Math.floor(rand() * 5)]!;
        const a = rand() < 0.3 ? (Math.floor(rand() * 4) * Math.PI) / 2 + (rand() - 0.5) * 0.1 : rand() * 2 * Math.PI;
        x += Math.cos(a) * len;
        y += Math.sin(a) * len;
      }
      const cut = CUTS[c % CUTS.length]!;
      const w = [0.5, 1.7, 6, 11][c % 4]!;
      const miterLimit = [1, 2, 4][c % 3]!;
      const st = new Stroker();
      st.merged = c % 2 === 0;
      st.setStyle({ width: w, join: 'round', cap: 'round', miterLimit, offset: 0 });
      st.line(line, (cut & CUT_START) === 0, (cut & CUT_END) === 0, cutAxis(cut, false), cutAxis(cut, true));
      const after = Math.max((w / 2) * Math.max(miterLimit, 1.5), st.seamReach) + 1;
      const before = cutReach({ properties: {}, polygons: [], lines: [line], cutEnds: Uint8Array.of(cut), points: new Float64Array(0) }, w, miterLimit);
      if (Number.isNaN(before)) continue;
      known++;
      expect(before).toBeGreaterThanOrEqual(after);
      if (before <= after + 0.02 * w) tight++;
    }
    // Most cases (end segments of a pixel or more, not near parallel to the cut line) are bounded
    // before stroking, and closely (a group is not kept for nothing).
    expect(known).toBeGreaterThan(1000);
    expect(tight).toBeGreaterThan(known * 0.9);
  });

  test('a cut edge of a polygon ring leaves the reach unknown before stroking', () => {
    const ring = Float64Array.of(0, 0, 10, 0, 10, 10, 0, 10);
    const g = { properties: {}, polygons: [[ring]], polygonCuts: [[Uint8Array.of(0, 1, 0, 0)]], lines: [], points: new Float64Array(0) };
    expect(cutReach(g, 2, 2)).toBeNaN();
  });
});

describe('stroke-solid: rings off the canvas are not built (Stroker.cull)', () => {
  test('the coverage is bit for bit that of every ring built', () => {
    const rand = rng(26);
    const W = 64;
    const H = 48;
    const canvas = { x0: 1000, y0: 2000 };
    let culledRings = 0;
    for (let c = 0; c < 300; c++) {
      const lines: Float64Array[] = [];
      for (let l = 0; l < 6; l++) {
        const n = 2 + Math.floor(rand() * 4);
        const line = new Float64Array(n * 2);
        // Around the canvas: inside, across its sides and corners, and off every side.
        let x = canvas.x0 - 40 + rand() * (W + 80);
        let y = canvas.y0 - 40 + rand() * (H + 80);
        for (let i = 0; i < n; i++) {
          line[i * 2] = x;
          line[i * 2 + 1] = y;
          const a = rand() * 2 * Math.PI;
          const len = 1 + rand() * 30;
          x += Math.cos(a) * len;
          y += Math.sin(a) * len;
        }
        lines.push(line);
      }
      const style = {
        width: [0.7, 3, 9][c % 3]!,
        join: (['round', 'miter', 'bevel'] as const)[c % 3]!,
        cap: (['round', 'square', 'butt'] as const)[(c >> 1) % 3]!,
        miterLimit: 2,
        offset: 0,
      };
      const masks = [null, Float64Array.of(canvas.x0, canvas.y0, canvas.x0 + W, canvas.y0 + H)].map((cull) => {
        const st = new Stroker();
        st.merged = true;
        st.cull = cull;
        st.setStyle(style);
        for (const l of lines) st.line(l);
        if (cull) culledRings -= st.out.count;
        else culledRings += st.out.count;
        const r = new Rasterizer(W, H);
        r.addRings(st.out, -canvas.x0, -canvas.y0);
        return r.sweepMask();
      });
      for (let i = 0; i < W * H; i++) if (!Object.is(masks[0]![i], masks[1]![i])) throw new Error(`case ${c}: pixel ${i} ${masks[0]![i]} != ${masks[1]![i]}`);
    }
    // Rings were left out (the test is not vacuous).
    expect(culledRings).toBeGreaterThan(300);
  });
});
