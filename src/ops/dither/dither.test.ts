// dither against textbook versions written out here: the 4x4 Bayer matrix (Bayer 1973) as
// thresholds (i + 0.5) / 16, Floyd-Steinberg's 7/16, 3/16, 5/16, 1/16 error weights in raster
// order, nearest entries by squared distance in sRGB or in d3-color's CIELAB; the world-anchored
// ordered method's seams (tile mosaic = window render); CPU/GPU parity.
import { lab as d3lab, rgb as d3rgb } from 'd3-color';
import { floydSteinberg, ordered } from './cpu.js';
import { BAYER4, resolvePalette, type Palette, type Space } from './plan.js';
import { blueNoise64 } from './blue-noise.js';
import { Renderer, tileWindow, type Raster, type Window } from '../../index.js';
import type { OpContext } from '../types.js';
import { parseHexColor } from '../../params/index.js';
import { premultipliedPixels, rng } from '../../../tests/helpers/random.js';
import { checkParity, GPU, gpuDescribe, renderOn, testWindow } from '../../../tests/gpu/harness.js';
import { CpuBackend } from '../../index.js';
import { rasterInput } from '../../../tests/helpers/raster-input.js';

const BAYER = [
  [0, 8, 2, 10],
  [12, 4, 14, 6],
  [3, 11, 1, 9],
  [15, 7, 13, 5],
];
const PALETTE = ['#000000', '#ffffff', '#e41a1c', '#377eb8', '#4daf4a', '#ffff33', '#984ea3', '#a65628'];

function palette(hexes: string[], space: Space): Palette {
  const ctx = { id: 't', node: { op: 'dither', palette: hexes, space }, resolve: (v: unknown) => parseHexColor(v as string)! } as unknown as OpContext;
  return resolvePalette(ctx);
}

/** The reference's nearest entry: squared distance in sRGB, or in d3-color's Lab. */
function nearestRef(hexes: string[], space: Space, rgb: number[]): number {
  const coords = (c: number[]) => {
    if (space === 'rgb') return c;
    const l = d3lab(d3rgb(c[0]! * 255, c[1]! * 255, c[2]! * 255));
    return [l.l, l.a, l.b];
  };
  const p = coords(rgb);
  let best = 0;
  let bestD = Infinity;
  hexes.forEach((h, i) => {
    const q = coords(parseHexColor(h)!.slice(0, 3));
    const d = (p[0]! - q[0]!) ** 2 + (p[1]! - q[1]!) ** 2 + (p[2]! - q[2]!) ** 2;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  });
  return best;
}

/** A w x h image of random straight colours (a smooth field plus noise), some pixels translucent or transparent. */
function image(w: number, h: number, seed: number): { src: Float32Array; straight: number[][]; alpha: number[] } {
  const r = rng(seed);
  return premultipliedPixels(w * h, (i) => {
    const x = i % w;
    const y = (i - x) / w;
    const s = [x / w, y / h, 0.5 + 0.5 * Math.sin(x * 0.3 + y * 0.2)].map((v) => Math.min(1, Math.max(0, v + (r() - 0.5) * 0.1)));
    return { s, a: r() < 0.05 ? 0 : r() < 0.7 ? 1 : r() };
  });
}

const q8 = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 255) / 255;
const clamp = (v: number) => Math.min(1, Math.max(0, v));

/** Per pixel: the palette index the output shows, -1 for transparent (checks colour x alpha too). */
function indices(dst: Float32Array, alpha: number[], hexes: string[]): number[] {
  const cols = hexes.map((h) => parseHexColor(h)!);
  return alpha.map((a, i) => {
    if (!(a > 0)) return dst[i * 4 + 3] === 0 ? -1 : -2;
    if (Math.abs(dst[i * 4 + 3]! - a) > 1e-7) return -3;
    return cols.findIndex((c) => [0, 1, 2].every((k) => Math.abs(dst[i * 4 + k]! - c[k]! * a) < 1e-6));
  });
}

describe('ordered dither against the Bayer definition', () => {
  const W = 37,
    H = 29;
  const img = image(W, H, 3);
  for (const space of ['rgb', 'lab'] as const) {
    for (const [amount, x0, y0] of [
      [0.5, 0, 0],
      [1, -3, 5],
      [0, 7, 2],
      [0.3, 4097, -2],
    ] as const) {
      test(`${space}, amount ${amount}, canvas at world (${x0}, ${y0})`, () => {
        const dst = new Float32Array(img.src.length);
        ordered(img.src, dst, W, H, x0, y0, palette(PALETTE, space), amount, BAYER4);
        const got = indices(dst, img.alpha, PALETTE);
        const want = img.straight.map((s, i) => {
          if (!(img.alpha[i]! > 0)) return -1;
          const X = x0 + (i % W),
            Y = y0 + Math.floor(i / W);
          const m = (BAYER[((Y % 4) + 4) % 4]![((X % 4) + 4) % 4]! + 0.5) / 16;
          return nearestRef(
            PALETTE,
            space,
            s.map((v) => clamp(q8(v) + amount * (m - 0.5))),
          );
        });
        expect(got).toEqual(want);
      });
    }
  }

  test('black / white at amount 1: a 4x4 block of grey k/16 + 1/32 shows exactly k white pixels', () => {
    const bw = palette(['#000000', '#ffffff'], 'rgb');
    for (let k = 0; k <= 16; k += 3) {
      // An 8-bit grey between the thresholds (k - 1/2)/16 and (k + 1/2)/16.
      const g = Math.round(((k + 0.5) / 16 - 0.5 / 16) * 255) / 255;
      const src = new Float32Array(16 * 4).map((_, i) => (i % 4 === 3 ? 1 : g));
      const dst = new Float32Array(src.length);
      ordered(src, dst, 4, 4, 0, 0, bw, 1, BAYER4);
      const whites = Array.from({ length: 16 }, (_, i) => dst[i * 4]!).filter((v) => v === 1).length;
      expect({ k, whites }).toEqual({ k, whites: Math.min(16, k) });
    }
  });
});

describe('blue-noise threshold matrix', () => {
  const m = blueNoise64();

  test('is a permutation of 0..4095 and the same on every call', () => {
    expect(m.size).toBe(64);
    expect([...m.ranks].sort((a, b) => a - b)).toEqual(Array.from({ length: 4096 }, (_, i) => i));
    expect(blueNoise64()).toBe(m);
  });

  test('every threshold level is blue: little energy at low frequencies, none clumped', () => {
    // The power spectrum of the binary pattern rank < k (DFT over the 64 x 64 torus), averaged over
    // rings of radial frequency: a blue-noise pattern has a low-frequency ring well below the
    // high-frequency one (white noise has them equal).
    for (const k of [410, 1024, 2048, 3072]) {
      const bits = Array.from(m.ranks, (r) => (r < k ? 1 : 0) - k / 4096);
      const ring = (lo: number, hi: number) => {
        let sum = 0,
          count = 0;
        for (let v = -32; v < 32; v++) {
          for (let u = -32; u < 32; u++) {
            const f = Math.hypot(u, v);
            if (f < lo || f >= hi || f === 0) continue;
            let re = 0,
              im = 0;
            for (let i = 0; i < 4096; i++) {
              const a = (-2 * Math.PI * (u * (i % 64) + v * Math.floor(i / 64))) / 64;
              re += bits[i]! * Math.cos(a);
              im += bits[i]! * Math.sin(a);
            }
            sum += re * re + im * im;
            count++;
          }
        }
        return sum / count;
      };
      expect({ k, lowOverHigh: ring(1, 4) / ring(20, 24) < 0.1 }).toEqual({ k, lowOverHigh: true });
    }
  });

  test('the blue-noise method against its definition (world-anchored 64 x 64 ranks)', () => {
    const W = 37,
      H = 29;
    const img = image(W, H, 4);
    const dst = new Float32Array(img.src.length);
    const [x0, y0, amount] = [-70, 130, 0.7];
    ordered(img.src, dst, W, H, x0, y0, palette(PALETTE, 'lab'), amount, m);
    const want = img.straight.map((s, i) => {
      if (!(img.alpha[i]! > 0)) return -1;
      const X = x0 + (i % W),
        Y = y0 + Math.floor(i / W);
      const t = (m.ranks[(((Y % 64) + 64) % 64) * 64 + (((X % 64) + 64) % 64)]! + 0.5) / 4096;
      return nearestRef(
        PALETTE,
        'lab',
        s.map((v) => clamp(q8(v) + amount * (t - 0.5))),
      );
    });
    expect(indices(dst, img.alpha, PALETTE)).toEqual(want);
  });
});

describe('Floyd-Steinberg against the textbook algorithm', () => {
  const W = 41,
    H = 23;
  const img = image(W, H, 8);
  function reference(hexes: string[], space: Space): number[] {
    const cols = hexes.map((h) => parseHexColor(h)!);
    const err = Array.from({ length: H }, () => Array.from({ length: W }, () => [0, 0, 0]));
    const out: number[] = [];
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const i = y * W + x;
        if (!(img.alpha[i]! > 0)) {
          out.push(-1);
          continue;
        }
        const v = img.straight[i]!.map((s, c) => clamp(q8(s) + err[y]![x]![c]!));
        const k = nearestRef(hexes, space, v);
        out.push(k);
        const e = v.map((vc, c) => vc - cols[k]![c]!);
        const spread = (dx: number, dy: number, w: number) => {
          const row = err[y + dy];
          if (row && x + dx >= 0 && x + dx < W) for (let c = 0; c < 3; c++) row[x + dx]![c]! += e[c]! * w;
        };
        spread(1, 0, 7 / 16);
        spread(-1, 1, 3 / 16);
        spread(0, 1, 5 / 16);
        spread(1, 1, 1 / 16);
      }
    }
    return out;
  }
  for (const space of ['rgb', 'lab'] as const) {
    for (const hexes of [PALETTE, ['#000000', '#ffffff'], ['#1b9e77']]) {
      test(`${space}, ${hexes.length} colours`, () => {
        const dst = new Float32Array(img.src.length);
        floydSteinberg(img.src, dst, W, H, palette(hexes, space));
        expect(indices(dst, img.alpha, hexes)).toEqual(reference(hexes, space));
      });
    }
  }

  test('error diffusion keeps the mean: a 30% grey becomes 30% white pixels', () => {
    const n = 64;
    const g = Math.round(0.3 * 255) / 255;
    const src = new Float32Array(n * n * 4).map((_, i) => (i % 4 === 3 ? 1 : g));
    const dst = new Float32Array(src.length);
    floydSteinberg(src, dst, n, n, palette(['#000000', '#ffffff'], 'rgb'));
    let white = 0;
    for (let i = 0; i < n * n; i++) white += dst[i * 4]!;
    expect(Math.abs(white / (n * n) - g)).toBeLessThan(0.005);
  });
});

describe('dither op', () => {
  const style = (method: string, extra: Record<string, unknown> = {}) => ({
    output: 'out',
    params: { ink: { type: 'color', default: '#000000' } },
    nodes: {
      bg: { op: 'solid', color: '#8080807f' },
      out: { op: 'dither', input: '@bg', palette: ['$ink', '#ffffff'], method, space: 'rgb', ...extra },
    },
  });

  test('$param palette entries resolve; alpha is preserved', async () => {
    const r = Renderer.create(style('ordered', { amount: 1 }));
    const { raster } = await r.renderWindow(tileWindow({ z: 2, x: 1, y: 1 }, 64), r.params({ ink: '#ff0000' }));
    const a = 0x7f / 255;
    const seen = new Set<string>();
    for (let i = 0; i < raster.data.length; i += 4) {
      expect(raster.data[i + 3]).toBeCloseTo(a, 6);
      seen.add([0, 1, 2].map((c) => Math.round(raster.data[i + c]! / a)).join());
    }
    expect([...seen].sort()).toEqual(['1,0,0', '1,1,1']);
  });

  test.each(['ordered', 'blue-noise'])('the %s pattern is seamless: a mosaic of tiles equals the window render', async (method) => {
    const win: Window = { z: 3, x0: 4 * 64, y0: 2 * 64, width: 128, height: 128, tileSize: 64 };
    const input = rasterInput(5, win, { blur: 4 });
    const r = Renderer.create({
      output: 'out',
      sources: input.sources,
      nodes: { ...input.nodes, out: { op: 'dither', input: '@in', palette: PALETTE, method, amount: 0.6 } },
    });
    const whole = (await r.renderWindow(win)).raster;
    let differ = 0;
    for (const [tx, ty] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ] as const) {
      const tile: Raster = (await r.renderWindow(tileWindow({ z: 3, x: 4 + tx, y: 2 + ty }, 64))).raster;
      for (let y = 0; y < 64; y++) {
        for (let x = 0; x < 64; x++) {
          const i = (y * 64 + x) * 4;
          const j = ((ty * 64 + y) * 128 + tx * 64 + x) * 4;
          if ([0, 1, 2, 3].some((c) => Math.abs(tile.data[i + c]! - whole.data[j + c]!) > 1 / 255)) differ++;
        }
      }
    }
    expect(differ).toBe(0);
  });
});

gpuDescribe('CPU/GPU parity', () => {
  const W = testWindow(64);
  // Flat inputs (exact 8-bit colours, alpha 0 or 1): both backends read the same 8-bit colours,
  // so every pixel takes the same entry. Floyd-Steinberg runs the CPU kernel in both.
  for (const [seed, method, space, amount] of [
    [1, 'ordered', 'lab', 0.5],
    [2, 'ordered', 'rgb', 1],
    [5, 'blue-noise', 'lab', 0.8],
    [3, 'floyd-steinberg', 'lab', 0],
    [4, 'floyd-steinberg', 'rgb', 0],
  ] as const) {
    test(`seed ${seed}: ${method}, ${space}, flat input`, async () => {
      const input = rasterInput(seed, W, { flat: true });
      const style = {
        output: 'out',
        sources: input.sources,
        nodes: { ...input.nodes, out: { op: 'dither', input: '@in', palette: PALETTE, method, space, amount } },
      };
      await checkParity(`dither ${seed}`, style, W);
    });
  }

  // Under a blur the dither's canvas is the window grown by the blur's pad: the GPU pass must read
  // its input through the cropped view and anchor the matrix at the grown canvas's world origin.
  test.each(['ordered', 'blue-noise'])('%s under a blur (canvas margin)', async (method) => {
    const input = rasterInput(8, W, { flat: true });
    const style = {
      output: 'out',
      sources: input.sources,
      nodes: { ...input.nodes, d: { op: 'dither', input: '@in', palette: PALETTE, method, amount: 0.7 }, out: { op: 'blur', input: '@d', sigma: 1.5 } },
    };
    await checkParity(`dither ${method} under a blur`, style, W);
  });

  // Gradient inputs (a blur): the GPU holds them in f16, so a pixel within f16 rounding of an
  // 8-bit half-step reads the neighbouring 8-bit value. Ordered: such a pixel may take another
  // entry (measured: 1 to 4 of 16384 pixels), within the golden tolerance of 0.1% of pixels.
  // Floyd-Steinberg spreads each such difference through the error it diffuses, so the two
  // backends agree in local mean colour (8 x 8 blocks), not pixel for pixel.
  const blurred = (seed: number, method: string) => {
    const input = rasterInput(seed, W, { blur: 3 });
    return { output: 'out', sources: input.sources, nodes: { ...input.nodes, out: { op: 'dither', input: '@in', palette: PALETTE, method, space: 'lab' } } };
  };
  const both = async (style: object) => [(await renderOn(new CpuBackend(), style, W)).raster.data, (await renderOn(GPU!, style, W)).raster.data] as const;

  test.each(['ordered', 'blue-noise'])('%s on a gradient input: at most 0.1%% of pixels take another entry', async (method) => {
    const [c, g] = await both(blurred(6, method));
    let differ = 0;
    for (let i = 0; i < c.length; i += 4) if ([0, 1, 2, 3].some((k) => Math.abs(c[i + k]! - g[i + k]!) > 2 / 255)) differ++;
    expect(differ).toBeLessThanOrEqual((c.length / 4) * 0.001);
  });

  test('floyd-steinberg on a gradient input: 8 x 8 block means agree within 0.05', async () => {
    const [c, g] = await both(blurred(7, 'floyd-steinberg'));
    const n = W.width;
    let worst = 0;
    for (let by = 0; by < n; by += 8) {
      for (let bx = 0; bx < n; bx += 8) {
        for (let k = 0; k < 4; k++) {
          let sc = 0,
            sg = 0;
          for (let y = by; y < by + 8; y++)
            for (let x = bx; x < bx + 8; x++) {
              sc += c[(y * n + x) * 4 + k]!;
              sg += g[(y * n + x) * 4 + k]!;
            }
          worst = Math.max(worst, Math.abs(sc - sg) / 64);
        }
      }
    }
    expect(worst).toBeLessThan(0.05);
  });
});
