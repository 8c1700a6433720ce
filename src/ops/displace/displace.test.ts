// displace: the op against bilinear reads written out here (input and displacement rendered
// separately through the same plan), exact shifts, the boundary rule at the world's edge, the
// padding, and CPU/GPU parity.
import { Renderer, type Window } from '../../index.js';
import { displace } from './index.js';
import { GPU, checkParity, gpuDescribe, gpuTest, randomFeatures, testWindow } from '../../../tests/gpu/harness.js';
import { expectSeamless, seam } from '../../../tests/helpers/seam.js';
import { rng } from '../../../tests/helpers/random.js';
import { displace as displaceKernel, displaceReference, displaceUniform } from './cpu.js';
import { markUniform, uniformOf } from '../../backends/cpu/uniform.js';
import { DISPLACE_BAND_PIXELS, displaceFiniteSimd, displaceMemoryBytes, displaceOccupancyCalls, displaceRowsSimd } from './simd.js';
import { acquire, release } from '../../backends/cpu/pool.js';
import type { DisplacePlan } from './plan.js';

const W: Window = { z: 5, x0: 9 * 256 + 40, y0: 12 * 256 + 70, width: 48, height: 40, tileSize: 256 };

const nodes = (amp: Record<string, unknown>, disp: object = { op: 'noise', 'scale-px': 7, output: 'raster', kind: 'simplex', octaves: 2 }) => ({
  f: { op: 'features', source: 'src' },
  shapes: { op: 'fill-solid', features: '@f', 'fill-expr': ['match', ['get', 'k'], 0, '#d04010', 1, '#2060c0c0', '#30a030'] },
  img: { op: 'blur', input: '@shapes', sigma: 1 },
  d: disp,
  out: { op: 'displace', input: '@img', displacement: '@d', ...amp },
});
const style = (amp: Record<string, unknown>, disp?: object, seed = 3, w = W) => ({
  output: 'out',
  params: { a: { type: 'number', default: 4, min: 0, max: 6 } },
  sources: { src: { type: 'geojson', data: randomFeatures(seed, w, { polygons: 12 }, 30) } },
  nodes: nodes(amp, disp),
});

async function render(s: object, w: Window, output?: string) {
  return (await Renderer.create(output ? { ...s, output } : s).renderWindow(w)).raster;
}

describe('displace', () => {
  test('equals bilinear reads at (R - A/2) 2 amp-x, (G - A/2) 2 amp-y of the premultiplied displacement', async () => {
    const s = style({ 'amp-px': 5, 'amp-y-px': 3 });
    const out = await render(s, W);
    const P = 6; // ceil(5) + 1
    const big: Window = { ...W, x0: W.x0 - P, y0: W.y0 - P, width: W.width + 2 * P, height: W.height + 2 * P };
    const img = await render(s, big, 'img');
    const d = await render(s, W, 'd');
    let worst = 0;
    for (let j = 0; j < W.height; j++)
      for (let i = 0; i < W.width; i++) {
        const q = (j * W.width + i) * 4;
        const x = i + P + (d.data[q]! - d.data[q + 3]! / 2) * 10;
        const y = j + P + (d.data[q + 1]! - d.data[q + 3]! / 2) * 6;
        const x0 = Math.floor(x),
          y0 = Math.floor(y),
          fx = x - x0,
          fy = y - y0;
        for (let c = 0; c < 4; c++) {
          const at = (xx: number, yy: number) => img.data[(yy * big.width + xx) * 4 + c]!;
          const want = (1 - fy) * ((1 - fx) * at(x0, y0) + fx * at(x0 + 1, y0)) + fy * ((1 - fx) * at(x0, y0 + 1) + fx * at(x0 + 1, y0 + 1));
          worst = Math.max(worst, Math.abs(out.data[q + c]! - want));
        }
      }
    expect(worst).toBeLessThan(1e-5);
  });

  test('an opaque displacement of (1, 0) shifts by exactly (+amp, -amp); a transparent one is the identity', async () => {
    const s = style({ 'amp-px': 3 }, { op: 'solid', color: '#ff0000' });
    const out = await render(s, W);
    const shifted = await render(s, { ...W, x0: W.x0 + 3, y0: W.y0 - 3 }, 'img');
    let worst = 0;
    for (let i = 0; i < out.data.length; i++) worst = Math.max(worst, Math.abs(out.data[i]! - shifted.data[i]!));
    expect(worst).toBeLessThan(1e-6);
    const none = await render(style({ 'amp-px': 3 }, { op: 'solid', color: '#ff000000' }), W);
    const img = await render(s, W, 'img');
    expect(Array.from(none.data)).toEqual(Array.from(img.data));
  });

  test("boundary: reads above the world's north edge are repeated (clamp), empty (transparent) or reflected (mirror)", async () => {
    // Top tile row of z2: an upward displacement of 4 px reads rows -4..-1 for the first rows.
    const top: Window = { z: 2, x0: 256, y0: 0, width: 16, height: 12, tileSize: 256 };
    const mk = (boundary: string) => ({
      output: 'out',
      nodes: {
        g: { op: 'noise', 'scale-px': 0.5, output: 'raster' },
        d: { op: 'solid', color: '#800000' },
        out: { op: 'displace', input: '@g', displacement: '@d', 'amp-px': 4, boundary },
      },
    });
    const shift = 4 * (2 * (0x80 / 255) - 1); // x offset of R = 0x80: 0.0157 px
    expect(shift).toBeLessThan(0.02);
    const t = await render(mk('transparent'), top);
    const c = await render(mk('clamp'), top);
    const m = await render(mk('mirror'), top);
    const a = (r: typeof t, i: number, j: number) => r.data[(j * 16 + i) * 4 + 3]!;
    for (let i = 0; i < 16; i++) {
      // Row j reads world row j - 4 (between rows j - 4 and j - 3, weight ~0 on the second).
      for (let j = 0; j < 4; j++) expect(a(t, i, j)).toBe(0);
      expect(a(t, i, 5)).toBe(1);
      for (let j = 0; j < 12; j++) expect(a(c, i, j)).toBe(1);
    }
    // Mirror: row 1 reads world row -3, i.e. row 2; clamp reads row 0.
    const gAt = (r: typeof t, i: number, j: number) => r.data[(j * 16 + i) * 4]!;
    const g = await render({ ...mk('clamp'), output: 'g' }, { ...top, height: 16 });
    for (let i = 2; i < 14; i++) {
      expect(gAt(m, i, 1)).toBeCloseTo(g.data[(2 * 16 + i) * 4]! * (1 - (shift % 1)) + g.data[(2 * 16 + i + 1) * 4]! * (shift % 1), 2);
      expect(gAt(c, i, 1)).toBeCloseTo(g.data[(0 * 16 + i) * 4]! * (1 - (shift % 1)) + g.data[(0 * 16 + i + 1) * 4]! * (shift % 1), 2);
    }
  });

  test('pad: amplitude bound + 1 from amp-px, amp-x-px / amp-y-px, $param max or -max', () => {
    const b = (m: Record<string, number>) => (f: string) => m[f];
    expect(displace.pad!(b({ 'amp-px': 4.2 }), 'input', { op: 'displace' })).toBe(6);
    expect(displace.pad!(b({ 'amp-px': 2, 'amp-y-px': 9 }), 'input', { op: 'displace' })).toBe(10);
    expect(displace.pad!(b({ 'amp-px': 2 }), 'displacement', { op: 'displace' })).toBe(0);
    expect(() => Renderer.create(style({ 'amp-px': '@z' }, undefined))).toThrow();
    const ok = { ...style({ 'amp-px': '$a' }), nodes: { ...nodes({ 'amp-px': '@z', 'amp-px-max': 3 }), z: { op: 'zoom' } } };
    expect(Renderer.create(ok)).toBeDefined();
  });

  test('a $param amplitude above its max clamps to it', async () => {
    const p = Renderer.create(style({ 'amp-px': '$a' }));
    const clamped = (await p.renderWindow(W, p.params({ a: '6' }))).raster;
    const six = await render(style({ 'amp-px': 6 }), W);
    expect(Array.from(clamped.data)).toEqual(Array.from(six.data));
  });
});

describe('the kernel the op runs = the reference kernel, bit for bit', () => {
  // displace (cpu.ts) skips the boundary rule on rows whose reads stay inside the world and the
  // view, and shares the neighbour offsets between channels (those rows in WebAssembly SIMD); displaceReference reads every
  // neighbour through the boundary rule. Random inputs and displacements (some out of [0, 1], some
  // NaN), views across the world's north and south edges under every boundary rule.
  test('every boundary, amplitudes 0 to the pad, views at and away from the world edges', () => {
    const next = rng(5);
    const w = 37,
      h = 29;
    for (const boundary of ['clamp', 'transparent', 'mirror'] as const)
      for (const [ampX, ampY, pad] of [
        [0, 0, 1],
        [2.5, 4, 5],
        [5, 5, 6],
        [0.3, 3.7, 7],
      ] as const)
        for (const worldTop of [-40, 3, -2, -1000])
          for (const size of [20, 60, 4096]) {
            const sw = w + 2 * pad,
              sh = h + 2 * pad;
            const src = Float32Array.from({ length: sw * sh * 4 }, () => next());
            // The left half transparent (+0: the kernel's shortcut for four transparent
            // neighbours), with a -0 channel in every seventh pixel (not +0: no shortcut).
            for (let y = 0; y < sh; y++)
              for (let x = 0; x < sw >> 1; x++) {
                const o = (y * sw + x) * 4;
                src.fill(0, o, o + 4);
                if ((y * sw + x) % 7 === 0) src[o + 1] = -0;
              }
            const disp = Float32Array.from({ length: w * h * 4 }, () => {
              const v = next();
              return v < 0.01 ? Number.NaN : v * 1.4 - 0.2;
            });
            const p: DisplacePlan = { ampX, ampY, pad, boundary, worldTop, worldBottom: worldTop + size };
            const a = displaceKernel(src, sw, sh, disp, w, h, p).slice();
            // Its plain rows ran in WebAssembly SIMD (displace.wat) where any row is plain.
            if (worldTop === -1000) expect(displaceRowsSimd(src, sw, sh, disp, w, p, 0, 1, new Float32Array(w * h * 4))).not.toBeNull();
            const b = displaceReference(src, sw, sh, disp, w, h, p);
            let diff = 0;
            for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) diff++;
            expect({ boundary, ampX, ampY, worldTop, size, diff }).toEqual({ boundary, ampX, ampY, worldTop, size, diff: 0 });
          }
  });
});

describe('sparse inputs in the canvas arena: pixels that can read only +0 blocks (or one colour) are stored unread', () => {
  // The kernel skips output pixels whose reachable 16-pixel blocks of the input (rows j + pad +-
  // (ceil(amp) + 1), columns likewise) are all +0, or all of the colour of the first whole block
  // of one finite colour without -0 (a fill's inside: v + (v - v) f = v), where every R, G and A
  // of the displacement is finite. The reference reads every pixel: Object.is on every value,
  // with lines, dots, -0 dots (not +0: read), Infinity and NaN dots, blocks at the canvas's edges
  // and the blocks' edges, amplitudes a hair off an integer, every boundary rule at the world's
  // edge (away from it, worldTop -1000, every row is plain and the rule is never read); a NaN or
  // an infinite offset value leaves every pixel to the kernel (the same bits too).
  test('the same bits as displaceReference; the occupancy path ran', () => {
    const next = rng(23);
    let skipped = 0;
    for (const [w, h] of [
      [70, 45],
      [16, 70],
      [129, 33],
    ] as const)
      for (const [ampX, ampY, pad] of [
        [5, 5, 6],
        [0, 0, 1],
        [2.9999999999999996, 4.000000000000001, 6],
        [0.3, 7.5, 9],
      ] as const)
        for (const [boundary, worldTop] of [
          ['clamp', -1000],
          ['clamp', 3],
          ['transparent', 3],
          ['mirror', 3],
        ] as const)
          for (const [bad, fill] of [
            [0, 'none'],
            [0, 'one colour'],
            [0, 'a -0 channel'],
            [0, 'an infinite channel'],
            [Number.NaN, 'one colour'],
            [Number.POSITIVE_INFINITY, 'none'],
          ] as const) {
            const sw = w + 2 * pad,
              sh = h + 2 * pad;
            const src = acquire(sw * sh * 4, true);
            const put = (x: number, y: number, v: number) => {
              if (x < 0 || y < 0 || x >= sw || y >= sh) return;
              const o = (y * sw + x) * 4;
              for (let c = 0; c < 4; c++) src[o + c] = Object.is(v, -0) ? (c === 2 ? -0 : 0) : v * (c + 1) * 0.2;
            };
            // Filled rectangles (whole blocks of one colour: the kernel's C where that colour is
            // finite and has no -0; a second colour's blocks are not C), partly under the dots below.
            const rect = (x0: number, y0: number, rw: number, rh: number, px: readonly number[]) => {
              for (let y = Math.max(0, y0); y < Math.min(sh, y0 + rh); y++)
                for (let x = Math.max(0, x0); x < Math.min(sw, x0 + rw); x++) src.set(px, (y * sw + x) * 4);
            };
            if (fill !== 'none') {
              const c = fill === 'a -0 channel' ? -0 : fill === 'an infinite channel' ? Number.POSITIVE_INFINITY : 0.25;
              rect(Math.floor(next() * 8) - 4, Math.floor(next() * 10), 24 + Math.floor(next() * 40), 30, [0.5, c, 0.125, 0.75]);
              rect(Math.floor(next() * sw), Math.floor(next() * sh), 40, 12, [0.3, 0.2, 0.1, 0.6]);
            }
            // a line across, a diagonal, dots at the corners and the blocks' edges, -0 dots
            const y0 = Math.floor(next() * sh);
            for (let x = 0; x < sw; x += 1 + Math.floor(next() * 3)) put(x, y0, next());
            for (let t = 0; t < Math.min(sw, sh); t += 2) put(t + 3, t, next());
            for (const [x, y] of [
              [0, 0],
              [sw - 1, sh - 1],
              [sw - 1, 0],
              [0, sh - 1],
              [15, 5],
              [16, 7],
              [31, sh - 2],
              [32, 1],
              [47, 3],
            ] as const)
              put(x, y, next());
            for (let i = 0; i < 4; i++) put(Math.floor(next() * sw), Math.floor(next() * sh), -0);
            // Infinity and NaN dots: a read of them at a zero weight still gives NaN (inf x 0), so
            // a pixel that reads one at the edge of its reach is not +0
            for (let i = 0; i < 6; i++) put(Math.floor(next() * sw), Math.floor(next() * sh), i & 1 ? Number.POSITIVE_INFINITY : Number.NaN);
            const disp = acquire(w * h * 4, false);
            for (let i = 0; i < disp.length; i++) disp[i] = next() * 1.6 - 0.3;
            if (bad !== 0) disp[Math.floor(next() * w * h) * 4 + (next() < 0.5 ? 0 : 3)] = bad;
            const p: DisplacePlan = { ampX, ampY, pad, boundary, worldTop, worldBottom: worldTop + 4096 };
            const calls = displaceOccupancyCalls();
            const a = displaceKernel(src, sw, sh, disp, w, h, p);
            // Away from the world's edges every row is plain: finite offsets take the occupancy path.
            if (worldTop === -1000 && bad === 0 && displaceOccupancyCalls() === calls) skipped++;
            const b = displaceReference(src, sw, sh, disp, w, h, p);
            let diff = 0;
            for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) diff++;
            expect({ w, ampX, ampY, boundary, worldTop, bad, fill, diff }).toEqual({ w, ampX, ampY, boundary, worldTop, bad, fill, diff: 0 });
            for (const r of [src, disp, a, b]) release(r);
          }
    expect(skipped).toBe(0);
  });
});

describe('the SIMD rows in bands (the module keeps a band of rows, not the canvas)', () => {
  test('a canvas of three bands: the same bits as the reference, NaN offsets included; the memory stays within a band', () => {
    const w = 600,
      h = Math.ceil((2.5 * DISPLACE_BAND_PIXELS) / w);
    const p: DisplacePlan = { ampX: 3.5, ampY: 6, pad: 7, boundary: 'clamp', worldTop: -1000, worldBottom: 100000 };
    const sw = w + 2 * p.pad,
      sh = h + 2 * p.pad;
    const src = new Float32Array(sw * sh * 4);
    // A cheap hash (lowbias32; the canvas has ~11 M floats): a fifth of the pixels transparent +0.
    const hash = (x: number) => {
      x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
      x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
      return ((x ^ (x >>> 16)) >>> 0) / 2 ** 32;
    };
    for (let i = 0; i < src.length; i++) src[i] = (i >> 2) % 5 === 0 ? 0 : hash(i);
    const disp = new Float32Array(w * h * 4);
    for (let i = 0; i < disp.length; i++) disp[i] = i % 4093 === 0 ? Number.NaN : hash(i + 0x9e3779b9) * 1.4 - 0.2;
    // Offsets reach both ends of every band: the first rows of a band read the lowest input row it holds.
    let lowest = 0;
    for (let i = 0; i < w; i++) if (Math.floor(p.pad + Math.max(-p.ampY, (disp[i * 4 + 1]! - 0.5 * disp[i * 4 + 3]!) * 2 * p.ampY)) === 1) lowest++;
    expect(lowest).toBeGreaterThan(10);
    const a = displaceKernel(src, sw, sh, disp, w, h, p).slice();
    const b = displaceReference(src, sw, sh, disp, w, h, p);
    let diff = 0;
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) diff++;
    expect(diff).toBe(0);
    // Output rows and offsets of one band (~36 bytes a pixel), its input rows (a band and the
    // amplitude's reach), in 64 KiB pages.
    const band = Math.floor(DISPLACE_BAND_PIXELS / w);
    expect(displaceMemoryBytes()).toBeLessThanOrEqual(band * w * 36 + (band + 2 * p.ampY + 3) * sw * 16 + 65536);
    // One call over the canvas held the whole input, the offsets and the output: ~3x that.
    expect(displaceMemoryBytes()).toBeLessThan((sw * sh * 16 + w * h * 36) / 2);
  });
});

describe('an input marked transparent +0 everywhere', () => {
  // displaceUniform answers without reading pixels: the reference (displaceReference, every read
  // through the boundary rule) gives +0 at every pixel for finite offsets, compared with Object.is;
  // a NaN or infinite displacement value, or a mark other than +0, leaves it to the kernel.
  test('+0 output (marked) equal to the reference under every boundary, at and away from the world edges; NaN / Infinity and non-zero marks decline', () => {
    const next = rng(17);
    // 40 x 30: the displacement is pooled in the canvas arena where asked (its test in SIMD).
    const w = 40,
      h = 30,
      pad = 6;
    const sw = w + 2 * pad,
      sh = h + 2 * pad;
    const inArena = (a: Float32Array) => {
      const b = acquire(a.length, false);
      b.set(a);
      return b;
    };
    for (const arena of [false, true])
      for (const boundary of ['clamp', 'transparent', 'mirror'] as const)
        for (const worldTop of [-1000, 2, -5]) {
          const src = new Float32Array(sw * sh * 4);
          markUniform(src, [0, 0, 0, 0]);
          const plain = Float32Array.from({ length: w * h * 4 }, () => next() * 3e3 - 1e3);
          const disp = arena ? inArena(plain) : plain;
          const p: DisplacePlan = { ampX: 5, ampY: 4.5, pad, boundary, worldTop, worldBottom: worldTop + 30 };
          const a = displaceUniform(src, disp, w, h);
          expect(a).toBeDefined();
          const b = displaceReference(src, sw, sh, disp, w, h, p);
          let diff = 0;
          for (let i = 0; i < b.length; i++) if (!Object.is(a![i], b[i])) diff++;
          expect({ boundary, worldTop, diff, marked: Array.from(uniformOf(a!) ?? []) }).toEqual({ boundary, worldTop, diff: 0, marked: [0, 0, 0, 0] });
          for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
            for (const c of [0, 1, 3]) {
              const d2 = arena ? inArena(disp) : disp.slice();
              d2[(7 * w + 5) * 4 + c] = bad;
              expect(displaceUniform(src, d2, w, h)).toBeUndefined();
              if (arena) release(d2);
            }
          // The arena's canvases took the SIMD test.
          expect(displaceFiniteSimd(disp)).toBe(arena ? true : undefined);
          if (arena) release(disp);
        }
    const one = new Float32Array(sw * sh * 4).fill(0.5);
    markUniform(one, [0.5, 0.5, 0.5, 0.5]);
    expect(displaceUniform(one, new Float32Array(w * h * 4), w, h)).toBeUndefined();
    const negZero = new Float32Array(sw * sh * 4).fill(-0);
    markUniform(negZero, [0, 0, -0, 0]);
    expect(displaceUniform(negZero, new Float32Array(w * h * 4), w, h)).toBeUndefined();
  });
});

gpuDescribe('CPU/GPU parity', () => {
  const T = testWindow(64);
  /**
   * Stated tolerance 2e-3: the GPU holds the displacement in rgba16float (rounding <= 2.4e-4 of a
   * unit), so offsets differ by up to 2.4e-4 x 2 amp px and reads of a blurred input by that times
   * its gradient. Measured: <= 8.5e-4.
   */
  test('noise-displaced blurred fills: amp 4 / clamp, amp-x 6 amp-y 2 / mirror, transparent', async () => {
    await checkParity('displace amp 4', style({ 'amp-px': 4 }, undefined, 51, T), T, 2e-3);
    await checkParity('displace xy mirror', style({ 'amp-px': 1, 'amp-x-px': 6, 'amp-y-px': 2, boundary: 'mirror' }, undefined, 52, T), T, 2e-3);
    await checkParity('displace $param', style({ 'amp-px': '$a', boundary: 'transparent' }, undefined, 53, T), T, 2e-3, { a: '5' });
  });
});

describe('seam invariant: 2x2 tile mosaic = window render', () => {
  const block: Window = { z: 5, x0: 12 * 128, y0: 9 * 128, width: 256, height: 256, tileSize: 128 };
  const seamStyle = (amp: Record<string, unknown>) => {
    const s = style(amp, undefined, 91, block) as { sources: { src: { data: object } } };
    s.sources.src.data = randomFeatures(91, block, { polygons: 16 }, 8);
    return s;
  };
  test('noise -> displace of fills, amp 6 (clamp) and amp-x 8 / amp-y 3 (mirror)', async () => {
    expectSeamless(await seam(seamStyle({ 'amp-px': 6 }), 5, 12, 9), 0.3);
    expectSeamless(await seam(seamStyle({ 'amp-px': 1, 'amp-x-px': 8, 'amp-y-px': 3, boundary: 'mirror' }), 5, 12, 9), 0.3);
  });

  gpuTest('noise -> displace on the GPU (64 px tiles)', async () => {
    const small: Window = { z: 5, x0: 12 * 64, y0: 9 * 64, width: 128, height: 128, tileSize: 64 };
    const s = style({ 'amp-px': 5 }, undefined, 92, small) as { sources: { src: { data: object } } };
    s.sources.src.data = randomFeatures(92, small, { polygons: 12 }, 6);
    expectSeamless(await seam(s, 5, 12, 9, 64, { backend: GPU! }), 0.3);
  });
});

describe('displace bounds', () => {
  test('offsets clamp to the amplitude: a displacement brighter than its alpha reads no further than amp', async () => {
    // An invalid premultiplied colour fed to the kernel directly: R = 3, A = 1 would ask for 5 amp.
    const { displace: run } = await import('./cpu.js');
    const sw = 12,
      pad = 3;
    const src = new Float32Array(sw * sw * 4);
    for (let i = 0; i < sw * sw; i++) src.set([i / 200, 0, 0, 1], i * 4);
    const disp = new Float32Array(6 * 6 * 4);
    for (let i = 0; i < 36; i++) disp.set([3, 0.5, 0, 1], i * 4);
    const out = run(src, sw, sw, disp, 6, 6, { ampX: 2, ampY: 2, pad, boundary: 'clamp', worldTop: -1000, worldBottom: 1000 });
    for (let j = 0; j < 6; j++) for (let i = 0; i < 6; i++) expect(out[(j * 6 + i) * 4]).toBeCloseTo(((j + pad) * sw + i + pad + 2) / 200, 6);
  });
});
