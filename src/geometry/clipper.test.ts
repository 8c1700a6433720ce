// Reading Clipper2's results from the module's memory (readDirect) against reading them through
// clipper2-wasm's own API, path by path (PathsD.get(i).view(), what embind gives): the same doubles
// in the same order, for unions of random rings, an empty result, and after the module's memory grew.
import { loadClipper, readBothWays } from './clipper.js';
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
