// hypot(x, y) must equal Math.hypot(x, y) bit for bit (the lines it measures feed the pixels).
// Witness: V8's own Math.hypot builtin, on edge values (zeros of both signs, subnormals, the
// largest doubles, infinities, NaN) and on random bit patterns and random magnitudes.
import { hypot } from './hypot.js';
import { rng } from '../../tests/helpers/random.js';

describe('hypot: Math.hypot of two numbers, bit for bit', () => {
  const same = (x: number, y: number) => {
    const want = Math.hypot(x, y);
    const got = hypot(x, y);
    if (!Object.is(got, want)) throw new Error(`hypot(${x}, ${y}) = ${got}, Math.hypot gives ${want}`);
  };

  test('edge values, every pair', () => {
    const edge = [
      0,
      -0,
      1,
      -1,
      3,
      4,
      0.1,
      Infinity,
      -Infinity,
      Number.NaN,
      Number.MIN_VALUE,
      -Number.MIN_VALUE,
      2.2250738585072014e-308,
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      1e-300,
      1e300,
    ];
    for (const x of edge) for (const y of edge) same(x, y);
    expect(Object.is(hypot(-0, -0), 0)).toBe(true);
    expect(hypot(Infinity, Number.NaN)).toBe(Infinity);
  });

  test('random bit patterns and pixel-sized values', () => {
    const r = rng(25);
    const f = new Float64Array(2);
    const u = new Uint32Array(f.buffer);
    for (let i = 0; i < 200000; i++) {
      for (let k = 0; k < 4; k++) u[k] = Math.floor(r() * 2 ** 32);
      same(f[0]!, f[1]!);
      same((r() - 0.5) * 8192, (r() - 0.5) * 8192);
      const s = r() * 4096;
      same(s, s * (1 + (r() - 0.5) * 1e-12));
      same(r() * 1e-3, r() * 2);
    }
  });
});
