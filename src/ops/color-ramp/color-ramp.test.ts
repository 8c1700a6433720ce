// color-ramp: colour spaces against d3-interpolate (HSV against a hand-written reference), the baked
// tables against exact interpolation, and the op's stops, params, clamping, opacity, raster input
// and ramp expression.
import { interpolateHcl, interpolateHsl, interpolateLab, interpolateRgb } from 'd3-interpolate';
import { color as d3color } from 'd3-color';
import { interpolateColor, type ColorSpace } from '../../backends/cpu/color.js';
import { compileExpr } from '../../expr/index.js';
import { colorRamp } from './index.js';
import { makeSampler, resolveStops, stopTables, SEGMENT_SIZE, type Stop } from './plan.js';
import { rampField, rampFieldOpaque, rampFieldReference } from './cpu.js';
import { RAMP_SPAN_PIXELS, RAMP_TABLE_MAX_BYTES, rampFieldSimd, rampMemoryBytes } from './simd.js';
import type { OpContext } from '../types.js';
import type { RGBA, Raster, ScalarField, ScalarValue } from '../../types.js';
import { rng } from '../../../tests/helpers/random.js';
import { rampOut } from '../../../tests/helpers/scalars.js';
import { gpuTest, checkParity, PARITY_WINDOW, randomSource, randomRasterNodes, rasterSources, randomColor, RASTER_TOL } from '../../../tests/gpu/harness.js';
import sharp from 'sharp';
import { decodeImage } from '../../hosts/node/image.js';
import { gpuDescribe, GPU } from '../../../tests/gpu/harness.js';
import { CpuBackend, Renderer } from '../../index.js';
import { ADDON, announceAddon, FAST_KERNELS, useNative } from '../../../tests/helpers/native.js';

announceAddon('src/ops/color-ramp/color-ramp.test.ts');

const hex = (c: number[]) =>
  '#' +
  c
    .map((v) =>
      Math.round(v * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('');
const rgbaOf = (h: string): RGBA => {
  const n = (i: number) => parseInt(h.slice(i, i + 2), 16) / 255;
  return [n(1), n(3), n(5), h.length > 7 ? n(7) : 1];
};

// Stop pairs: random colours, greys (undefined hue), black and white (undefined saturation / chroma),
// hues across 0/360, translucent and fully transparent ends.
const r = rng(7);
const randomHex = () => hex([r(), r(), r()].map((v) => Math.round(v * 255) / 255));
const PAIRS: [string, string][] = [
  ['#ff0000', '#0000ff'],
  ['#ff0000', '#ff00ff'],
  ['#00ff00', '#ff0040'],
  ['#808080', '#ff8800'],
  ['#000000', '#3366cc'],
  ['#ffffff', '#3366cc'],
  ['#000000', '#ffffff'],
  ['#333333', '#cccccc'],
  ['#ffffff', '#000000'],
  ['#2c7bb600', '#2c7bb6'],
  ['#ff000000', '#0000ff'],
  ['#ffcc0080', '#00336699'],
  ['#7f7f7f', '#000000'],
  ['#ffff00', '#0000ff'],
  ...Array.from({ length: 16 }, () => [randomHex(), randomHex()] as [string, string]),
];
const TS = [...Array.from({ length: 17 }, (_, i) => i / 16), ...Array.from({ length: 8 }, () => r())];

const D3: Record<Exclude<ColorSpace, 'hsv'>, (a: string, b: string) => (t: number) => string> = {
  rgb: interpolateRgb,
  hsl: interpolateHsl,
  hcl: interpolateHcl,
  lab: interpolateLab,
};

describe('colour spaces against d3-interpolate', () => {
  for (const space of Object.keys(D3) as (keyof typeof D3)[]) {
    test(space, () => {
      for (const [a, b] of PAIRS) {
        const f = D3[space](a, b);
        for (const t of TS) {
          // d3 returns a CSS string with channels rounded to integers (NaN -> 0), alpha unrounded.
          const expected = d3color(f(t))!.rgb();
          const got = interpolateColor(space, rgbaOf(a), rgbaOf(b), t);
          const where = `${space} ${a} -> ${b} at ${t}`;
          for (const [k, v] of [expected.r, expected.g, expected.b].entries()) {
            if (Math.abs(got[k]! * 255 - v) > 0.5 + 1e-6) throw new Error(`${where}: channel ${k} is ${got[k]! * 255}, d3 says ${v}`);
          }
          expect([where, got[3]]).toEqual([where, expect.closeTo(expected.opacity, 9)]);
        }
      }
    });
  }
});

// HSV, written from the textbook definition (sector by sector), with d3's undefined-hue rules.
function toHsv([R, G, B]: number[]): number[] {
  const max = Math.max(R!, G!, B!),
    min = Math.min(R!, G!, B!),
    d = max - min;
  let h = NaN;
  if (d > 0) {
    if (max === R) h = 60 * (((G! - B!) / d + 6) % 6);
    else if (max === G) h = 60 * ((B! - R!) / d + 2);
    else h = 60 * ((R! - G!) / d + 4);
  }
  return [h, max === 0 ? NaN : d / max, max];
}
function fromHsv(h: number, s: number, v: number): number[] {
  if (Number.isNaN(h) || Number.isNaN(s)) return [v, v, v];
  h = ((h % 360) + 360) % 360;
  const i = Math.floor(h / 60),
    f = h / 60 - i;
  const p = v * (1 - s),
    q = v * (1 - s * f),
    u = v * (1 - s * (1 - f));
  return [
    [v, u, p],
    [q, v, p],
    [p, v, u],
    [p, q, v],
    [u, p, v],
    [v, p, q],
  ][i]!;
}
function hsvReference(a: RGBA, b: RGBA, t: number): number[] {
  const A = a[3] > 0 ? toHsv(a) : [NaN, NaN, NaN];
  const B = b[3] > 0 ? toHsv(b) : [NaN, NaN, NaN];
  const lerp = (x: number, y: number) => (Number.isNaN(x) ? y : Number.isNaN(y) ? x : x + t * (y - x));
  let dh = B[0]! - A[0]!;
  if (dh > 180) dh -= 360;
  if (dh < -180) dh += 360;
  const h = Number.isNaN(A[0]!) ? B[0]! : Number.isNaN(B[0]!) ? A[0]! : A[0]! + t * dh;
  const rgb = fromHsv(h, lerp(A[1]!, B[1]!), lerp(A[2]!, B[2]!)).map((x) => (Number.isNaN(x) ? 0 : x));
  return [...rgb, a[3] + t * (b[3] - a[3])];
}

test('hsv against a hand-written reference', () => {
  for (const [a, b] of PAIRS) {
    for (const t of TS) {
      const got = interpolateColor('hsv', rgbaOf(a), rgbaOf(b), t);
      const ref = hsvReference(rgbaOf(a), rgbaOf(b), t);
      for (let k = 0; k < 4; k++) expect([a, b, t, k, got[k]]).toEqual([a, b, t, k, expect.closeTo(ref[k]!, 9)]);
    }
  }
  // Red to blue takes the short way, through magenta.
  expect(interpolateColor('hsv', [1, 0, 0, 1], [0, 0, 1, 1], 0.5).map((v) => +v.toFixed(9))).toEqual([1, 0, 1, 1]);
});

describe('baked tables', () => {
  test(`${SEGMENT_SIZE}-entry segment tables stay within 0.5/255 of exact interpolation`, () => {
    for (const space of ['rgb', 'hsl', 'hsv', 'hcl', 'lab'] as ColorSpace[]) {
      for (const [a, b] of PAIRS) {
        const sampler = makeSampler(
          stopTables(
            [
              { value: -2, color: rgbaOf(a) },
              { value: 3, color: rgbaOf(b) },
            ],
            space,
          ),
        );
        const out = new Float64Array(4);
        for (let i = 0; i <= 400; i++) {
          const t = i / 400 + (i < 400 ? r() / 400 : 0);
          sampler(-2 + 5 * t, out);
          const exact = interpolateColor(space, rgbaOf(a), rgbaOf(b), t);
          for (let k = 0; k < 4; k++) if (Math.abs(out[k]! - exact[k]!) > 0.5 / 255) throw new Error(`${space} ${a}->${b} t=${t}: ${out[k]} vs ${exact[k]}`);
        }
      }
    }
  });
});

// --- The op, with a minimal context ---------------------------------------------------------------
interface Opts {
  params?: Record<string, ScalarValue>;
  zoom?: number;
}
function run(node: Record<string, unknown>, input: ScalarField | Raster, o: Opts = {}): Float32Array {
  const spec: Record<string, unknown> = {
    op: 'color-ramp',
    field: '@f',
    ...node,
  };
  const resolve = (v: unknown): ScalarValue => {
    if (typeof v === 'string' && v.startsWith('$')) return o.params![v.slice(1)]!;
    if (typeof v === 'string') return rgbaOf(v);
    return v as number;
  };
  const ramp = spec['ramp-expr'] === undefined ? undefined : compileExpr(spec['ramp-expr'], 'ramp', 'ramp-expr');
  const ctx = {
    id: 'ramp',
    node: spec,
    zoom: o.zoom ?? 3,
    input: (() => input) as OpContext['input'],
    num: (f: string) => (spec[f] === undefined ? 1 : (resolve(spec[f]) as number)),
    resolve,
    expr: (f: string) => (f === 'ramp-expr' ? ramp : undefined),
  } as unknown as OpContext;
  return (colorRamp.cpu!(ctx) as Raster).data;
}
const field = (values: number[]): ScalarField => ({
  kind: 'scalar-field',
  width: values.length,
  height: 1,
  data: Float32Array.from(values),
});
const pixel = (d: Float32Array, i: number) => Array.from(d.slice(i * 4, i * 4 + 4));
const straightPx = (d: Float32Array, i: number) => {
  const [r, g, b, a] = pixel(d, i) as RGBA;
  return a > 0 ? [r / a, g / a, b / a, a] : [0, 0, 0, 0];
};

describe('color-ramp op', () => {
  test('stops are sorted per evaluation, resolve $params, and clamp outside the range', () => {
    const stops = [
      { value: '$hi', color: '$top' },
      { value: 0, color: '#000000' },
    ];
    const d = run({ stops }, field([-5, 0, 5, 10, 20, NaN]), {
      params: { hi: 10, top: [1, 0, 0, 1] },
    });
    expect(pixel(d, 0)).toEqual([0, 0, 0, 1]);
    expect(pixel(d, 1)).toEqual([0, 0, 0, 1]);
    expect(pixel(d, 2).map((v) => +v.toFixed(6))).toEqual([0.5, 0, 0, 1]);
    expect(pixel(d, 3)).toEqual([1, 0, 0, 1]);
    expect(pixel(d, 4)).toEqual([1, 0, 0, 1]);
    expect(pixel(d, 5)).toEqual([0, 0, 0, 0]); // NaN samples are transparent
    // A param that moves a stop below the others re-sorts the ramp.
    const moved = run({ stops }, field([-5, 0, 5]), {
      params: { hi: -10, top: [1, 0, 0, 1] },
    });
    expect(pixel(moved, 0).map((v) => +v.toFixed(6))).toEqual([0.5, 0, 0, 1]);
    expect(pixel(moved, 2)).toEqual([0, 0, 0, 1]);
  });

  test('equal stop values make a hard step (stable order)', () => {
    const stops = [
      { value: 0, color: '#000000' },
      { value: 1, color: '#0000ff' },
      { value: 1, color: '#ff0000' },
      { value: 2, color: '#ffffff' },
    ];
    const d = run({ stops }, field([0.999, 1, 1.0001]));
    expect(straightPx(d, 0)[2]).toBeGreaterThan(0.99);
    expect(straightPx(d, 1).map((v) => +v.toFixed(5))).toEqual([1, 0, 0, 1]);
    expect(straightPx(d, 2)[0]).toBeCloseTo(1, 3);
    expect(
      resolveStops({
        id: 'x',
        node: { op: 'color-ramp', stops },
        resolve: (v) => (typeof v === 'string' ? rgbaOf(v) : (v as number)),
      }).map((s) => s.color[0]),
    ).toEqual([0, 0, 1, 1]);
  });

  test('space, opacity and premultiplied output', () => {
    const stops = [
      { value: 0, color: '#ff0000' },
      { value: 1, color: '#0000ff80' },
    ];
    const d = run({ stops, space: 'hsl', opacity: 0.5 }, field([0.5]));
    const exact = interpolateColor('hsl', [1, 0, 0, 1], [0, 0, 1, 128 / 255], 0.5);
    const a = exact[3] * 0.5;
    expect(pixel(d, 0).map((v) => +v.toFixed(3))).toEqual([exact[0] * a, exact[1] * a, exact[2] * a, a].map((v) => +v.toFixed(3)));
  });

  test('a raster maps by straight luminance and keeps its alpha as coverage', () => {
    const stops = [
      { value: 0, color: '#000000' },
      { value: 1, color: '#00ff00' },
    ];
    // Pixel 0: opaque grey 0.5; pixel 1: red at alpha 0.5 (premultiplied 0.5, 0, 0); pixel 2: transparent.
    const raster: Raster = {
      kind: 'raster',
      width: 3,
      height: 1,
      data: Float32Array.of(0.5, 0.5, 0.5, 1, 0.5, 0, 0, 0.5, 0, 0, 0, 0),
    };
    const d = run({ stops }, raster);
    expect(pixel(d, 0).map((v) => +v.toFixed(4))).toEqual([0, 0.5, 0, 1]);
    expect(pixel(d, 1).map((v) => +v.toFixed(4))).toEqual([0, +(0.2126 * 0.5).toFixed(4), 0, 0.5]);
    expect(pixel(d, 2)).toEqual([0, 0, 0, 0]);
  });

  test('ramp-expr is baked into 256 entries at the tile zoom, inputs clamped to [0, 1]', () => {
    const expr = [
      'interpolate',
      ['linear'],
      ['heatmap-density'],
      0,
      'rgba(0, 0, 255, 0)',
      0.5,
      ['interpolate', ['linear'], ['zoom'], 0, 'red', 10, 'lime'],
      1,
      'white',
    ];
    const compiled = compileExpr(expr, 'ramp', 'x');
    const at = (t: number, zoom: number) => compiled.evaluate(zoom, undefined, t) as RGBA;
    const premul = (c: RGBA) => [c[0] * c[3], c[1] * c[3], c[2] * c[3], c[3]];
    const t = 0.3;
    const lo = Math.floor(t * 255);
    const f = t * 255 - lo;
    const d = run({ 'ramp-expr': expr }, field([t, -1, 2, 0.5]), { zoom: 5 });
    // Between entries: linear in premultiplied RGBA.
    const expected = premul(at(lo / 255, 5)).map((v, k) => v + f * (premul(at((lo + 1) / 255, 5))[k]! - v));
    pixel(d, 0).forEach((v, k) => expect(v).toBeCloseTo(expected[k]!, 5));
    expect(pixel(d, 1)).toEqual([0, 0, 0, 0]);
    expect(pixel(d, 2)).toEqual([1, 1, 1, 1]);
    // The zoom reaches the expression: at z5 the middle colour is halfway from red to lime.
    const mid = straightPx(d, 3);
    expect(mid[0]).toBeGreaterThan(0.3);
    expect(mid[1]).toBeGreaterThan(0.3);
    const z0 = run({ 'ramp-expr': expr }, field([0.5]), { zoom: 0 });
    // (entries 127 and 128 straddle the red stop at 0.5, so this is red within a table step)
    straightPx(z0, 0).forEach((v, k) => expect(v).toBeCloseTo([1, 0, 0, 1][k]!, 2));
  });
});

describe('CPU/GPU parity', () => {
  const W = PARITY_WINDOW;

  gpuTest('color-ramp: stops in every colour space, a ramp expression, a raster by luminance', async () => {
    const r = rng(71);
    const sources = randomSource(72, { points: 60 });
    const field = { f: { op: 'features' }, d: { op: 'density', features: '@f', radius: 14, intensity: 2.5 } };
    const stops = () => [0, 0.2 + 0.3 * r(), 0.6 + 0.3 * r(), 1.2].map((value) => ({ value, color: randomColor(r, 0) }));
    for (const space of ['rgb', 'hsl', 'hsv', 'hcl', 'lab']) {
      const style = { output: 'out', sources, nodes: { ...field, out: { op: 'color-ramp', field: '@d', space, stops: stops(), opacity: 0.5 + 0.5 * r() } } };
      await checkParity(`color-ramp ${space}`, style, W, RASTER_TOL);
    }
    const ramp = ['interpolate', ['linear'], ['heatmap-density'], 0, 'rgba(0,0,255,0)', 0.3, 'royalblue', 0.6, 'cyan', 1, 'yellow'];
    await checkParity(
      'color-ramp ramp-expr',
      { output: 'out', sources, nodes: { ...field, out: { op: 'color-ramp', field: '@d', 'ramp-expr': ramp } } },
      W,
      RASTER_TOL,
    );
    const lumSources = { ...sources, ...rasterSources(73, 'i') };
    await checkParity(
      'color-ramp raster by luminance',
      { output: 'out', sources: lumSources, nodes: { ...randomRasterNodes(74, 'i'), out: { op: 'color-ramp', field: '@i', space: 'lab', stops: stops() } } },
      W,
      RASTER_TOL,
    );
  });
});

gpuDescribe('color-ramp: no-data (NaN) samples', () => {
  test('stay transparent on both backends (a DEM tile with a transparent hole)', async () => {
    // A Terrarium tile: 500 m everywhere but a transparent (no data) square in the middle.
    const px = new Uint8Array(256 * 256 * 4);
    for (let y = 0; y < 256; y++) {
      for (let x = 0; x < 256; x++) {
        const p = (y * 256 + x) * 4;
        const hole = x >= 96 && x < 160 && y >= 96 && y < 160;
        px.set(hole ? [0, 0, 0, 0] : [129, 244, 0, 255], p); // 129 * 256 + 244 - 32768 = 500
      }
    }
    const png = new Uint8Array(
      await sharp(Buffer.from(px), { raw: { width: 256, height: 256, channels: 4 } })
        .png()
        .toBuffer(),
    );
    const style = {
      output: 'out',
      sources: { elev: { type: 'dem', tiles: ['t/{z}/{x}/{y}.png'], encoding: 'terrarium', tileSize: 256, maxzoom: 2 } },
      nodes: {
        d: { op: 'dem' },
        out: rampOut('@d', [0, '#0000ff'], [1000, '#ff0000']),
      },
    };
    const w = { z: 2, x0: 256 + 64, y0: 256 + 64, width: 128, height: 128, tileSize: 256 };
    const opts = { loader: { load: async () => png }, decodeImage };
    const cpu = await Renderer.create(style, opts).renderWindow(w, undefined, { backend: new CpuBackend() });
    const gpu = await Renderer.create(style, opts).renderWindow(w, undefined, { backend: GPU! });
    const centre = (64 * 128 + 64) * 4;
    expect(Array.from(cpu.raster.data.subarray(centre, centre + 4))).toEqual([0, 0, 0, 0]);
    expect(Array.from(gpu.raster.data.subarray(centre, centre + 4))).toEqual([0, 0, 0, 0]);
    let max = 0;
    for (let i = 0; i < cpu.raster.data.length; i++) max = Math.max(max, Math.abs(cpu.raster.data[i]! - gpu.raster.data[i]!));
    expect(max).toBeLessThan(RASTER_TOL);
  });
});

describe('the opaque fast loop', () => {
  test('equals the general loop bit for bit (NaN, below, above, on the stops, between them)', () => {
    const stops = [
      { value: 0, color: [0.18, 0.6, 0.34, 1] },
      { value: 500, color: [0.98, 1, 0.5, 1] },
      { value: 1000, color: [0.88, 0.42, 0.12, 1] },
      { value: 1000, color: [0.1, 0.2, 0.3, 1] },
      { value: 3000, color: [1, 1, 1, 1] },
    ] as Stop[];
    const n = 5000;
    const src = new Float32Array(n);
    for (let i = 0; i < n; i++) src[i] = -200 + ((i * 7919) % 3600) + (i % 3) * 0.37;
    src.set([NaN, 0, 500, 1000, 3000, -1e-3, 2999.999, Infinity, -Infinity], 0);
    for (const space of ['rgb', 'lab', 'hcl'] as const) {
      const lut = stopTables(stops, space);
      const a = new Float32Array(n * 4);
      const b = new Float32Array(n * 4);
      rampField(src, n, lut, 1, a);
      rampFieldOpaque(src, n, lut, b);
      expect(Array.from(b)).toEqual(Array.from(a));
    }
  });
});

describe('runs of equal field values', () => {
  test('rampField (a pixel with the bits of the one before copies its colour) equals the plain loop bit for bit', () => {
    // Heat-like fields: runs of zeros, -0 after +0, NaN runs, repeated values in every segment
    // and at the stops, values past both ends; stops with alpha 0 (a heatmap's first) and equal values.
    const stops = [
      { value: 0, color: [0.17, 0.48, 0.71, 0] },
      { value: 0.25, color: [0.17, 0.48, 0.71, 1] },
      { value: 0.6, color: [1, 1, 0.75, 1] },
      { value: 0.6, color: [0.5, 0.2, 0.1, 0.5] },
      { value: 1, color: [0.84, 0.1, 0.11, 1] },
    ] as Stop[];
    const n = 20000;
    const src = new Float32Array(n);
    let v = 0;
    for (let i = 0; i < n; i++) {
      if (i % 7 === 0) v = [0, -0, 0.25, 0.6, 1, NaN, -0.5, 1.5, ((i * 7919) % 1000) / 900][(i >> 3) % 9]!;
      src[i] = i % 5 === 0 ? v : i % 11 === 0 ? ((i * 31) % 1200) / 1000 : v;
    }
    src.set([0, -0, -0, 0, NaN, NaN, 0], 0);
    const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));
    for (const space of ['rgb', 'lab'] as const)
      for (const opacity of [1, 0.8, 0]) {
        const lut = stopTables(stops, space);
        const a = new Float32Array(n * 4).fill(5);
        const b = new Float32Array(n * 4).fill(9);
        rampField(src, n, lut, opacity, a);
        rampFieldReference(src, n, lut, opacity, b);
        expect(bits(a)).toEqual(bits(b));
        // a view not at the buffer's start, shorter than the array
        const off = new Float32Array(n + 3);
        off.set(src, 3);
        const c = new Float32Array((n - 10) * 4);
        rampField(off.subarray(3), n - 10, lut, opacity, c);
        expect(bits(c)).toEqual(bits(b.subarray(0, (n - 10) * 4)));
      }
  });
});

describe('the WebAssembly SIMD kernel (color-ramp.wat)', () => {
  const bits = (a: Float32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length);
  const same = (a: Float32Array, b: Float32Array) => {
    const x = bits(a),
      y = bits(b);
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  };
  /** The f32 next below v (a field value just under a stop: its p can round up to the last entry). */
  const below = (v: number) => {
    if (v === 0) return -1e-45;
    const f = Float32Array.of(v);
    const u = new Uint32Array(f.buffer);
    u[0] = v > 0 ? u[0]! - 1 : u[0]! + 1;
    return f[0]!;
  };
  /** Stops over [-1000, 4000]: random colours and alphas, some stops sharing a value (hard steps). */
  const randomStops = (rand: () => number, count: number, opaque: boolean): Stop[] => {
    const stops: Stop[] = [];
    for (let k = 0; k < count; k++) {
      const value = k > 0 && rand() < 0.15 ? stops[k - 1]!.value : Math.fround(-1000 + rand() * 5000);
      stops.push({ value, color: [rand(), rand(), rand(), opaque ? 1 : rand() < 0.2 ? 0 : rand()] as RGBA });
    }
    return stops.sort((a, b) => a.value - b.value);
  };
  type Kernel = (src: Float32Array, n: number, lut: ReturnType<typeof stopTables>, opacity: number, out: Float32Array) => boolean;
  /** 60 random stop sets (every space, opaque or not) over fields of NaN, infinities, the stops, just below them, runs and values past both ends, at opacity 1, 0.7 and 0: `kernel` against rampFieldReference. */
  const sameAsReference = (kernel: Kernel) => {
    const rand = rng(2025);
    let checked = 0;
    for (let c = 0; c < 60; c++) {
      const space = (['rgb', 'lab', 'hcl', 'hsl', 'hsv'] as const)[c % 5];
      const stops = randomStops(rand, 2 + Math.floor(rand() * 9), c % 2 === 0);
      const lut = stopTables(stops, space);
      const n = 1 + Math.floor(rand() * 3000);
      const src = new Float32Array(n);
      for (let i = 0; i < n; i++) {
        const u = rand();
        src[i] =
          u < 0.05
            ? NaN
            : u < 0.08
              ? [Infinity, -Infinity, 0, -0][i % 4]!
              : u < 0.14
                ? stops[i % stops.length]!.value
                : u < 0.2
                  ? below(stops[i % stops.length]!.value)
                  : u < 0.4 && i > 0
                    ? src[i - 1]!
                    : -1500 + rand() * 6000;
      }
      if (c % 3 === 0) src[0] = 0; // bits 0 first: nothing before it to copy
      for (const opacity of [1, 0.7, 0]) {
        const a = new Float32Array(n * 4).fill(3);
        const b = new Float32Array(n * 4).fill(-3);
        expect(kernel(src, n, lut, opacity, a)).toBe(true);
        rampFieldReference(src, n, lut, opacity, b);
        expect(same(a, b)).toBe(true);
        if (opacity === 1 && c % 2 === 0) {
          const o = new Float32Array(n * 4);
          rampFieldOpaque(src, n, lut, o);
          expect(same(a, o)).toBe(true);
        }
        checked++;
      }
    }
    expect(checked).toBe(180);
  };
  // The tests below this one run the WebAssembly kernel (the addon unbound).
  beforeEach(() => useNative(false));
  afterAll(() => useNative(true));
  describe.each(FAST_KERNELS)('%s', (_name, native) => {
    beforeEach(() => useNative(native));
    test('rampFieldSimd equals rampFieldReference bit for bit: random stops and spaces, opacity, NaN, infinities, the stops, runs, past both ends', () =>
      sameAsReference(rampFieldSimd));
  });
  (ADDON ? test : test.skip)("the addon's portable copy (native/pixels.h ramp_scalar) equals rampFieldReference bit for bit", () =>
    sameAsReference((src, n, lut, opacity, out) => ADDON!.ramp(src, n, out, lut.table, lut.values, lut.size, lut.ends, opacity, 1)),
  );
  (ADDON ? test : test.skip)("the addon's ramp: eight pixels a step wherever a field's length ends; bad arguments throw, never read past an array", () => {
    const lut = stopTables([{ value: 0.2, color: [0.79, 0.75, 0.66, 1] } as Stop, { value: 0.8, color: [1, 1, 1, 1] } as Stop], 'rgb');
    const rand = rng(7);
    for (let n = 0; n < 40; n++) {
      const src = Float32Array.from({ length: n + 3 }, () => rand()).subarray(3);
      const a = new Float32Array(n * 4);
      const b = new Float32Array(n * 4);
      expect(ADDON!.ramp(src, n, a, lut.table, lut.values, lut.size, lut.ends, 0.35)).toBe(true);
      rampFieldReference(src, n, lut, 0.35, b);
      expect(same(a, b)).toBe(true);
    }
    const src = new Float32Array(8);
    const out = new Float32Array(32);
    expect(() => ADDON!.ramp(src, 9, out, lut.table, lut.values, lut.size, lut.ends, 1)).toThrow(/^ramp: /); // src too short
    expect(() => ADDON!.ramp(src, 8, out.subarray(1), lut.table, lut.values, lut.size, lut.ends, 1)).toThrow(/^ramp: /); // out too short
    expect(() => ADDON!.ramp(src, 8, out, lut.table.subarray(4), lut.values, lut.size, lut.ends, 1)).toThrow(/^ramp: /); // table too short
    expect(() => ADDON!.ramp(src, 8, out, lut.table, Float64Array.of(0), lut.size, lut.ends, 1)).toThrow(/^ramp: /); // one stop
    expect(() => ADDON!.ramp(src, 8, out, lut.table, lut.values, lut.size, lut.ends.subarray(1), 1)).toThrow(/^ramp: /); // ends
    expect(() => ADDON!.ramp(src, -1, out, lut.table, lut.values, lut.size, lut.ends, 1)).toThrow(/^ramp: /);
    expect(() => ADDON!.ramp(new Float64Array(8) as unknown as Float32Array, 8, out, lut.table, lut.values, lut.size, lut.ends, 1)).toThrow(/^ramp: /);
  });
  test('a field longer than one span (its spans are separate calls): the same bits; a view off its buffer start; the memory stays bounded', () => {
    const stops = [
      { value: 0, color: [0.17, 0.48, 0.71, 0] },
      { value: 0.25, color: [0.17, 0.48, 0.71, 1] },
      { value: 0.6, color: [1, 1, 0.75, 1] },
      { value: 1, color: [0.84, 0.1, 0.11, 1] },
    ] as Stop[];
    const lut = stopTables(stops, 'lab');
    const n = 2 * RAMP_SPAN_PIXELS + 77;
    const buf = new Float32Array(n + 5);
    for (let i = 0; i < buf.length; i++) buf[i] = i % 13 === 0 ? 0 : ((i * 7919) % 1300) / 1000 - 0.1;
    const src = buf.subarray(5);
    const a = new Float32Array(n * 4);
    const b = new Float32Array(n * 4);
    expect(rampFieldSimd(src, n, lut, 0.9, a)).toBe(true);
    rampFieldReference(src, n, lut, 0.9, b);
    expect(same(a, b)).toBe(true);
    // Every span boundary: the first pixel of a span repeats the bits of the last of the one before.
    const edge = new Float32Array(RAMP_SPAN_PIXELS + 2).fill(0.5);
    const e1 = new Float32Array(edge.length * 4);
    const e2 = new Float32Array(edge.length * 4);
    rampFieldSimd(edge, edge.length, lut, 1, e1);
    rampFieldReference(edge, edge.length, lut, 1, e2);
    expect(same(e1, e2)).toBe(true);
    // 20 bytes a span pixel, plus the table, values and scales, in 64 KiB pages.
    expect(rampMemoryBytes()).toBeLessThanOrEqual(RAMP_SPAN_PIXELS * 20 + lut.table.byteLength + 65536 * 2);
  });
  test('a premultiplied table (ramp-expr) or one over RAMP_TABLE_MAX_BYTES is left to the TypeScript loop', () => {
    const many = Array.from({ length: RAMP_TABLE_MAX_BYTES / (SEGMENT_SIZE * 16) + 2 }, (_, k) => ({ value: k, color: [k % 2, 0.5, 0.5, 1] as RGBA }));
    const big = stopTables(many, 'rgb');
    expect(big.table.byteLength).toBeGreaterThan(RAMP_TABLE_MAX_BYTES);
    const before = rampMemoryBytes();
    expect(rampFieldSimd(new Float32Array(4), 4, big, 1, new Float32Array(16))).toBe(false);
    expect(rampMemoryBytes()).toBe(before);
    const small = stopTables([{ value: 0, color: [0, 0, 0, 1] } as Stop, { value: 1, color: [1, 1, 1, 1] } as Stop], 'rgb');
    expect(rampFieldSimd(new Float32Array(4), 4, { ...small, premultiplied: true }, 1, new Float32Array(16))).toBe(false);
  });
});
