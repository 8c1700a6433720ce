// Reading Clipper2's results from the module's memory (readDirect) against reading them through
// clipper2-wasm's own API, path by path (PathsD.get(i).view(), what embind gives): the same doubles
// in the same order, for unions of random rings, an empty result, and after the module's memory grew.
// unionRings' kept ClipperD against UnionSelfD (unionSelf, a new engine and new paths a call): the
// same doubles for random rings (fast-check), glyph-like outer rings with holes at world
// coordinates, one union after another, and after the memory grew; unionRingsTo's rings read in
// place against unionRings' arrays.
import fc from 'fast-check';
import { loadClipper, readBothWays, unionRings, unionRingsTo, unionSelf } from './clipper.js';
import { rng } from '../../tests/helpers/random.js';

const same = (a: Float64Array[], b: Float64Array[]) =>
  a.length === b.length && a.every((r, i) => r.length === b[i]!.length && r.every((v, j) => Object.is(v, b[i]![j])));

/** A star-shaped ring of n points around (cx, cy): radii between r0 and r1. */
function star(rand: () => number, cx: number, cy: number, n: number, r0: number, r1: number): Float64Array {
  const out = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) {
    const a = (i / n) * 2 * Math.PI;
    const r = r0 + (r1 - r0) * rand();
    out[i * 2] = cx + r * Math.cos(a);
    out[i * 2 + 1] = cy + r * Math.sin(a);
  }
  return out;
}

describe('Clipper2 results read in place', () => {
  test('the same rings as path by path through clipper2-wasm, for 200 random unions', async () => {
    const m = await loadClipper();
    const rand = rng(25);
    for (let k = 0; k < 200; k++) {
      const rings: Float64Array[] = [];
      const count = 1 + Math.floor(rand() * 6);
      for (let i = 0; i < count; i++) rings.push(star(rand, rand() * 40, rand() * 40, 3 + Math.floor(rand() * 60), 1 + rand() * 5, 6 + rand() * 20));
      const { direct, each } = readBothWays(m, rings, k % 2 ? 4 : 2);
      expect(direct).toBeDefined();
      expect(each.length).toBeGreaterThan(0);
      expect(same(direct!, each)).toBe(true);
    }
  });

  test('an empty result, and results after the module memory grew', async () => {
    const m = await loadClipper();
    const empty = readBothWays(m, [Float64Array.of(0, 0, 1, 1, 2, 2)]);
    expect(empty.each).toEqual([]);
    expect(empty.direct).toEqual([]);
    const before = m.HEAPU8!.buffer.byteLength;
    const rand = rng(7);
    // Two circles of 300,000 points (~30 MB of paths in and out): the module's memory grows, and
    // HEAPU8 views the new buffer.
    const big = readBothWays(m, [star(rand, 0, 0, 300_000, 150, 150), star(rand, 200, 0, 300_000, 150, 150)]);
    expect(m.HEAPU8!.buffer.byteLength).toBeGreaterThan(before);
    expect(big.direct).toBeDefined();
    expect(same(big.direct!, big.each)).toBe(true);
    const small = readBothWays(m, [star(rand, 0, 0, 50, 3, 9)]);
    expect(same(small.direct!, small.each)).toBe(true);
  });
});

describe('unionRings through a kept ClipperD', () => {
  test('the same rings as UnionSelfD for random rings at precision 2 and 4 (fast-check)', async () => {
    const m = await loadClipper();
    const ring = fc
      .record({
        seed: fc.integer({ min: 1, max: 2 ** 30 }),
        cx: fc.double({ min: -1e6, max: 4e6, noNaN: true }),
        cy: fc.double({ min: -1e6, max: 4e6, noNaN: true }),
        n: fc.integer({ min: 1, max: 80 }),
        r0: fc.double({ min: 0, max: 8, noNaN: true }),
        r1: fc.double({ min: 0, max: 30, noNaN: true }),
        reverse: fc.boolean(),
      })
      .map(({ seed, cx, cy, n, r0, r1, reverse }) => {
        const r = star(rng(seed), cx, cy, n, r0, r0 + r1);
        if (!reverse) return r;
        const o = new Float64Array(r.length);
        for (let i = 0; i < r.length; i += 2) {
          o[i] = r[r.length - 2 - i]!;
          o[i + 1] = r[r.length - 1 - i]!;
        }
        return o;
      });
    fc.assert(
      fc.property(fc.array(ring, { minLength: 0, maxLength: 5 }), fc.boolean(), (rings, four) => {
        // Shifted next to each other, so that some rings overlap.
        const near = rings.map((r, k) => {
          const dx = rings[0]![0]! + k * 3 - r[0]!;
          const dy = rings[0]![1]! - r[1]!;
          return r.map((v, i) => v + (i % 2 ? dy : dx));
        });
        const p = four ? 4 : 2;
        const sunk: Float64Array[] = [];
        unionRingsTo(m, near, (src, at, n, stride) => sunk.push(Float64Array.from({ length: n * 2 }, (_, i) => src[at + (i >> 1) * stride + (i & 1)]!)), p);
        const ref = unionSelf(m, near, p);
        return same(unionRings(m, near, p), ref) && same(sunk, ref) && same(unionRings(m, rings, p), unionSelf(m, rings, p));
      }),
      { numRuns: 300 },
    );
  });

  test('glyph-like rings (an outer ring and its holes) at world pixels, one union after another, and after the memory grew', async () => {
    const m = await loadClipper();
    const rand = rng(11);
    const glyph = (cx: number, cy: number): Float64Array[] => {
      const outer = star(rand, cx, cy, 30 + Math.floor(rand() * 40), 4, 5);
      const hole = star(rand, cx + rand() - 0.5, cy + rand() - 0.5, 20 + Math.floor(rand() * 30), 1.5, 2.5).reverse();
      // reverse() turned x, y pairs into y, x pairs: swap them back (a hole wound the other way).
      for (let i = 0; i < hole.length; i += 2) [hole[i], hole[i + 1]] = [hole[i + 1]!, hole[i]!];
      return rand() < 0.3 ? [outer, hole, star(rand, cx + 3, cy, 12, 1, 3)] : [hole, outer];
    };
    for (let k = 0; k < 300; k++) {
      const g = glyph(1e6 + rand() * 1e5, 1.5e6 + rand() * 1e5);
      expect(same(unionRings(m, g), unionSelf(m, g))).toBe(true);
    }
    // The scratch paths' views are made again once the memory grew (the old ones read as empty).
    const before = m.HEAPU8!.buffer.byteLength;
    unionRings(m, [star(rand, 0, 0, 400_000, 150, 150), star(rand, 200, 0, 400_000, 150, 150)]);
    expect(m.HEAPU8!.buffer.byteLength).toBeGreaterThan(before);
    for (let k = 0; k < 50; k++) {
      const g = glyph(2e6 + rand() * 1e5, 1e6 + rand() * 1e5);
      expect(same(unionRings(m, g), unionSelf(m, g))).toBe(true);
    }
  });
});
