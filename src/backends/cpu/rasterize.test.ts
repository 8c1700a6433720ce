// Rasterizer.composite (the fill and stroke kernels' one-pass sweep) against sweep() into a
// Compositor's span callback: the same pixels, bit for bit.
import { Compositor, Rasterizer, emptyBox, growBox } from './rasterize.js';
import { rng } from '../../../tests/helpers/random.js';

/**
 * Two rasterizers compositing onto two copies of one canvas (random premultiplied pixels when `r`
 * is given, else zeros): one through sweep(comp.span), the other through composite(comp).
 */
function twin(W: number, H: number, r?: () => number) {
  const base = new Float32Array(W * H * 4);
  if (r) {
    for (let i = 0; i < base.length; i += 4) {
      const a = r();
      base[i] = r() * a;
      base[i + 1] = r() * a;
      base[i + 2] = r() * a;
      base[i + 3] = a;
    }
  }
  const a = base.slice();
  const b = base.slice();
  return { a, b, ra: new Rasterizer(W, H), rb: new Rasterizer(W, H), ca: new Compositor(a, W), cb: new Compositor(b, W) };
}

/** Values that differ, bit for bit (-0 and 0 count as different). */
function differing(a: Float32Array, b: Float32Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) n++;
  return n;
}

describe('Rasterizer.composite', () => {
  test('random rings, AA and not, opaque and translucent paint: the same pixels as sweep(comp.span)', () => {
    const r = rng(3);
    for (const W of [37, 70, 300]) {
      const H = 45;
      const { a, b, ra, rb, ca, cb } = twin(W, H, r);
      for (let t = 0; t < 40; t++) {
        const aa = t % 5 !== 4;
        ra.antialias = rb.antialias = aa;
        const color = [r(), r(), r(), t % 3 === 0 ? 1 : r()];
        ca.setColor(color);
        cb.setColor(color);
        for (let k = 0; k < 1 + (t % 3); k++) {
          const n = 3 + Math.floor(r() * 9);
          const ring = new Float64Array(n * 2);
          const cx = r() * W;
          const cy = r() * H;
          const rad = 1 + r() * (t % 4 === 0 ? 60 : 8);
          for (let i = 0; i < n; i++) {
            ring[i * 2] = cx + (r() - 0.5) * 2 * rad;
            ring[i * 2 + 1] = cy + (r() - 0.5) * 2 * rad;
          }
          const sign = r() < 0.2 ? -1 : 1;
          ra.addRing(ring, 0, 0, sign);
          rb.addRing(ring, 0, 0, sign);
        }
        ra.sweep(ca.span);
        rb.composite(cb);
        expect(ra.empty && rb.empty).toBe(true);
      }
      expect(differing(a, b)).toBe(0);
    }
  });

  test("confine: cells packed in the shape's box give the same pixels as the whole canvas", () => {
    const r = rng(11);
    for (const W of [20, 64, 257]) {
      const H = 50;
      const { a, b, ra, rb, ca, cb } = twin(W, H);
      const box = emptyBox();
      for (let t = 0; t < 60; t++) {
        ra.antialias = rb.antialias = t % 7 !== 6;
        const color = [r(), r(), r(), t % 2 ? 1 : r()];
        ca.setColor(color);
        cb.setColor(color);
        // Shapes inside, across every edge of, and wholly outside the canvas.
        const cx = -30 + r() * (W + 60);
        const cy = -30 + r() * (H + 60);
        const rad = 0.2 + r() * (t % 3 === 0 ? 40 : 6);
        const rings: Float64Array[] = [];
        for (let k = 0; k < 1 + (t % 2); k++) {
          const n = 3 + Math.floor(r() * 8);
          const ring = new Float64Array(n * 2);
          for (let i = 0; i < n; i++) {
            ring[i * 2] = cx + (r() - 0.5) * 2 * rad;
            ring[i * 2 + 1] = cy + (r() - 0.5) * 2 * rad;
          }
          rings.push(ring);
        }
        const dx = t % 4 === 0 ? -3.25 : 0;
        emptyBox(box);
        for (const ring of rings) growBox(box, ring);
        rb.confine(box[0]! + dx, box[1]! + dx, box[2]! + dx, box[3]! + dx);
        for (const ring of rings) {
          ra.addRing(ring, dx, dx);
          rb.addRing(ring, dx, dx);
        }
        ra.sweep(ca.span);
        rb.composite(cb);
      }
      expect(differing(a, b)).toBe(0);
    }
  });

  test('thin strokes (rows narrower than a block, painted cell by cell): the same pixels as sweep(comp.span)', () => {
    const r = rng(5);
    const W = 90;
    const H = 60;
    const { a, b, ra, rb, ca, cb } = twin(W, H, r);
    for (let t = 0; t < 80; t++) {
      const color = [r(), r(), r(), t % 2 ? 1 : r()];
      ca.setColor(color);
      cb.setColor(color);
      // A segment's quad, 0.3 to 3 px wide, some crossing the canvas edges.
      const x0 = -10 + r() * (W + 20);
      const y0 = -10 + r() * (H + 20);
      const x1 = -10 + r() * (W + 20);
      const y1 = -10 + r() * (H + 20);
      const len = Math.hypot(x1 - x0, y1 - y0) || 1;
      const h = (0.15 + r() * 1.35) / len;
      const nx = -(y1 - y0) * h;
      const ny = (x1 - x0) * h;
      const ring = new Float64Array([x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny]);
      ra.addRing(ring);
      rb.addRing(ring);
      ra.sweep(ca.span);
      rb.composite(cb);
    }
    expect(differing(a, b)).toBe(0);
  });

  test('growBox: a non-finite coordinate gives a box confine ignores', () => {
    const box = emptyBox();
    growBox(box, [1, 2, NaN, 3, 5, 6]);
    expect(Number.isNaN(box[0])).toBe(true);
    const r = new Rasterizer(10, 10);
    r.confine(box[0]!, box[1]!, box[2]!, box[3]!);
    r.addRing(new Float64Array([1, 1, 9, 1, 9, 9, 1, 9]));
    expect(r.sweepMask()[5 * 10 + 5]).toBe(1);
  });
});

describe('Compositor.painted (what paintedNothing reports, src/backends/cpu/uniform.ts)', () => {
  // Squares: inside the canvas, a sliver covering no pixel centre, wholly off the canvas's left
  // side (its cells add to the rows' first column with a net coverage of 0), and wholly below it.
  const square = (x0: number, y0: number, s: number) => Float64Array.from([x0, y0, x0 + s, y0, x0 + s, y0 + s, x0, y0 + s, x0, y0]);
  test.each([
    ['inside', true, true, square(5, 5, 10)],
    ['a sliver (a narrow row of coverage 0.0625)', true, false, square(7.75, 3, 0.25)],
    ['off the left side', false, false, square(-30, 5, 10)],
    ['below', false, false, square(5, 40, 10)],
  ] as const)('%s: painted with area coverage %s, with pixel centres %s; the canvas unchanged when not', (_name, area, centres, ring) => {
    for (const antialias of [true, false]) {
      const r = new Rasterizer(32, 32, antialias);
      const data = new Float32Array(32 * 32 * 4).fill(0.25);
      const comp = new Compositor(data, 32);
      comp.setColor([1, 0, 0, 1]);
      r.addRing(ring);
      r.composite(comp);
      expect({ antialias, painted: comp.painted }).toEqual({ antialias, painted: antialias ? area : centres });
      expect(data.every((v) => Object.is(v, 0.25))).toBe(!comp.painted);
    }
  });
});
