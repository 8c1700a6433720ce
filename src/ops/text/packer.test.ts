// RingPacker (a line label's rings packed as they come: its rings as they are, and its unions' rings
// read in place from Clipper's memory) against packRings of the same rings: the same coordinates,
// starts, ring boxes and box, for random rings given at strides 2 and 3 (fast-check), across the
// growth of its scratch buffers and one packer after another.
import fc from 'fast-check';
import { packRings, RingPacker } from './glyphs.js';

const ringArb = fc
  .array(fc.double({ min: -1e7, max: 1e7, noNaN: true }), { minLength: 0, maxLength: 600 })
  .map((a) => Float64Array.from(a.length % 2 ? a.slice(1) : a));

describe('RingPacker', () => {
  test('the same packed rings and boxes as packRings (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(ringArb, fc.integer({ min: 0, max: 2 })), { maxLength: 90 }), (items) => {
        const rings = items.map(([r]) => r);
        const ref = packRings(rings);
        const p = new RingPacker();
        items.forEach(([r, how], k) => {
          if (how === 0) p.ringOf(ref, k);
          else if (how === 1) p.add(r, 0, r.length >> 1, 2);
          else {
            // x, y, z per point, from an offset (Clipper's paths in its memory).
            const n = r.length >> 1;
            const src = new Float64Array(5 + n * 3).fill(Number.NaN);
            for (let i = 0; i < n; i++) {
              src[5 + i * 3] = r[i * 2]!;
              src[5 + i * 3 + 1] = r[i * 2 + 1]!;
            }
            p.add(src, 5, n, 3);
          }
        });
        const got = p.done();
        const eq = (a: ArrayLike<number>, b: ArrayLike<number>) =>
          a.length === b.length && Array.prototype.every.call(a, (v: number, i: number) => Object.is(v, b[i]));
        return (
          got.count === ref.count &&
          eq(got.coords, ref.coords) &&
          eq(got.starts, ref.starts) &&
          eq(got.ringBoxes, ref.ringBoxes) &&
          eq(got.box, ref.box) &&
          got.byteLength === ref.byteLength
        );
      }),
      { numRuns: 300 },
    );
  });
});
