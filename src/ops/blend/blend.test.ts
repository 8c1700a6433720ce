// blend: every mode and composite against the W3C Compositing and Blending Level 1 formulas,
// written out here from the spec text on straight colours, independently of cpu.ts.
import fc from 'fast-check';
import { BLEND_MODES, blendRasters, blendReference, normalOver, normalOverMasked, type BlendMode, type Composite } from './cpu.js';
import {
  BLEND_SPAN_PIXELS,
  blendMemoryBytes,
  coverSpanOf,
  coverSpanReference,
  eraseSimd,
  multiplySimd,
  normalOverSimd,
  normalOverSimdAvailable,
} from './simd.js';
import { Renderer, tileWindow } from '../../index.js';
import { markUniform } from '../../backends/cpu/uniform.js';
import { arenaAlloc, arenaFree, inArena } from '../../util/wasm-arena.js';
import { release } from '../../backends/cpu/pool.js';
import { rng } from '../../../tests/helpers/random.js';
import { reference } from '../../../tests/helpers/w3c-compositing.js';
import { ADDON, announceAddon, FAST_KERNELS, useNative } from '../../../tests/helpers/native.js';
import { gpuTest, checkParity, PARITY_WINDOW, randomRasterNodes, rasterSources, RASTER_TOL } from '../../../tests/gpu/harness.js';

announceAddon('src/ops/blend/blend.test.ts');

type V3 = [number, number, number];

// --- Samples -----------------------------------------------------------------------------------
const SPECIAL = [0, 0.25, 0.5, 1];

/** n pixels of random straight colours and alphas, some on the formulas' branch points. */
function samples(n: number, seed: number) {
  const r = rng(seed);
  const comp = () => (r() < 0.25 ? SPECIAL[Math.floor(r() * 4)]! : r());
  const alpha = () => (r() < 0.2 ? [0, 1][Math.floor(r() * 2)]! : r());
  const base = new Float32Array(n * 4);
  const over = new Float32Array(n * 4);
  const mask = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) {
    const ab = alpha(),
      as = alpha();
    for (let c = 0; c < 3; c++) {
      base[i * 4 + c] = comp() * ab;
      over[i * 4 + c] = comp() * as;
    }
    base[i * 4 + 3] = ab;
    over[i * 4 + 3] = as;
    mask[i * 4 + 3] = r();
  }
  return { base, over, mask };
}
/** The straight colour a premultiplied float32 pixel stands for (what the reference receives). */
function straight(d: Float32Array, i: number): { C: V3; a: number } {
  const a = d[i * 4 + 3]!;
  return { C: a > 0 ? [d[i * 4]! / a, d[i * 4 + 1]! / a, d[i * 4 + 2]! / a] : [0, 0, 0], a };
}

const N = 3000;
const COMPOSITES: Composite[] = ['over', 'atop', 'erase'];

describe('blend kernel against the W3C formulas', () => {
  const { base, over, mask } = samples(N, 42);
  for (const mode of BLEND_MODES) {
    for (const composite of COMPOSITES) {
      test(`${mode} / ${composite}`, () => {
        const opacity = 0.8;
        const out = blendRasters(base, over, { mode, composite, opacity, mask });
        let worst = 0;
        for (let i = 0; i < N; i++) {
          const b = straight(base, i);
          const s = straight(over, i);
          const ref = reference(mode, b.C, b.a, s.C, s.a, composite, opacity, mask[i * 4 + 3]!);
          for (let c = 0; c < 4; c++) worst = Math.max(worst, Math.abs(out[i * 4 + c]! - ref[c]!));
        }
        expect(worst).toBeLessThan(2e-6);
      });
    }
  }

  test('no mask and opacity 1 equal the plain formula', () => {
    const out = blendRasters(base, over, { mode: 'soft-light', composite: 'over', opacity: 1 });
    for (let i = 0; i < 200; i++) {
      const b = straight(base, i);
      const s = straight(over, i);
      const ref = reference('soft-light', b.C, b.a, s.C, s.a, 'over');
      for (let c = 0; c < 4; c++) expect(out[i * 4 + c]).toBeCloseTo(ref[c]!, 6);
    }
  });
});

describe('the kernel the op runs = the reference kernel, bit for bit', () => {
  // blendRasters decides the composite once, skips transparent sources and writes multiply out;
  // blendReference runs every pixel through the general formula. Sparse sources (a stroke layer:
  // most pixels transparent) and masks with zeros included.
  const { base, over, mask } = samples(N, 7);
  for (let i = 0; i < N; i += 3) for (let c = 0; c < 4; c++) over[i * 4 + c] = 0;
  for (let i = 0; i < N; i += 5) mask[i * 4 + 3] = 0;
  // Opaque bases and sources (multiply's shortcuts for alpha 1), and alphas above 1 (clamped).
  for (let i = 1; i < N; i += 4) base[i * 4 + 3] = 1;
  for (let i = 2; i < N; i += 7) over[i * 4 + 3] = 1;
  for (let i = 5; i < N; i += 11) over[i * 4 + 3] = 1.25;
  for (let i = 6; i < N; i += 13) base[i * 4 + 3] = 1.5;
  // Base alphas clamp01 rewrites (-0 -> +0, negatives -> 0), also under transparent sources.
  for (let i = 3; i < N; i += 9) base[i * 4 + 3] = -0;
  for (let i = 0; i < N; i += 17) base[i * 4 + 3] = -0.25;
  test('every mode and composite, with and without a mask, opacity 1, 0.6 and 0', () => {
    for (const mode of BLEND_MODES)
      for (const composite of COMPOSITES)
        for (const m of [undefined, mask])
          for (const opacity of [1, 0.6, 0]) {
            if (mode === 'normal' && composite === 'over') continue; // normalOver / its SIMD twin, tested below
            const o = { mode, composite, opacity, mask: m };
            // The WebAssembly kernels (blend.wat multiply and erase, where no mask) and the TypeScript loops.
            const a = blendRasters(base, over, o).slice();
            const t = blendRasters(base, over, o, { simd: false }).slice();
            const b = blendReference(base, over, o);
            let diff = 0;
            let diffTs = 0;
            for (let i = 0; i < a.length; i++) {
              if (!Object.is(a[i], b[i])) diff++;
              if (!Object.is(t[i], b[i])) diffTs++;
            }
            expect({ mode, composite, mask: !!m, opacity, diff, diffTs }).toEqual({ mode, composite, mask: !!m, opacity, diff: 0, diffTs: 0 });
          }
  });
});

describe("in place: the base's own array as the output (OpContext.takeInput)", () => {
  // The op hands blendRasters the base's array as `into` where nothing else reads it: every loop
  // and kernel reads a pixel's base, source and mask before it writes that pixel, and the copies of
  // the base are skipped. In the canvas arena the WebAssembly kernels run where the rasters lie
  // (base and output the same bytes; blend.wat multiply then stores nothing where the source is
  // clear); elsewhere through the scratch memory. The witness: blendReference on untouched arrays.
  const { base, over, mask } = samples(N, 11);
  for (let i = 0; i < N; i += 3) for (let c = 0; c < 4; c++) over[i * 4 + c] = 0;
  for (let i = 0; i < N; i += 5) mask[i * 4 + 3] = 0;
  for (let i = 1; i < N; i += 4) base[i * 4 + 3] = 1;
  for (let i = 2; i < N; i += 7) over[i * 4 + 3] = 1;
  for (let i = 6; i < N; i += 13) base[i * 4 + 3] = 1.5;
  for (let i = 3; i < N; i += 9) base[i * 4 + 3] = -0;
  // a run of clear sources over bases in (0, 1], so multiply's four-pixel shortcut meets them in place
  for (let i = 400; i < 480; i++) {
    over.fill(0, i * 4, i * 4 + 4);
    base[i * 4 + 3] = 0.5 + (i % 2) * 0.5;
  }
  test("every mode and composite, with and without a mask, in the arena and outside it: the reference's bits", () => {
    const bits = (a: Float32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length);
    for (const mode of BLEND_MODES)
      for (const composite of COMPOSITES)
        for (const m of [undefined, mask])
          for (const opacity of [1, 0.6, 0])
            for (const arena of [false, true])
              for (const simd of [true, false]) {
                const o = { mode, composite, opacity, mask: m };
                const ref = blendReference(base, over, o);
                const want = bits(ref.slice());
                release(ref);
                const b = arena ? arenaAlloc(base.length, false)! : new Float32Array(base.length);
                const s = arena ? arenaAlloc(over.length, false)! : new Float32Array(over.length);
                expect(inArena(b)).toBe(arena);
                b.set(base);
                s.set(over);
                const out = blendRasters(b, s, o, { into: b, simd });
                const diff = want.reduce((d, v, i) => d + (v === bits(out)[i] ? 0 : 1), 0);
                expect({ mode, composite, mask: !!m, opacity, arena, simd, same: out === b, diff }).toEqual({
                  mode,
                  composite,
                  mask: !!m,
                  opacity,
                  arena,
                  simd,
                  same: true,
                  diff: 0,
                });
                // the source is only read
                expect(Buffer.compare(Buffer.from(bits(s.slice())), Buffer.from(bits(over.slice())))).toBe(0);
                if (arena) {
                  arenaFree(b);
                  arenaFree(s);
                }
              }
  });
});

/** One opaque-or-not pixel through the kernel. */
function px(baseRGBA: number[], overRGBA: number[], mode: BlendMode, composite: Composite = 'over', opacity = 1): number[] {
  const pre = (c: number[]) => Float32Array.of(c[0]! * c[3]!, c[1]! * c[3]!, c[2]! * c[3]!, c[3]!);
  return Array.from(blendRasters(pre(baseRGBA), pre(overRGBA), { mode, composite, opacity }));
}

describe('blend hand-checked values', () => {
  const grey = 128 / 255;
  test('multiply of 50% grey on white is that grey', () => {
    expect(px([1, 1, 1, 1], [grey, grey, grey, 1], 'multiply')).toEqual([grey, grey, grey, 1].map((v) => Math.fround(v)));
  });
  test('screen of 50% grey on 50% grey is 75%', () => {
    const out = px([0.5, 0.5, 0.5, 1], [0.5, 0.5, 0.5, 1], 'screen');
    expect(out.map((v) => +v.toFixed(6))).toEqual([0.75, 0.75, 0.75, 1]);
  });
  test('difference of white over red is cyan', () => {
    expect(px([1, 0, 0, 1], [1, 1, 1, 1], 'difference')).toEqual([0, 1, 1, 1]);
  });
  test('normal red over blue at opacity 0.5 is purple', () => {
    expect(px([0, 0, 1, 1], [1, 0, 0, 1], 'normal', 'over', 0.5)).toEqual([0.5, 0, 0.5, 1]);
  });
  test('blending onto a transparent base shows the source colour unblended', () => {
    // ab = 0: Cs' = Cs whatever the mode.
    expect(px([0, 0, 0, 0], [0.2, 0.4, 0.6, 0.5], 'multiply').map((v) => +v.toFixed(6))).toEqual([0.1, 0.2, 0.3, 0.5]);
  });
  test('erase removes base in proportion to source alpha', () => {
    expect(px([1, 0, 0, 1], [0, 1, 0, 0.25], 'multiply', 'erase')).toEqual([0.75, 0, 0, 0.75]);
  });
  test('clip (source-atop) keeps the base alpha', () => {
    expect(px([1, 0, 0, 0.5], [0, 0, 1, 1], 'normal', 'atop')).toEqual([0, 0, 0.5, 0.5]);
    expect(px([1, 0, 0, 0], [0, 0, 1, 1], 'normal', 'atop')).toEqual([0, 0, 0, 0]);
  });
  test('luminosity of mid grey onto red keeps red hue at grey luminance', () => {
    const [r, g, b] = px([1, 0, 0, 1], [0.5, 0.5, 0.5, 1], 'luminosity');
    expect(0.3 * r! + 0.59 * g! + 0.11 * b!).toBeCloseTo(0.5, 5);
    expect(r).toBeGreaterThan(g!);
    expect(g).toBeCloseTo(b!, 6);
  });
});

describe('normal over in WebAssembly SIMD', () => {
  test('equals the TypeScript loop within 1e-6, the base kept where the source alpha is <= 0', () => {
    expect(normalOverSimdAvailable()).toBe(true); // Node 20 and current browsers have WebAssembly SIMD
    const r = rng(17);
    const n = 999;
    const base = new Float32Array(n * 4);
    const over = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
      const ab = i % 4 === 0 ? 1 : r();
      base.set([r() * ab, r() * ab, r() * ab, ab], i * 4);
      // Transparent, light with alpha 0 (additive), alpha above 1 and below 0, and ordinary pixels.
      const as = i % 9 === 0 ? 0 : i % 11 === 0 ? 1.25 : i % 13 === 0 ? -0.5 : r();
      over.set([r() * Math.abs(as), r() * Math.abs(as), i % 9 === 0 ? 0.3 : r() * Math.abs(as), as], i * 4);
    }
    for (const opacity of [1, 0.5, 0.37, 0]) {
      const ref = normalOver(base, over, opacity, undefined, new Float32Array(n * 4));
      const simd = new Float32Array(n * 4);
      expect(normalOverSimd(base, over, opacity, simd)).toBe(true);
      let worst = 0;
      for (let i = 0; i < ref.length; i++) worst = Math.max(worst, Math.abs(ref[i]! - simd[i]!));
      expect(worst).toBeLessThanOrEqual(1e-6);
      for (let i = 0; i < n; i += 9) expect(Array.from(simd.subarray(i * 4, i * 4 + 4))).toEqual(Array.from(base.subarray(i * 4, i * 4 + 4)));
    }
  });
});

describe('normal over in WebAssembly SIMD: only the span of source alpha > 0 through the kernel', () => {
  // The span normalOverSimd blends: blend.wat's scan (eight pixels a test, then one by one) where
  // the layer lies in the canvas arena, against the TypeScript loops (its reference): every size
  // 1-40 (the tails of the eight-pixel steps) and 999, the covered pixels anywhere, alphas that are
  // not > 0 of every kind (+0, -0, negative, NaN) around and between them.
  test('the span of pixels with srcA > 0: blend.wat in the arena = the TypeScript loops', () => {
    const r = rng(41);
    let inArenaRuns = 0;
    for (const n of [...Array.from({ length: 40 }, (_, i) => i + 1), 999]) {
      for (let trial = 0; trial < 8; trial++) {
        const over = arenaAlloc(n * 4, false) ?? new Float32Array(n * 4);
        if (inArena(over)) inArenaRuns++;
        const a = Math.floor(r() * n);
        const b = trial % 4 === 0 ? -1 : a + Math.floor(r() * (n - a)); // none covered on every 4th
        for (let i = 0; i < n; i++) {
          const covered = b >= 0 && (i === a || i === b || (i > a && i < b && r() < 0.3));
          over.set([r(), r(), r(), covered ? [1, 1e-40, 0.5][i % 3]! : [0, -0, -0.5, Number.NaN][(i + trial) % 4]!], i * 4);
        }
        const want = coverSpanReference(over, n * 4);
        expect(want).toEqual(b < 0 ? [n * 4, n * 4] : [a * 4, b * 4 + 4]);
        expect(coverSpanOf(over)).toEqual(want);
        if (inArena(over)) arenaFree(over);
      }
    }
    expect(inArenaRuns).toBeGreaterThan(300);
  });

  // The kernel keeps the base's bits where srcA is not > 0, so running it over the span from the
  // first to the last pixel with srcA > 0 and copying the base around it gives the same bits as
  // running it over every pixel. The whole-raster run is forced by giving the first and last pixel
  // an alpha of 0.5: every other pixel must come out bit for bit the same.
  test('transparent, NaN and negative alpha around spans, empty layers, one pixel', () => {
    const r = rng(29);
    const bits = (a: Float32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length);
    for (const n of [1, 2, 7, 64, 999]) {
      for (let trial = 0; trial < 12; trial++) {
        const base = new Float32Array(n * 4);
        const over = new Float32Array(n * 4);
        // every 3rd trial the span reaches the first and the last pixel
        const from = trial % 3 === 1 ? 0 : Math.floor(r() * n);
        const to = trial % 4 === 0 ? from : trial % 3 === 1 ? n : from + Math.floor(r() * (n - from)); // empty on every 4th
        for (let i = 0; i < n; i++) {
          const ab = r();
          base.set([r() * ab, -0, r() * ab, ab], i * 4);
          const inside = i >= from && i < to;
          const as = inside ? (r() < 0.2 ? 0 : r()) : [0, -0.5, Number.NaN, -0][i % 4]!;
          over.set([r(), r(), r(), as], i * 4);
        }
        for (const opacity of [1, 0.37]) {
          const trimmed = new Float32Array(n * 4).fill(7);
          expect(normalOverSimd(base, over, opacity, trimmed)).toBe(true);
          const wide = Float32Array.from(over);
          if (!(wide[3]! > 0)) wide[3] = 0.5;
          if (!(wide[n * 4 - 1]! > 0)) wide[n * 4 - 1] = 0.5;
          const whole = new Float32Array(n * 4);
          normalOverSimd(base, wide, opacity, whole);
          const [a, b] = [bits(trimmed), bits(whole)];
          // every pixel whose source was not changed for the whole run
          for (let i = 0; i < n * 4; i++)
            if (bits(wide)[i | 3] === bits(over)[i | 3] && a[i] !== b[i]) throw new Error(`n ${n} trial ${trial}: float ${i} differs`);
          // and every pixel within 1e-6 of the TypeScript loop (the whole run shares this code;
          // the loop takes a NaN srcA as 1, the kernel as not > 0: those pixels are left out)
          const ref = normalOver(base, over, opacity, undefined, new Float32Array(n * 4));
          for (let i = 0; i < n * 4; i++)
            if (!Number.isNaN(over[i | 3]) && !(Math.abs(ref[i]! - trimmed[i]!) <= 1e-6))
              throw new Error(`n ${n} trial ${trial}: float ${i} is ${trimmed[i]}, the loop gives ${ref[i]}`);
          // where srcA is not > 0, the base's bits (the -0 green included)
          for (let i = 0; i < n; i++)
            if (!(over[i * 4 + 3]! > 0)) expect(Array.from(a.subarray(i * 4, i * 4 + 4))).toEqual(Array.from(bits(base).subarray(i * 4, i * 4 + 4)));
        }
      }
    }
  });
});

// The WebAssembly kernels (blend.wat) and, where the CPU has AVX-512, the addon's multiply
// (native/pixels.h), each through the op's own path against the TypeScript loops.
describe.each(FAST_KERNELS)('%s', (_name, native) => {
  beforeEach(() => useNative(native));
  afterAll(() => useNative(true));
  describe('multiply: the kernel = the TypeScript loop on channels clamp01 rewrites', () => {
    // blend.wat clamps a channel with f64x2 pmin / pmax (pmin(pmax(+0, x), 1)); the TypeScript
    // loop with clamp01. NaN, -0, negatives, values above 1 and infinities in the colour channels of
    // base and source, on opaque and translucent pixels (the kernel's shortcuts and divisions).
    test('the same bits, over and atop, opacity 1, 0.6, 0', () => {
      const r = rng(83);
      const odd = [Number.NaN, -0, -0.5, 1.5, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, 1];
      const n = 512;
      const base = new Float32Array(n * 4);
      const over = new Float32Array(n * 4);
      for (let i = 0; i < n; i++) {
        const ab = [1, 0.5, r(), 0][i % 4]!;
        const as = [1, 1, 0.25, r(), 1.25][i % 5]!;
        for (let c = 0; c < 3; c++) {
          base[i * 4 + c] = r() < 0.3 ? odd[Math.floor(r() * odd.length)]! : r() * ab;
          over[i * 4 + c] = r() < 0.3 ? odd[Math.floor(r() * odd.length)]! : r() * as;
        }
        base[i * 4 + 3] = ab;
        over[i * 4 + 3] = as;
      }
      const bits = (a: Float32Array) => Array.from(new Uint32Array(a.slice().buffer));
      for (const composite of ['over', 'atop'] as const)
        for (const opacity of [1, 0.6, 0]) {
          const o = { mode: 'multiply' as const, composite, opacity };
          const simd = bits(blendRasters(base, over, o));
          const loop = bits(blendRasters(base, over, o, { simd: false }));
          expect({ composite, opacity, same: simd.every((v, i) => v === loop[i]) }).toEqual({ composite, opacity, same: true });
        }
    });
  });

  describe("erase and multiply atop: the kernels' shortcuts = the TypeScript loops", () => {
    // blend.wat's erase takes a source alpha not > 0 (0, -0, negatives, NaN) as k = 1 (the base, its
    // alpha clamped), and multiply atop a base pixel of four +0 as +0. Against the TypeScript loops
    // (their reference), Object.is on every value: odd base channels and alphas, sources of every
    // alpha, bases of four +0 and of +0 with a -0 or NaN channel (not four +0).
    test('the same values, opacity 1, 0.6, 0', () => {
      const r = rng(97);
      const odd = [Number.NaN, -0, -0.5, 1.5, Number.POSITIVE_INFINITY, 0, 1];
      const n = 600;
      const base = new Float32Array(n * 4);
      const over = new Float32Array(n * 4);
      for (let i = 0; i < n; i++) {
        const kind = i % 6;
        const ab = [0, 1, 0.5, r(), -0.25, 1.5][kind]!;
        for (let c = 0; c < 3; c++) base[i * 4 + c] = kind === 0 ? 0 : r() < 0.2 ? odd[Math.floor(r() * odd.length)]! : r() * Math.abs(ab);
        base[i * 4 + 3] = ab;
        if (kind === 0 && i % 5 === 1) base[i * 4 + 1] = -0;
        if (kind === 0 && i % 5 === 2) base[i * 4 + 2] = Number.NaN;
        const as = [0, -0, -0.5, Number.NaN, r(), 1, 1.25][i % 7]!;
        for (let c = 0; c < 3; c++) over[i * 4 + c] = r() < 0.2 ? odd[Math.floor(r() * odd.length)]! : r();
        over[i * 4 + 3] = as;
      }
      for (const [mode, composite] of [
        ['multiply', 'erase'],
        ['multiply', 'atop'],
      ] as const)
        for (const opacity of [1, 0.6, 0]) {
          const o = { mode, composite, opacity };
          const a = blendRasters(base, over, o).slice();
          const t = blendRasters(base, over, o, { simd: false });
          let diff = 0;
          for (let i = 0; i < a.length; i++) if (!Object.is(a[i], t[i])) diff++;
          expect({ composite, opacity, diff }).toEqual({ composite, opacity, diff: 0 });
        }
    });
  });

  describe("multiply: blend.wat's four-pixel shortcuts (the addon's eight pixels a step) = the TypeScript loop", () => {
    // blend.wat takes four pixels at once where no source alpha is > 0 and every base alpha is in
    // (0, 1] (the base as it is), where atop meets four base pixels of four +0 (+0), and where four
    // opaque sources meet four opaque bases (the one-pixel shortcut four times). Runs of pixels of
    // one kind (so whole quads of it, and quads with one odd pixel), against the loop, every bit.
    const kinds = ['clear', 'opaque', 'zero', 'translucent', 'odd'] as const;
    const odd = [Number.NaN, -0, -0.5, 1.5, 1, 0, 0.5, Number.POSITIVE_INFINITY];
    const pixel = fc.record({
      kind: fc.constantFrom(...kinds),
      base: fc.constantFrom(...kinds),
      len: fc.integer({ min: 1, max: 11 }),
      a: fc.float({ noNaN: false }),
      c: fc.array(fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(...odd)), { minLength: 6, maxLength: 6 }),
    });
    const pick = (xs: number[], a: number): number => xs[Math.abs(Math.floor(a * 7)) % xs.length]!;
    // 'clear': a source alpha not > 0, a base alpha in (0, 1]; 'odd': any float (NaN, -0, > 1, ...).
    const alphaOf = (kind: (typeof kinds)[number], a: number, src: boolean): number =>
      kind === 'clear'
        ? src
          ? pick([0, -0, -0.5, Number.NaN], a)
          : pick([0.75, 1, 0.25, 1e-30], a)
        : kind === 'opaque'
          ? pick([1, 1, 1.25, 1], a)
          : kind === 'zero'
            ? 0
            : kind === 'translucent'
              ? Math.min(1, Math.abs(a) % 1 || 0.5)
              : a;
    test('the same bits on runs of clear, opaque, +0, translucent and odd pixels, over and atop', () => {
      fc.assert(
        fc.property(fc.array(pixel, { minLength: 1, maxLength: 40 }), fc.constantFrom(1, 0.6, 0, 0.35), fc.boolean(), (runs, opacity, atop) => {
          const n = runs.reduce((s, r) => s + r.len, 0);
          const base = new Float32Array(n * 4);
          const over = new Float32Array(n * 4);
          let i = 0;
          for (const r of runs)
            for (let k = 0; k < r.len; k++, i++) {
              const as = alphaOf(r.kind, r.a, true);
              const ab = alphaOf(r.base, r.a * 3, false);
              for (let ch = 0; ch < 3; ch++) {
                over[i * 4 + ch] = r.kind === 'odd' ? r.c[ch]! : r.c[ch]! * (as > 0 ? Math.min(as, 1) : 0);
                base[i * 4 + ch] = r.base === 'zero' ? 0 : r.base === 'odd' ? r.c[ch + 3]! : r.c[ch + 3]! * Math.min(Math.max(ab, 0), 1);
              }
              over[i * 4 + 3] = as;
              base[i * 4 + 3] = ab;
            }
          const o = { mode: 'multiply' as const, composite: atop ? ('atop' as const) : ('over' as const), opacity };
          const a = new Uint32Array(blendRasters(base, over, o).slice().buffer);
          const t = new Uint32Array(blendRasters(base, over, o, { simd: false }).slice().buffer);
          return a.every((v, j) => v === t[j]);
        }),
        { numRuns: 400, seed: 25 },
      );
    });
    test('the same bits over a base marked one value everywhere (its terms taken once)', () => {
      fc.assert(
        fc.property(
          fc.array(pixel, { minLength: 1, maxLength: 40 }),
          fc.constantFrom(1, 0.6, 0, 0.35),
          fc.boolean(),
          fc.constantFrom(...kinds),
          fc.float({ noNaN: false }),
          fc.array(fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(...odd)), { minLength: 3, maxLength: 3 }),
          (runs, opacity, atop, baseKind, a, c) => {
            const n = runs.reduce((s, r) => s + r.len, 0);
            const ab = alphaOf(baseKind, a, false);
            const px = c.map((v) => (baseKind === 'zero' ? 0 : baseKind === 'odd' ? v : v * Math.min(Math.max(ab, 0), 1)));
            const base = new Float32Array(n * 4);
            const over = new Float32Array(n * 4);
            let i = 0;
            for (const r of runs)
              for (let k = 0; k < r.len; k++, i++) {
                const as = alphaOf(r.kind, r.a, true);
                for (let ch = 0; ch < 3; ch++) over[i * 4 + ch] = r.kind === 'odd' ? r.c[ch]! : r.c[ch]! * (as > 0 ? Math.min(as, 1) : 0);
                over[i * 4 + 3] = as;
                base.set([px[0]!, px[1]!, px[2]!, ab], i * 4);
              }
            markUniform(base, base.subarray(0, 4));
            const o = { mode: 'multiply' as const, composite: atop ? ('atop' as const) : ('over' as const), opacity };
            const got = new Uint32Array(blendRasters(base, over, o).slice().buffer);
            const t = new Uint32Array(blendRasters(base, over, o, { simd: false }).slice().buffer);
            return got.every((v, j) => v === t[j]);
          },
        ),
        { numRuns: 400, seed: 26 },
      );
    });
  });
});

describe("the addon's normal over (native/pixels.h over_pixels)", () => {
  // Both copies against blend.wat's `over` (the addon unbound), bit for bit: the same f32
  // operations. Source alphas 0, -0, negative, NaN, in (0, 1), 1 and above; odd channels; every
  // length 1-40 (the four-pixel loop's tails); into a buffer of its own and in place.
  const odd = [0, -0, 1, Number.NaN, -1, 2, 0.5, 1e-40, Number.POSITIVE_INFINITY, 0.999999];
  afterAll(() => useNative(true));
  (ADDON ? test : test.skip)("blend.wat's bits", () => {
    const r = rng(505);
    let checked = 0;
    for (let n = 1; n <= 40; n++) {
      const base = new Float32Array(n * 4);
      const over = new Float32Array(n * 4);
      for (let i = 0; i < n * 4; i++) {
        base[i] = r() < 0.15 ? odd[Math.floor(r() * odd.length)]! : r();
        over[i] = r() < 0.15 ? odd[Math.floor(r() * odd.length)]! : i % 4 === 3 && r() < 0.3 ? 0 : r() * 1.1;
      }
      for (const opacity of [1, 0.35, 0, 0.1 + 1e-9]) {
        useNative(false);
        const want = new Float32Array(n * 4);
        expect(normalOverSimd(base, over, opacity, want)).toBe(true);
        for (const generic of ADDON!.simd === 'avx512' ? ([0, 1] as const) : ([1] as const)) {
          const out = new Float32Array(n * 4).fill(7);
          expect(ADDON!.over(base, over, out, opacity, generic)).toBe(true);
          const inPlace = base.slice();
          ADDON!.over(inPlace, over, inPlace, opacity, generic);
          const w = new Uint32Array(want.buffer);
          expect([n, opacity, generic, new Uint32Array(out.buffer).every((v, i) => v === w[i])]).toEqual([n, opacity, generic, true]);
          expect(new Uint32Array(inPlace.buffer).every((v, i) => v === w[i])).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBe(40 * 4 * (ADDON!.simd === 'avx512' ? 2 : 1));
  });
  (ADDON ? test : test.skip)('bad arguments throw, never read past an array', () => {
    const px = new Float32Array(16);
    expect(() => ADDON!.over(px, px.subarray(4), new Float32Array(16), 1, 0)).toThrow(/^over: /);
    expect(() => ADDON!.over(px, new Float32Array(16), px.subarray(1), 1, 0)).toThrow(/^over: /);
    expect(() => ADDON!.over(px.subarray(1), new Float32Array(16), new Float32Array(16), 1, 0)).toThrow(/^over: /);
  });
});

describe("the addon's erase (native/pixels.h erase_pixels)", () => {
  // Both copies against the TypeScript loop (blendRasters without SIMD), Object.is on every value:
  // source alphas 0, -0, negative, NaN, in (0, 1), 1 and above; odd base channels and alphas;
  // every length 1-40 (the eight-pixel loop's tails); into a buffer of its own and in place.
  const odd = [0, -0, 1, Number.NaN, -1, 2, 0.5, 1e-40, Number.POSITIVE_INFINITY, 0.999999];
  (ADDON ? test : test.skip)('the TypeScript loop', () => {
    const r = rng(606);
    let checked = 0;
    for (let n = 1; n <= 40; n++) {
      const base = new Float32Array(n * 4);
      const over = new Float32Array(n * 4);
      for (let i = 0; i < n * 4; i++) {
        base[i] = r() < 0.15 ? odd[Math.floor(r() * odd.length)]! : r();
        over[i] = r() < 0.15 ? odd[Math.floor(r() * odd.length)]! : i % 4 === 3 && r() < 0.3 ? 0 : r() * 1.1;
      }
      for (const opacity of [1, 0.85, 0]) {
        const want = blendRasters(base, over, { mode: 'multiply', composite: 'erase', opacity }, { simd: false }).slice();
        for (const generic of ADDON!.simd === 'avx512' ? ([0, 1] as const) : ([1] as const)) {
          const out = new Float32Array(n * 4).fill(7);
          expect(ADDON!.erase(base, over, out, opacity, generic)).toBe(true);
          const inPlace = base.slice();
          ADDON!.erase(inPlace, over, inPlace, opacity, generic);
          expect([n, opacity, generic, out.every((v, i) => Object.is(v, want[i]))]).toEqual([n, opacity, generic, true]);
          expect(inPlace.every((v, i) => Object.is(v, want[i]))).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBe(40 * 3 * (ADDON!.simd === 'avx512' ? 2 : 1));
  });
  (ADDON ? test : test.skip)('bad arguments throw, never read past an array', () => {
    const px = new Float32Array(16);
    expect(() => ADDON!.erase(px, px.subarray(4), new Float32Array(16), 1, 0)).toThrow(/^erase: /);
    expect(() => ADDON!.erase(px.subarray(1), new Float32Array(16), new Float32Array(16), 1, 0)).toThrow(/^erase: /);
  });
});

describe("the addon's multiply (native/pixels.h)", () => {
  // Both copies (the portable one and, where the CPU has it, AVX-512's eight pixels a step)
  // against the TypeScript loop: odd channels and alphas (NaN, -0, negatives, above 1,
  // infinities), transparent and opaque runs, every length 1-70 (so every tail), over and atop,
  // into a buffer of its own and in place.
  const odd = [0, -0, 1, Number.NaN, -1, 2, 0.5, 1e-40, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.999999];
  (ADDON ? test : test.skip)('the TypeScript loop, bit for bit', () => {
    const r = rng(404);
    let checked = 0;
    for (let n = 1; n <= 70; n++)
      for (const kind of [0, 1, 2, 3]) {
        const base = new Float32Array(n * 4);
        const over = new Float32Array(n * 4);
        for (let i = 0; i < n * 4; i++) {
          const u = r();
          base[i] = u < 0.15 ? odd[Math.floor(r() * odd.length)]! : kind === 0 && i % 4 === 3 ? 1 : r() * 1.1;
          const v = r();
          over[i] = v < 0.15 ? odd[Math.floor(r() * odd.length)]! : v < 0.4 && i % 4 === 3 ? 0 : kind === 1 && i % 4 === 3 ? 1 : r() * 1.1;
        }
        for (const opacity of [1, 0.35, 0])
          for (const atop of [0, 1] as const)
            for (const generic of ADDON!.simd === 'avx512' ? ([0, 1] as const) : ([1] as const)) {
              const want = new Uint32Array(
                blendRasters(base, over, { mode: 'multiply', composite: atop ? 'atop' : 'over', opacity }, { simd: false }).slice().buffer,
              );
              const out = new Float32Array(n * 4).fill(7);
              expect(ADDON!.multiply(base, over, out, opacity, atop, generic)).toBe(true);
              const inPlace = base.slice();
              ADDON!.multiply(inPlace, over, inPlace, opacity, atop, generic);
              expect([n, kind, opacity, atop, generic, new Uint32Array(out.buffer).every((v, i) => v === want[i])]).toEqual([
                n,
                kind,
                opacity,
                atop,
                generic,
                true,
              ]);
              expect(new Uint32Array(inPlace.buffer).every((v, i) => v === want[i])).toBe(true);
              checked++;
            }
      }
    expect(checked).toBe(70 * 4 * 3 * 2 * (ADDON!.simd === 'avx512' ? 2 : 1));
  });
  (ADDON ? test : test.skip)('bad arguments throw, never read past an array', () => {
    const px = new Float32Array(16);
    expect(() => ADDON!.multiply(px, px.subarray(4), new Float32Array(16), 1, 0, 0)).toThrow(/^multiply: /); // over too short
    expect(() => ADDON!.multiply(px, new Float32Array(16), px.subarray(1), 1, 0, 0)).toThrow(/^multiply: /); // out too short
    expect(() => ADDON!.multiply(px.subarray(1), new Float32Array(16), new Float32Array(16), 1, 0, 0)).toThrow(/^multiply: /); // not whole pixels
    expect(() => ADDON!.multiply(new Float64Array(4) as unknown as Float32Array, px, px, 1, 0, 0)).toThrow(/^multiply: /);
  });
});

describe('normal over with a mask: the base copied whole, only source alpha not <= 0 computed', () => {
  // normalOverMasked (what blendRasters runs for a masked normal over) against normalOver (the
  // reference loop), bit for bit: sparse layers, empty layers, NaN / negative / -0 / above-1
  // source alphas, masks with zeros, negatives and values above 1, -0 channels in the base.
  test('the same bits as normalOver on sparse, empty and dense layers', () => {
    const r = rng(41);
    const bits = (a: Float32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length);
    for (const n of [1, 2, 7, 64, 999]) {
      for (let trial = 0; trial < 12; trial++) {
        const base = new Float32Array(n * 4);
        const over = new Float32Array(n * 4);
        const mask = new Float32Array(n * 4);
        const density = [0, 0.02, 0.3, 1][trial % 4]!;
        for (let i = 0; i < n; i++) {
          const ab = r();
          base.set([r() * ab, -0, r() * ab, trial % 5 === 0 ? -0.25 : ab], i * 4);
          const as = r() < density ? [r(), 1, 1.25, Number.NaN][i % 4]! : [0, -0.5, -0, 0][i % 4]!;
          over.set([r() * Math.abs(as || 1), r(), -0, as], i * 4);
          mask[i * 4 + 3] = [0, r(), 1, 1.5, -0.5][i % 5]!;
        }
        if (trial === 11) over[n * 4 - 1] = 0.5; // the last pixel drawn
        for (const opacity of [1, 0.37, 0]) {
          const ref = normalOver(base, over, opacity, mask, new Float32Array(n * 4).fill(3));
          const got = normalOverMasked(base, over, opacity, mask, new Float32Array(n * 4).fill(7));
          const [a, b] = [bits(got), bits(ref)];
          for (let i = 0; i < n * 4; i++)
            if (a[i] !== b[i]) throw new Error(`n ${n} trial ${trial} opacity ${opacity}: float ${i} is ${got[i]}, normalOver gives ${ref[i]}`);
          const viaOp = blendRasters(base, over, { mode: 'normal', composite: 'over', opacity, mask });
          expect(Array.from(bits(viaOp.slice()))).toEqual(Array.from(b));
        }
      }
    }
  });
});

describe('blend op in a style', () => {
  const style = {
    output: 'out',
    params: {
      clip: { type: 'bool', default: false },
      op: { type: 'number', default: 1, min: 0, max: 1 },
    },
    nodes: {
      base: { op: 'solid', color: '#ff000080' },
      over: { op: 'solid', color: '#0000ff' },
      half: { op: 'solid', color: '#00000080' },
      out: { op: 'blend', base: '@base', over: '@over', mode: 'screen', opacity: '$op', clip: '$clip', mask: '@half' },
    },
  };
  const r = Renderer.create(style);
  const at = async (p: Record<string, string>) => Array.from((await r.renderWindow(tileWindow({ z: 0, x: 0, y: 0 }, 4), r.params(p))).raster.data.slice(0, 4));

  test('opacity param, mask alpha and clip param reach the kernel', async () => {
    const ab = 128 / 255;
    const expected = (clip: boolean, opacity: number) => {
      const pre = (c: number[]) => Float32Array.of(c[0]! * c[3]!, c[1]! * c[3]!, c[2]! * c[3]!, c[3]!);
      return Array.from(blendRasters(pre([1, 0, 0, ab]), pre([0, 0, 1, 1]), { mode: 'screen', composite: clip ? 'atop' : 'over', opacity: opacity * ab }));
    };
    expect(await at({})).toEqual(expected(false, 1));
    expect(await at({ op: '0.5', clip: 'true' })).toEqual(expected(true, 0.5));
    const clipped = await at({ clip: 'true' });
    expect(clipped[3]).toBeCloseTo(ab, 6);
  });

  test('erase composites ignore the mode', async () => {
    const er = Renderer.create({
      output: 'out',
      nodes: {
        base: { op: 'solid', color: '#ff0000' },
        over: { op: 'solid', color: '#00ff0040' },
        out: { op: 'blend', base: '@base', over: '@over', mode: 'difference', composite: 'dest-out' },
      },
    });
    const d = (await er.renderWindow(tileWindow({ z: 0, x: 0, y: 0 }, 2))).raster.data;
    const k = 1 - 64 / 255;
    expect(Array.from(d.slice(0, 4)).map((v) => +v.toFixed(6))).toEqual([k, 0, 0, k].map((v) => +Math.fround(v).toFixed(6)));
  });
});

describe('CPU/GPU parity', () => {
  const W = PARITY_WINDOW;

  gpuTest('blend: all 16 modes with over, clip and erase composites, opacity and mask', async () => {
    const r = rng(51);
    const sources = { ...rasterSources(52, 'b'), ...rasterSources(53, 'o'), ...rasterSources(54, 'm', 4) };
    const inputs = { ...randomRasterNodes(55, 'b'), ...randomRasterNodes(56, 'o'), ...randomRasterNodes(57, 'm') };
    const cases: { mode: string; composite?: string; clip?: boolean; mask?: boolean }[] = BLEND_MODES.map((mode, i) => ({
      mode,
      clip: i % 4 === 3,
      mask: i % 5 === 2,
    }));
    cases.push({ mode: 'multiply', composite: 'erase' }, { mode: 'normal', composite: 'destination-out', mask: true });
    for (const c of cases) {
      const style = {
        output: 'out',
        sources,
        nodes: {
          ...inputs,
          out: {
            op: 'blend',
            base: '@b',
            over: '@o',
            mode: c.mode,
            opacity: 0.3 + 0.7 * r(),
            clip: c.clip ?? false,
            ...(c.composite ? { composite: c.composite } : {}),
            ...(c.mask ? { mask: '@m' } : {}),
          },
        },
      };
      await checkParity(`blend ${c.mode}${c.clip ? ' clip' : ''}${c.composite ? ' ' + c.composite : ''}${c.mask ? ' mask' : ''}`, style, W, RASTER_TOL);
    }
  });
});

describe('the blend kernels on a canvas larger than one span', () => {
  // blend.wat's spans: the addon unbound
  beforeAll(() => useNative(false));
  afterAll(() => useNative(true));
  // The module's memory never shrinks: a canvas goes through in spans of BLEND_SPAN_PIXELS, so it
  // holds three spans, not three canvases. Every blend is per pixel, so each pixel must come out
  // bit for bit as a call on that pixel alone gives it (the witness: the kernel on one pixel).
  test('every pixel as the kernel gives it alone, and the memory stays at three spans', () => {
    const r = rng(41);
    const n = BLEND_SPAN_PIXELS * 2 + 37;
    const base = new Float32Array(n * 4);
    const over = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
      const ab = r();
      const as = i % 5 === 0 ? 0 : r();
      base.set([r() * ab, r() * ab, r() * ab, ab], i * 4);
      over.set([r() * as, r() * as, r() * as, as], i * 4);
    }
    const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));
    const runs: [string, (b: Float32Array, o: Float32Array, out: Float32Array) => boolean][] = [
      ['normal', (b, o, out) => normalOverSimd(b, o, 0.8, out)],
      ['multiply', (b, o, out) => multiplySimd(b, o, 0.8, false, out)],
      ['erase', (b, o, out) => eraseSimd(b, o, 0.8, out)],
    ];
    for (const [mode, run] of runs) {
      const out = new Float32Array(n * 4);
      expect(run(base, over, out)).toBe(true);
      // pixels at both span boundaries, the first and the last
      for (const p of [1, BLEND_SPAN_PIXELS - 1, BLEND_SPAN_PIXELS, BLEND_SPAN_PIXELS + 1, 2 * BLEND_SPAN_PIXELS, n - 1]) {
        const one = new Float32Array(4);
        run(base.slice(p * 4, p * 4 + 4), over.slice(p * 4, p * 4 + 4), one);
        expect({ mode, p, bits: bits(out.subarray(p * 4, p * 4 + 4)) }).toEqual({ mode, p, bits: bits(one) });
      }
    }
    expect(blendMemoryBytes()).toBeLessThanOrEqual(3 * BLEND_SPAN_PIXELS * 16 + 65536);
  });
});
