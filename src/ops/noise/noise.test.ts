// noise: value noise against the lattice hash written out here (lowbias32 by its published
// constants) with quintic bilinear interpolation on the lattice snapped to a whole number of cells
// around the world; simplex noise against a plain global-coordinate implementation of Gustavson's
// 3-D simplex noise, read on the cylinder (R cos θ, y, R sin θ) of circumference W / scale-px (the
// op splits the origin per octave; the result must not change); fBm weights, world anchoring,
// periodicity across the antimeridian at every zoom, and CPU/GPU parity.
import { Renderer, type Window } from '../../index.js';
import { GPU, checkParity, gpuDescribe, gpuTest, testWindow } from '../../../tests/gpu/harness.js';
import { expectSeamless, seam } from '../../../tests/helpers/seam.js';
import { rng } from '../../../tests/helpers/random.js';
import { noise, noiseReference, noiseTs } from './cpu.js';
import { planNoise } from './plan.js';
import { NOISE_WASM_MAX_PIXELS, NOISE_WASM_MAX_WIDTH, noiseWasm } from './wasm.js';
import { noiseNative } from './native.js';
import { nativeKernels } from '../../util/native-kernels.js';
// The Node host's kernels addon (native/kernels.c), bound on import where the CPU has AVX-512: then
// `noise` below runs it.
import { kernelsAddon, kernelsInfo } from '../../hosts/node/kernels.js';

const ADDON = kernelsAddon();
if (!ADDON) {
  const msg = `src/ops/noise/noise.test.ts: the native kernels' tests SKIPPED: ${kernelsInfo().reason} (scripts/build-native.mjs builds them).`;
  if (process.env.TILEGRAPH_REQUIRE_ADDON === '1') throw new Error(`${msg} TILEGRAPH_REQUIRE_ADDON=1 makes this a failure.`);
  console.warn(msg);
} else if (ADDON.simd !== 'avx512')
  console.warn("src/ops/noise/noise.test.ts: this CPU has no AVX-512: the addon's AVX-512 copy SKIPPED (its portable copy is tested).");
/** The addon's copies this machine runs: the portable one always, the AVX-512 one where the CPU has it. */
const NATIVE: [string, boolean][] = ADDON
  ? [['noiseNative generic', true], ...(ADDON.simd === 'avx512' ? [['noiseNative avx512', false] as [string, boolean]] : [])]
  : [];

// --- independent reference -------------------------------------------------------------------
function lowbias32(v: number): number {
  let x = v >>> 0;
  x = (x ^ (x >>> 16)) >>> 0;
  x = Number((BigInt(x) * 0x7feb352dn) & 0xffffffffn);
  x = (x ^ (x >>> 15)) >>> 0;
  x = Number((BigInt(x) * 0x846ca68bn) & 0xffffffffn);
  return (x ^ (x >>> 16)) >>> 0;
}
const seedOf = (seed: number, channel: number, octave: number) =>
  lowbias32((seed ^ Number((BigInt(channel * 16 + octave + 1) * 0x9e3779b9n) & 0xffffffffn)) >>> 0);
const u32 = (v: number) => Number(BigInt.asUintN(32, BigInt(v)));
const hash = (ix: number, iy: number, s: number) => lowbias32((u32(ix) ^ lowbias32((u32(iy) ^ s) >>> 0)) >>> 0);
const hash3 = (ix: number, iy: number, iz: number, s: number) => lowbias32((u32(ix) ^ lowbias32((u32(iy) ^ lowbias32((u32(iz) ^ s) >>> 0)) >>> 0)) >>> 0);
const lattice = (ix: number, iy: number, s: number) => Math.floor(hash(ix, iy, s) / 256) / 2 ** 24;
const quintic = (t: number) => 6 * t ** 5 - 15 * t ** 4 + 10 * t ** 3;
const mod = (a: number, m: number) => ((a % m) + m) % m;

/** Value noise at lattice position (u, v) of a lattice with P columns around the world. */
function valueRef(u: number, v: number, s: number, P: number): number {
  const i = Math.floor(u),
    j = Math.floor(v);
  const a = quintic(u - i),
    b = quintic(v - j);
  const i0 = mod(i, P),
    i1 = mod(i + 1, P);
  const top = lattice(i0, j, s) * (1 - a) + lattice(i1, j, s) * a;
  const bottom = lattice(i0, j + 1, s) * (1 - a) + lattice(i1, j + 1, s) * a;
  return top * (1 - b) + bottom * b;
}

// Gustavson, "Simplex noise demystified" (2005), 3-D: the 12 cube-edge gradients, skew 1/3,
// unskew 1/6; kernel (0.5 - r²)^4 (radius² 0.5, continuous); 76 maps the sum onto [-0.5, 0.5].
const GRAD3 = [
  [1, 1, 0],
  [-1, 1, 0],
  [1, -1, 0],
  [-1, -1, 0],
  [1, 0, 1],
  [-1, 0, 1],
  [1, 0, -1],
  [-1, 0, -1],
  [0, 1, 1],
  [0, -1, 1],
  [0, 1, -1],
  [0, -1, -1],
];
function simplex3Ref(x: number, y: number, z: number, s: number): number {
  const F = 1 / 3,
    G = 1 / 6;
  const k = (x + y + z) * F;
  const i = Math.floor(x + k),
    j = Math.floor(y + k),
    l = Math.floor(z + k);
  const t = (i + j + l) * G;
  const p0 = [x - (i - t), y - (j - t), z - (l - t)];
  // Corners in the order the coordinates rank (largest first).
  const order = [0, 1, 2].sort((a, b) => p0[b]! - p0[a]! || a - b);
  const offs: number[][] = [[0, 0, 0]];
  const cur = [0, 0, 0];
  for (const axis of order) {
    cur[axis] = 1;
    offs.push([...cur]);
  }
  let n = 0;
  offs.forEach((o, c) => {
    const d = [p0[0]! - o[0]! + c * G, p0[1]! - o[1]! + c * G, p0[2]! - o[2]! + c * G];
    const r = 0.5 - d[0]! ** 2 - d[1]! ** 2 - d[2]! ** 2;
    if (r < 0) return;
    const g = GRAD3[hash3(i + o[0]!, j + o[1]!, l + o[2]!, s) % 12]!;
    n += r ** 4 * (g[0]! * d[0]! + g[1]! * d[1]! + g[2]! * d[2]!);
  });
  return Math.min(1, Math.max(0, 0.5 + 38 * n));
}

/** Simplex noise of world pixel (x, y) (centre) at one octave: on the cylinder of circumference W step. */
function simplexAt(x: number, y: number, W: number, step: number, s: number): number {
  const R = (W * step) / (2 * Math.PI);
  const th = (2 * Math.PI * (mod(x, W) + 0.5)) / W;
  return simplex3Ref(R * Math.cos(th), (y + 0.5) * step, R * Math.sin(th), s);
}

/** fBm of the reference at world pixel (x, y). */
function fbmRef(kind: 'value' | 'simplex', x: number, y: number, W: number, scale: number, octaves: number, seed: number): number {
  let total = 0;
  for (let o = 0; o < octaves; o++) total += 0.5 ** o;
  let v = 0;
  for (let o = 0; o < octaves; o++) {
    const s = seedOf(seed, 0, o);
    if (kind === 'value') {
      const P = Math.max(1, Math.round(W / scale)) * 2 ** o;
      const step = P / W;
      v += (0.5 ** o / total) * valueRef((mod(x, W) + 0.5) * step, (y + 0.5) * step, s, P);
    } else v += (0.5 ** o / total) * simplexAt(x, y, W, 2 ** o / scale, s);
  }
  return v;
}

// --- rendering a field through a plan ----------------------------------------------------------
const GREY = {
  op: 'color-ramp',
  field: '@n',
  stops: [
    { value: 0, color: '#000000' },
    { value: 1, color: '#ffffff' },
  ],
};

async function field(node: Record<string, unknown>, w: Window): Promise<Float32Array> {
  // A style cannot output a field: the raster output's R channel is the field of channel seed 0.
  const style = { output: 'n', nodes: { n: { op: 'noise', ...node, output: 'raster' } } };
  const r = (await Renderer.create(style).renderWindow(w)).raster;
  const out = new Float32Array(w.width * w.height);
  for (let i = 0; i < out.length; i++) out[i] = r.data[i * 4]!;
  return out;
}

const WIN: Window = { z: 12, x0: 1100 * 256 + 37, y0: 1400 * 256 + 5, width: 48, height: 40, tileSize: 256 };

describe('noise against the written-out reference', () => {
  test('value noise: scale 0.5 puts a lattice point at every pixel centre: the value is its hash', async () => {
    const f = await field({ kind: 'value', 'scale-px': 0.5, seed: 9 }, WIN);
    const s = seedOf(9, 0, 0);
    let worst = 0;
    for (let j = 0; j < WIN.height; j++)
      for (let i = 0; i < WIN.width; i++) worst = Math.max(worst, Math.abs(f[j * WIN.width + i]! - lattice(2 * (WIN.x0 + i) + 1, 2 * (WIN.y0 + j) + 1, s)));
    expect(worst).toBeLessThan(1e-6);
  });

  for (const kind of ['value', 'simplex'] as const) {
    test(`${kind} noise, 3 octaves: the written-out reference, at z12 and across the antimeridian at z0, z3 and z24`, async () => {
      const scale = 13.7;
      const wins: Window[] = [WIN, ...[0, 3, 24].map((z) => ({ z, x0: 256 * 2 ** z - 24, y0: 100, width: 48, height: 40, tileSize: 256 }))];
      for (const w of wins) {
        const W = w.tileSize * 2 ** w.z;
        const f = await field({ kind, 'scale-px': scale, seed: 4, octaves: 3 }, w);
        let worst = 0,
          lo = 1,
          hi = 0;
        for (let j = 0; j < w.height; j++)
          for (let i = 0; i < w.width; i++) {
            const got = f[j * w.width + i]!;
            worst = Math.max(worst, Math.abs(got - fbmRef(kind, w.x0 + i, w.y0 + j, W, scale, 3, 4)));
            lo = Math.min(lo, got);
            hi = Math.max(hi, got);
          }
        // f32 local coordinates and f32 storage of the raster.
        expect({ z: w.z, worst: worst < 2e-5 }).toEqual({ z: w.z, worst: true });
        expect(lo).toBeGreaterThanOrEqual(0);
        expect(hi).toBeLessThanOrEqual(1);
        if (w.z > 0) expect(hi - lo).toBeGreaterThan(0.2);
      }
    });

    test(`${kind} noise is periodic across the antimeridian at every zoom: pixel x and x + W agree`, async () => {
      // A window straddling x = W (its right half wraps) against the same columns read at x - W.
      for (const z of [0, 1, 2, 3, 5, 9, 13, 17, 21, 24]) {
        const W = 256 * 2 ** z;
        for (const scale of [37, 5.3]) {
          const node = { kind, 'scale-px': scale, seed: 8, octaves: 4 };
          const across = await field(node, { z, x0: W - 20, y0: 30, width: 40, height: 8, tileSize: 256 });
          const west = await field(node, { z, x0: -20, y0: 30, width: 40, height: 8, tileSize: 256 });
          let worst = 0;
          for (let k = 0; k < across.length; k++) worst = Math.max(worst, Math.abs(across[k]! - west[k]!));
          expect({ z, scale, worst }).toEqual({ z, scale, worst: 0 });
        }
      }
    });
  }

  test('the seed reshuffles; R, G and B of a raster are independent noises', async () => {
    const a = await field({ 'scale-px': 8, seed: 1 }, WIN);
    const b = await field({ 'scale-px': 8, seed: 2 }, WIN);
    let same = 0;
    for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) < 1e-3) same++;
    expect(same).toBeLessThan(a.length * 0.05);
    const style = { output: 'n', nodes: { n: { op: 'noise', 'scale-px': 8, output: 'raster', kind: 'simplex' } } };
    const r = (await Renderer.create(style).renderWindow(WIN)).raster;
    let rg = 0;
    for (let i = 0; i < r.data.length; i += 4) {
      if (Math.abs(r.data[i]! - r.data[i + 1]!) < 1e-3) rg++;
      expect(r.data[i + 3]).toBe(1);
    }
    expect(rg).toBeLessThan((r.data.length / 4) * 0.05);
  });

  test('world-anchored: overlapping windows agree on their overlap, at any zoom-level origin', async () => {
    for (const kind of ['value', 'simplex'] as const) {
      const node = { kind, 'scale-px': 21, octaves: 4, seed: 3 };
      const a = await field(node, WIN);
      const shifted: Window = { ...WIN, x0: WIN.x0 + 17, y0: WIN.y0 + 9 };
      const b = await field(node, shifted);
      let worst = 0;
      for (let j = 9; j < WIN.height; j++)
        for (let i = 17; i < WIN.width; i++) worst = Math.max(worst, Math.abs(a[j * WIN.width + i]! - b[(j - 9) * WIN.width + i - 17]!));
      expect(worst).toBeLessThan(1e-6);
    }
  });

  test('a field output is a scalar field in [0, 1]', async () => {
    const style = { output: 'out', nodes: { n: { op: 'noise', 'scale-px': 5 }, out: GREY } };
    const r = (await Renderer.create(style).renderWindow(WIN)).raster;
    expect(r.data.some((v, i) => i % 4 === 0 && v > 0.6)).toBe(true);
    expect(r.data.some((v, i) => i % 4 === 0 && v < 0.4)).toBe(true);
  });
});

/** The fast kernels, each tested against noiseReference (null: the kernel declined the plan). */
const KERNELS: [string, (p: ReturnType<typeof planNoise>, seed: number, raster: boolean, channels?: number) => Float32Array | null][] = [
  ['noise', noise],
  ['noiseTs', noiseTs],
  ['noiseWasm', noiseWasm],
  ...NATIVE.map(
    ([name, generic]) =>
      [
        name,
        (p: ReturnType<typeof planNoise>, seed: number, raster: boolean, channels?: number) =>
          noiseNative(p, seed, raster, channels ?? (raster ? 3 : 1), undefined, ADDON!.noise, generic),
      ] as [string, (p: ReturnType<typeof planNoise>, seed: number, raster: boolean, channels?: number) => Float32Array | null],
  ),
];
/** How many values differ (Object.is: -0 and +0 differ too). */
const differing = (a: Float32Array, b: Float32Array) => {
  let n = a.length === b.length ? 0 : Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (!Object.is(a[i], b[i])) n++;
  return n;
};

/** Field (1 channel), raster (3), raster read without B (2: R and G, B +0). */
const MODES = [
  [false, 1],
  [true, 3],
  [true, 2],
] as const;

describe('the kernels the op runs = the reference kernel, bit for bit', () => {
  // noiseTs (cpu.ts), noiseWasm (wasm.ts, noise.wat) and noiseNative (native.ts: the Node host's
  // addon, native/kernels.c, its AVX-512 and portable copies) share hashes, fades and the simplex
  // geometry between pixels, rows and channels; noiseReference evaluates each sample on its own
  // with plan.ts's functions. `noise` (the op's kernel) is noiseNative where the addon is bound
  // (AVX-512), else noiseWasm where WebAssembly runs.
  const windows: Window[] = [
    WIN,
    { z: 0, x0: -40, y0: -30, width: 336, height: 24, tileSize: 256 }, // wider than the world: the tables wrap
    { z: 3, x0: 256 * 8 - 70, y0: 900, width: 140, height: 60, tileSize: 256 },
    { z: 14, x0: 4200 * 256 - 29, y0: 6089 * 256 - 29, width: 314, height: 48, tileSize: 256 },
    { z: 24, x0: 256 * 2 ** 24 - 24, y0: 2 ** 31, width: 48, height: 40, tileSize: 256 },
  ];
  for (const kind of ['value', 'simplex'] as const)
    test(`${kind}: fields and rasters, 1 to 12 octaves, scales 0.3 to 300 px`, () => {
      for (const w of windows)
        for (const [scale, octaves] of [
          [0.3, 1],
          [2.5, 3],
          [18, 2],
          [28, 3],
          [90, 5],
          [300, 12],
        ] as const)
          for (const [raster, ch] of MODES) {
            const plan = planNoise(w, scale, octaves, kind);
            const b = noiseReference(plan, 11, raster, ch).slice();
            for (const [name, kernel] of KERNELS) {
              const a = kernel(plan, 11, raster, ch);
              if (a) expect({ name, z: w.z, scale, octaves, ch, diff: differing(a, b) }).toEqual({ name, z: w.z, scale, octaves, ch, diff: 0 });
            }
          }
    });

  test('two channels (a raster whose readers read no B): R and G of the three-channel raster bit for bit, B +0', () => {
    for (const kind of ['value', 'simplex'] as const)
      for (const w of windows) {
        const plan = planNoise(w, 18, 3, kind);
        const three = noiseReference(plan, 9, true).slice();
        const two = noise(plan, 9, true, 2);
        let diff = 0;
        for (let i = 0; i < three.length; i += 4)
          if (!Object.is(two[i], three[i]) || !Object.is(two[i + 1], three[i + 1]) || !Object.is(two[i + 2], 0) || two[i + 3] !== 1) diff++;
        expect({ kind, z: w.z, diff }).toEqual({ kind, z: w.z, diff: 0 });
      }
  });

  test('with a demand (runs of pixels), the reference at every pixel it holds and +0 elsewhere, bit for bit', () => {
    // OpContext.demand (src/graph/demand.ts): the WebAssembly simplex octaves compute only the
    // runs; value noise and the TypeScript kernel compute every pixel.
    const r = rng(25);
    for (const kind of ['simplex', 'value'] as const)
      for (const w of windows)
        for (const [raster, ch] of MODES) {
          const plan = planNoise(w, 18, 2, kind);
          const ref = noiseReference(plan, 7, raster, ch).slice();
          const runs: number[] = [];
          const held = new Uint8Array(w.width * w.height);
          for (let j = 0; j < w.height; j++) {
            let x = Math.floor(r() * 5);
            while (x < w.width) {
              const n = Math.min(w.width - x, 1 + Math.floor(r() * 9));
              if (r() < 0.6) {
                runs.push(j, x, n);
                held.fill(1, j * w.width + x, j * w.width + x + n);
              }
              x += n + 1 + Math.floor(r() * 6);
            }
          }
          const demand = Int32Array.from(runs);
          const kernels: [string, Float32Array | null][] = [
            ['noiseWasm', noiseWasm(plan, 7, raster, ch, demand)],
            ...NATIVE.map(([name, generic]) => [name, noiseNative(plan, 7, raster, ch, demand, ADDON!.noise, generic)] as [string, Float32Array | null]),
          ];
          for (const [name, got] of kernels) {
            if (!got) continue;
            const stride = raster ? 4 : 1;
            let diff = 0;
            for (let q = 0; q < w.width * w.height; q++)
              for (let c = 0; c < stride; c++) {
                const want = held[q] || kind === 'value' || (raster && c === 3) ? ref[q * stride + c] : 0;
                if (!Object.is(got[q * stride + c], want)) diff++;
              }
            expect({ name, kind, z: w.z, ch, diff }).toEqual({ name, kind, z: w.z, ch, diff: 0 });
          }
        }
  });

  test('a plan anchored at a larger canvas (OpContext.planCanvas) gives that canvas its values on the smaller one, bit for bit', () => {
    for (const kind of ['value', 'simplex'] as const)
      for (const w of windows) {
        const grow = 13;
        const big = { ...w, x0: w.x0 - grow, y0: w.y0 - grow, width: w.width + 2 * grow, height: w.height + 2 * grow };
        const whole = noiseReference(planNoise(big, 7, 2, kind), 3, true).slice();
        const part = noise(planNoise(w, 7, 2, kind, big), 3, true);
        let diff = 0;
        for (let y = 0; y < w.height; y++)
          for (let x = 0; x < w.width * 4; x++) if (!Object.is(part[y * w.width * 4 + x], whole[(y + grow) * big.width * 4 + grow * 4 + x])) diff++;
        expect({ kind, z: w.z, diff }).toEqual({ kind, z: w.z, diff: 0 });
      }
  });

  test('the WebAssembly kernel runs here (Node 20 has WebAssembly)', () => {
    const plan = planNoise(WIN, 18, 2, 'simplex');
    expect(noiseWasm(plan, 7, true)).not.toBeNull();
    expect(noiseWasm(plan, 7, true, 2)).not.toBeNull();
    expect(noiseWasm(planNoise(WIN, 28, 3, 'value'), 5, true)).not.toBeNull();
  });

  (ADDON ? test : test.skip)('the native kernels: bound to the core where the CPU has AVX-512; bad arguments throw, never read past an array', () => {
    expect(nativeKernels() !== null).toBe(ADDON!.simd === 'avx512');
    const plan = planNoise(WIN, 18, 2, 'simplex');
    const acc = new Float64Array(WIN.width * WIN.height * 3);
    const out = new Float32Array(WIN.width * WIN.height * 4);
    const seeds = new Uint32Array(6);
    const call = (demand: Int32Array | null, o = out, a = acc, w = WIN.width) =>
      ADDON!.noise(1, plan.cells, plan.cols, plan.rows, w, WIN.height, 2, seeds, 3, 1, demand, a, o, 1);
    expect(call(null)).toBe(true);
    expect(() => call(Int32Array.from([WIN.height, 0, 1]))).toThrow(/demand run outside the canvas/);
    expect(() => call(Int32Array.from([0, WIN.width - 3, 4]))).toThrow(/demand run outside the canvas/);
    expect(() => call(Int32Array.from([0, 0]))).toThrow(/runs/);
    expect(() => call(null, out.subarray(1))).toThrow(/too short/);
    expect(() => call(null, out, acc.subarray(1))).toThrow(/too short/);
    expect(() => call(null, out, acc, WIN.width + 1)).toThrow(/too short/);
  });

  test('past NOISE_WASM_MAX_PIXELS the TypeScript kernel runs (the module memory stays bounded): the same values', () => {
    const big: Window = { z: 12, x0: 4095 * 256 - 7, y0: 1000, width: NOISE_WASM_MAX_PIXELS + 1, height: 1, tileSize: 256 };
    const plan = planNoise(big, 90, 1, 'simplex');
    expect(noiseWasm(plan, 3, false)).toBeNull();
    const b = noiseReference(plan, 3, false).slice();
    expect(differing(noise(plan, 3, false), b)).toBe(0);
  });

  test('a simplex canvas wider than NOISE_WASM_MAX_WIDTH takes the TypeScript kernel (its row buffer stays bounded): the same values', () => {
    // (64 rows: a lattice box of this arc is within the kernel's bound at NOISE_WASM_MAX_WIDTH)
    const wide: Window = { z: 12, x0: 2048 * 256 - 7, y0: 1000, width: NOISE_WASM_MAX_WIDTH + 1, height: 64, tileSize: 256 };
    const plan = planNoise(wide, 90, 1, 'simplex');
    expect(noiseWasm(plan, 3, false)).toBeNull();
    expect(differing(noise(plan, 3, false), noiseReference(plan, 3, false).slice())).toBe(0);
    expect(noiseWasm(planNoise({ ...wide, width: NOISE_WASM_MAX_WIDTH }, 90, 1, 'simplex'), 3, false)).not.toBeNull();
  });

  test('random windows: negative and large world coordinates, across the antimeridian, z0 to z24', () => {
    // Seeded windows anywhere from a world left of x = 0 (negative x0, wraps) to one right of the
    // antimeridian, above and below the world; scales and octaves the examples use and others.
    const random = rng(25);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
    let compared = 0;
    for (let t = 0; t < 160; t++) {
      const z = Math.floor(random() * 25);
      const W = 256 * 2 ** z;
      const win: Window = {
        z,
        x0: Math.floor((random() * 3 - 1) * W),
        y0: Math.floor((random() * 3 - 1) * W),
        width: 1 + Math.floor(random() * 90),
        height: 1 + Math.floor(random() * 40),
        tileSize: 256,
      };
      const scale = pick([0.7, 2.5, 7, 18, 28, 90, 300]);
      const octaves = 1 + Math.floor(random() * 5);
      const seed = Math.floor(random() * 2 ** 32);
      for (const kind of ['value', 'simplex'] as const)
        for (const [raster, ch] of MODES) {
          const plan = planNoise(win, scale, octaves, kind);
          const b = noiseReference(plan, seed, raster, ch).slice();
          for (const [name, kernel] of KERNELS) {
            const a = kernel(plan, seed, raster, ch);
            if (a) compared++;
            if (a) expect({ name, t, kind, ch, diff: differing(a, b) }).toEqual({ name, t, kind, ch, diff: 0 });
          }
        }
    }
    // noiseWasm declines only a simplex octave whose lattice box is much larger than the canvas.
    expect(compared).toBeGreaterThan(160 * 4 * 3 * 0.8);
  });
});

gpuDescribe('CPU/GPU parity', () => {
  const W = testWindow(64);
  test('value and simplex, field (through a grey ramp) and raster, 1 and 5 octaves', async () => {
    for (const kind of ['value', 'simplex'] as const) {
      for (const octaves of [1, 5]) {
        const node = { op: 'noise', kind, octaves, 'scale-px': 9.5, seed: 7 };
        await checkParity(`noise ${kind} ${octaves} field`, { output: 'out', nodes: { n: node, out: GREY } }, W);
        await checkParity(`noise ${kind} ${octaves} raster`, { output: 'n', nodes: { n: { ...node, output: 'raster' } } }, W);
      }
    }
    // Far from the origin (z 18): the per-octave split keeps the GPU's f32 arithmetic small.
    const far: Window = { z: 18, x0: 180000 * 64, y0: 90000 * 64, width: 64, height: 64, tileSize: 64 };
    await checkParity('noise simplex z18', { output: 'n', nodes: { n: { op: 'noise', kind: 'simplex', octaves: 3, 'scale-px': 3.3, output: 'raster' } } }, far);
    // Across the antimeridian (the right half of each window wraps), where the tables wrap.
    for (const kind of ['value', 'simplex'] as const)
      for (const z of [0, 3]) {
        const across: Window = { z, x0: 256 * 2 ** z - 32, y0: 100, width: 64, height: 64, tileSize: 256 };
        await checkParity(
          `noise ${kind} across z${z}`,
          { output: 'n', nodes: { n: { op: 'noise', kind, octaves: 4, 'scale-px': 21, output: 'raster' } } },
          across,
        );
      }
  });
});

describe('seam invariant: 2x2 tile mosaic = window render', () => {
  for (const kind of ['value', 'simplex'] as const) {
    test(`${kind} noise, 4 octaves, raster and field (z9, 128 px)`, async () => {
      const n = { op: 'noise', kind, 'scale-px': 37, octaves: 4, seed: 5 };
      expectSeamless(await seam({ output: 'n', nodes: { n: { ...n, output: 'raster' } } }, 9, 300, 170), 0.99);
      expectSeamless(await seam({ output: 'out', nodes: { n, out: GREY } }, 9, 300, 170), 0.99);
    });
  }

  gpuTest('on the GPU too: simplex, 6 octaves, far from the origin (z16)', async () => {
    const style = { output: 'n', nodes: { n: { op: 'noise', kind: 'simplex', 'scale-px': 23, octaves: 6, output: 'raster' } } };
    expectSeamless(await seam(style, 16, 34000, 22000, 64, { backend: GPU! }), 0.99);
  });
});

describe('a raster noise whose readers read no B (PlanNode.channelsRead)', () => {
  const style = (alsoBlend: boolean) => ({
    output: alsoBlend ? 'both' : 'out',
    params: { a: { type: 'number', default: 3, min: 0, max: 6 } },
    nodes: {
      n: { op: 'noise', 'scale-px': 18, octaves: 2, seed: 7, kind: 'simplex', output: 'raster' },
      tone: { op: 'noise', 'scale-px': 9, seed: 2 },
      ramp: {
        op: 'color-ramp',
        field: '@tone',
        stops: [
          { value: 0, color: '#203040' },
          { value: 1, color: '#f0e0d0' },
        ],
      },
      out: { op: 'displace', input: '@ramp', displacement: '@n', 'amp-px': '$a' },
      both: { op: 'blend', base: '@out', over: '@n', opacity: 0.5 },
    },
  });

  test('read only by a displace: R, G and A; read by a blend too: all four (undefined)', () => {
    expect(Renderer.create(style(false)).plan.nodes.get('n')!.channelsRead).toBe(1 | 2 | 8);
    expect(Renderer.create(style(true)).plan.nodes.get('n')!.channelsRead).toBeUndefined();
    // The output and legend entries are read whole.
    expect(Renderer.create({ output: 'n', nodes: { n: style(false).nodes.n } }).plan.nodes.get('n')!.channelsRead).toBeUndefined();
  });

  test('the displace draws the same bits as over the three-channel noise', async () => {
    const win: Window = { z: 5, x0: 17 * 256, y0: 11 * 256, width: 256, height: 256, tileSize: 256 };
    const two = Renderer.create(style(false));
    const a = (await two.renderWindow(win)).raster;
    // The same graph with the noise also read whole (by a blend the output does not need): three channels.
    const three = Renderer.create({ ...style(false), legend: { entries: [{ label: 'n', from: '@n' }] } });
    expect(three.plan.nodes.get('n')!.channelsRead).toBeUndefined();
    const b = (await three.renderWindow(win)).raster;
    expect(Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).equals(Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength))).toBe(
      true,
    );
  });
});
