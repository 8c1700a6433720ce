// The rasterizer's WebAssembly loops (rasterize.wat through accumulate.ts) against its TypeScript
// loops, their reference (Rasterizer.addRingTs and compositeWalk): the same cells and the same
// composited pixels, bit for bit, on random rings in every position against the canvas, in
// confined boxes, with translucent and opaque paints, and through each fallback.
import { MAX_COPY_FLOATS } from './accumulate.js';
import { acquire } from './pool.js';
import { Compositor, Rasterizer, emptyBox, growBox, setRasterizerWasm } from './rasterize.js';
import { arenaStats, inArena, setArenaEnabled } from '../../util/wasm-arena.js';
import { rng } from '../../../tests/helpers/random.js';

afterEach(() => {
  setRasterizerWasm(true);
  setArenaEnabled(true);
});

function made(wasm: boolean, W: number, H: number): Rasterizer {
  setRasterizerWasm(wasm);
  try {
    return new Rasterizer(W, H, true);
  } finally {
    setRasterizerWasm(true);
  }
}

/** A canvas in the canvas arena holding `base`'s pixels. */
function arenaCanvas(base: Float32Array): Float32Array {
  const c = acquire(base.length, false);
  c.set(base);
  return c;
}

/** Values that differ, bit for bit (-0 and 0 count as different). */
function differing(a: Float32Array, b: Float32Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) n++;
  return n;
}

function randomBase(n: number, r: () => number): Float32Array {
  const base = new Float32Array(n * 4);
  for (let i = 0; i < base.length; i += 4) {
    const a = r() < 0.2 ? 0 : r();
    base[i] = r() * a;
    base[i + 1] = r() * a;
    base[i + 2] = r() * a;
    base[i + 3] = a;
  }
  return base;
}

/** Random rings around (cx, cy): polygons, thin quads and long spikes, some with non-finite points. */
function randomRings(r: () => number, W: number, H: number, t: number): Float64Array[] {
  const rings: Float64Array[] = [];
  const cx = -40 + r() * (W + 80);
  const cy = -40 + r() * (H + 80);
  for (let k = 0; k < 1 + (t % 3); k++) {
    const kind = (t + k) % 4;
    if (kind === 0) {
      // a stroke segment's quad, 0.3-3 px wide (rows narrower than a block)
      const x1 = -10 + r() * (W + 20);
      const y1 = -10 + r() * (H + 20);
      const len = Math.hypot(x1 - cx, y1 - cy) || 1;
      const h = (0.15 + r() * 1.35) / len;
      const nx = -(y1 - cy) * h;
      const ny = (x1 - cx) * h;
      rings.push(new Float64Array([cx + nx, cy + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, cx - nx, cy - ny]));
      continue;
    }
    const n = 3 + Math.floor(r() * 12);
    const rad = kind === 1 ? 0.1 + r() * 2 : kind === 2 ? 1 + r() * 10 : 5 + r() * 200;
    const ring = new Float64Array(n * 2);
    for (let i = 0; i < n; i++) {
      ring[i * 2] = cx + (r() - 0.5) * 2 * rad;
      ring[i * 2 + 1] = cy + (r() - 0.5) * 2 * rad;
    }
    // Integer and half-integer corners: edges on cell boundaries.
    if (t % 5 === 0) for (let i = 0; i < ring.length; i++) ring[i] = Math.round(ring[i]! * 2) / 2;
    if (t % 17 === 3) ring[2] = t % 2 ? Number.NaN : Number.POSITIVE_INFINITY;
    rings.push(ring);
  }
  return rings;
}

describe('the rasterizer in WebAssembly', () => {
  test('random rings, confined or not, translucent and opaque paint: the same pixels as the TypeScript loops', () => {
    const r = rng(21);
    for (const [W, H] of [
      [37, 45],
      [70, 31],
      [256, 256],
      [300, 70],
    ] as const) {
      const base = randomBase(W * H, r);
      const a = arenaCanvas(base);
      const b = arenaCanvas(base);
      expect(inArena(a) && inArena(b)).toBe(true);
      const ts = made(false, W, H);
      const wa = made(true, W, H);
      expect(ts.usesWasm).toBe(false);
      expect(wa.usesWasm).toBe(true);
      const ca = new Compositor(a, W);
      const cb = new Compositor(b, W);
      const box = emptyBox();
      for (let t = 0; t < 120; t++) {
        const color = [r(), r(), r(), t % 3 === 0 ? 1 : r()];
        ca.setColor(color);
        cb.setColor(color);
        const rings = randomRings(r, W, H, t);
        const dx = t % 4 === 0 ? -3.25 : t % 4 === 1 ? 0.5 : 0;
        const dy = t % 6 === 0 ? 2.75 : 0;
        if (t % 2 === 0) {
          emptyBox(box);
          for (const ring of rings) growBox(box, ring);
          ts.confine(box[0]! + dx, box[1]! + dy, box[2]! + dx, box[3]! + dy);
          wa.confine(box[0]! + dx, box[1]! + dy, box[2]! + dx, box[3]! + dy);
        }
        const sign = r() < 0.2 ? -1 : 1;
        if (t % 3 === 0) {
          // one ring set (addRings), the coordinates after an offset into the buffer
          const pad = 4;
          const coords = new Float64Array(pad + rings.reduce((s, x) => s + x.length, 0));
          const starts = new Int32Array(rings.length + 1);
          let at = pad;
          rings.forEach((ring, i) => {
            starts[i] = at;
            coords.set(ring, at);
            at += ring.length;
          });
          starts[rings.length] = at;
          const set = { coords, starts, count: rings.length };
          ts.addRings(set, dx, dy, sign);
          wa.addRings(set, dx, dy, sign);
        } else {
          for (const ring of rings) {
            // plain arrays too (the text kernel's rings are typed; callers may pass any ArrayLike)
            const given = t % 5 === 1 ? Array.from(ring) : ring;
            ts.addRing(given, dx, dy, sign);
            wa.addRing(given, dx, dy, sign);
          }
        }
        ts.composite(ca);
        wa.composite(cb);
        expect(wa.empty && ts.empty).toBe(true);
        expect([cb.painted, cb.covered]).toEqual([ca.painted, ca.covered]);
      }
      expect(differing(a, b)).toBe(0);
    }
  });

  test('a whole canvas covered by an opaque paint: covered and painted as in TypeScript', () => {
    const W = 40;
    const H = 30;
    const a = arenaCanvas(new Float32Array(W * H * 4));
    const b = arenaCanvas(new Float32Array(W * H * 4));
    const ca = new Compositor(a, W);
    const cb = new Compositor(b, W);
    ca.setColor([0.2, 0.4, 0.6, 1]);
    cb.setColor([0.2, 0.4, 0.6, 1]);
    const ring = new Float64Array([-5, -5, W + 5, -5, W + 5, H + 5, -5, H + 5]);
    const ts = made(false, W, H);
    const wa = made(true, W, H);
    ts.addRing(ring);
    wa.addRing(ring);
    ts.composite(ca);
    wa.composite(cb);
    expect(cb.covered).toBe(true);
    expect([cb.painted, cb.covered]).toEqual([ca.painted, ca.covered]);
    expect(differing(a, b)).toBe(0);
  });

  test('the cells the WebAssembly accumulation leaves are the TypeScript ones (sweep reads them)', () => {
    const r = rng(8);
    const W = 90;
    const H = 60;
    const ts = made(false, W, H);
    const wa = made(true, W, H);
    for (let t = 0; t < 60; t++) {
      for (const ring of randomRings(r, W, H, t)) {
        ts.addRing(ring, 0.25, -0.5);
        wa.addRing(ring, 0.25, -0.5);
      }
      expect(differing(wa.sweepMask(), ts.sweepMask())).toBe(0);
    }
  });

  test('fallbacks: a canvas outside the arena, a ring set past the copy bound, no arena: the same pixels', () => {
    const r = rng(13);
    const W = 64;
    const H = 48;
    const base = randomBase(W * H, r);
    // A canvas outside the arena: the accumulation in WebAssembly, the walk in TypeScript.
    const plain = base.slice();
    const ref = base.slice();
    const wa = made(true, W, H);
    const ts = made(false, W, H);
    const cp = new Compositor(plain, W);
    const cr = new Compositor(ref, W);
    cp.setColor([0.3, 0.2, 0.9, 0.7]);
    cr.setColor([0.3, 0.2, 0.9, 0.7]);
    for (let t = 0; t < 20; t++) {
      for (const ring of randomRings(r, W, H, t)) {
        wa.addRing(ring);
        ts.addRing(ring);
      }
      wa.composite(cp);
      ts.composite(cr);
    }
    expect(differing(plain, ref)).toBe(0);
    // Past MAX_COPY_FLOATS: one ring of that many points added by the TypeScript loop.
    const n = MAX_COPY_FLOATS / 2 + 8;
    const big = new Float64Array(n * 2);
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * i) / n;
      big[i * 2] = W / 2 + Math.cos(a) * 20;
      big[i * 2 + 1] = H / 2 + Math.sin(a) * 15;
    }
    const bigA = wa.sweepMask((wa.addRing(big), undefined));
    const bigB = ts.sweepMask((ts.addRing(big), undefined));
    expect(differing(bigA, bigB)).toBe(0);
    expect(bigA[(H / 2) * W + W / 2]).toBe(1);
    // No arena: the TypeScript loops.
    setArenaEnabled(false);
    expect(made(true, W, H).usesWasm).toBe(false);
  });

  test("a rasterizer's arena blocks go back when it is disposed", () => {
    const before = arenaStats().liveBytes;
    const wa = made(true, 200, 100);
    expect(wa.usesWasm).toBe(true);
    expect(arenaStats().liveBytes).toBeGreaterThanOrEqual(before + 200 * 100 * 8);
    wa.dispose();
    expect(arenaStats().liveBytes).toBe(before);
  });
});
