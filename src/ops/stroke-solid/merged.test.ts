// Merged stroke outlines (Stroker.merged, the CPU kernel's) against the convex pieces (the GPU's):
// the same signed winding, so the exact-area rasterizer gives the same coverage per pixel.
import { Rasterizer } from '../../backends/cpu/rasterize.js';
import { rng } from '../../../tests/helpers/random.js';
import { Stroker, type Cap, type Join } from '../../geometry/stroke.js';

function coverage(W: number, H: number, merged: boolean, draw: (s: Stroker) => void): Float32Array {
  const s = new Stroker();
  s.merged = merged;
  draw(s);
  const r = new Rasterizer(W, H);
  r.addRings(s.out);
  return r.sweepMask();
}

describe('merged stroke outlines', () => {
  const joins: Join[] = ['miter', 'round', 'bevel'];
  const caps: Cap[] = ['butt', 'round', 'square'];
  test('random polylines and rings, every join, cap, width and offset: same coverage as the pieces', () => {
    const r = rng(7);
    const W = 70;
    const H = 60;
    for (let t = 0; t < 120; t++) {
      const n = 3 + Math.floor(r() * 12);
      const pts = new Float64Array(n * 2);
      for (let i = 0; i < n; i++) {
        // Some steps repeat a point or go straight on or straight back.
        const k = r();
        if (i > 1 && k < 0.08) {
          pts[i * 2] = 2 * pts[i * 2 - 2]! - pts[i * 2 - 4]!;
          pts[i * 2 + 1] = 2 * pts[i * 2 - 1]! - pts[i * 2 - 3]!;
        } else if (i > 1 && k < 0.14) {
          pts[i * 2] = pts[i * 2 - 4]!;
          pts[i * 2 + 1] = pts[i * 2 - 3]!;
        } else if (i > 0 && k < 0.18) {
          pts[i * 2] = pts[i * 2 - 2]!;
          pts[i * 2 + 1] = pts[i * 2 - 1]!;
        } else {
          pts[i * 2] = -10 + r() * (W + 20);
          pts[i * 2 + 1] = -10 + r() * (H + 20);
        }
      }
      const style = {
        width: 0.3 + r() * (t % 3 === 0 ? 12 : 3),
        join: joins[t % 3]!,
        cap: caps[Math.floor(t / 3) % 3]!,
        miterLimit: 1 + r() * 4,
        offset: t % 5 === 0 ? (r() - 0.5) * 4 : 0,
      };
      const closed = t % 4 === 1;
      const cuts = t % 8 === 5 ? Uint8Array.from({ length: n }, () => (r() < 0.3 ? 1 : 0)) : undefined;
      const draw = (s: Stroker) => {
        s.setStyle(style);
        if (closed) s.ring(pts, cuts);
        else s.line(pts, t % 2 === 0, t % 6 !== 3);
      };
      const a = coverage(W, H, false, draw);
      const b = coverage(W, H, true, draw);
      let max = 0;
      for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
      expect(max).toBeLessThan(1e-6);
    }
  });

  test('round joins: ceil(turn / chord angle) - 1 arc points, turns straddling the chord angle', () => {
    // The closed form: the chord angle whose sagitta on radius h is 0.01 px, 2 acos(1 - 0.01 / h)
    // (at most pi / 4); a join turning by `turn` gets ceil(turn / angle) - 1 interior arc points,
    // also at turns a hair either side of a multiple of that angle (Stroker skips acos and atan2
    // below the angle, with 1e-6 of it to spare).
    for (const width of [0.8, 1, 5, 11, 40]) {
      const h = width / 2;
      const angle = Math.min(Math.PI / 4, 2 * Math.acos(1 - 0.01 / h));
      for (const merged of [true, false]) {
        const points = (turn: number, right: boolean) => {
          const s = new Stroker();
          s.merged = merged;
          s.setStyle({ width, join: 'round', cap: 'butt', miterLimit: 2, offset: 0 });
          const t = right ? turn : -turn;
          s.line(new Float64Array([0, 0, 100, 0, 100 + 100 * Math.cos(t), 100 * Math.sin(t)]));
          return s.out.starts[s.out.count]! / 2;
        };
        for (const right of [true, false]) {
          const base = points(angle * 0.5, right);
          for (const m of [1, 2, 3]) {
            for (const rel of [-1e-3, -3e-6, -1e-6, -5e-7, -1e-8, 1e-7, 1e-3]) {
              const turn = angle * (m + rel);
              if (turn >= Math.PI * 0.99) continue;
              expect([width, merged, right, m, rel, points(turn, right) - base]).toEqual([width, merged, right, m, rel, Math.ceil(m + rel) - 1]);
            }
          }
        }
      }
    }
  });

  test('fewer edges than the pieces', () => {
    const pts = new Float64Array([0, 0, 10, 2, 20, 0, 25, 10, 15, 20, 5, 18]);
    const count = (merged: boolean) => {
      const s = new Stroker();
      s.merged = merged;
      s.setStyle({ width: 2, join: 'miter', cap: 'butt', miterLimit: 4, offset: 0 });
      s.line(pts);
      return s.out.starts[s.out.count]! / 2;
    };
    expect(count(true)).toBeLessThan(count(false) * 0.8);
  });
});
