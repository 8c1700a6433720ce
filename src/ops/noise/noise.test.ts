// noise: value noise against the lattice hash written out here (lowbias32 by its published
// constants) with quintic bilinear interpolation, simplex noise against a plain global-coordinate
// implementation of Gustavson's 2-D simplex noise (the op splits the origin per octave; the
// result must not change), fBm weights, world anchoring, and CPU/GPU parity.
import { Renderer, type Window } from '../../index.js';
import { GPU, checkParity, gpuDescribe, gpuTest, testWindow } from '../../../tests/gpu/harness.js';
import { expectSeamless, seam } from '../../../tests/helpers/seam.js';

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
const hash = (ix: number, iy: number, s: number) => lowbias32(((ix >>> 0) ^ lowbias32(((iy >>> 0) ^ s) >>> 0)) >>> 0);
const lattice = (ix: number, iy: number, s: number) => Math.floor(hash(ix, iy, s) / 256) / 2 ** 24;
const quintic = (t: number) => 6 * t ** 5 - 15 * t ** 4 + 10 * t ** 3;

function valueRef(u: number, v: number, s: number): number {
  const i = Math.floor(u),
    j = Math.floor(v);
  const a = quintic(u - i),
    b = quintic(v - j);
  const top = lattice(i, j, s) * (1 - a) + lattice(i + 1, j, s) * a;
  const bottom = lattice(i, j + 1, s) * (1 - a) + lattice(i + 1, j + 1, s) * a;
  return top * (1 - b) + bottom * b;
}

const GRAD = [
  [1, 1],
  [-1, 1],
  [1, -1],
  [-1, -1],
  [1, 0],
  [-1, 0],
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
  [0, 1],
  [0, -1],
];
function simplexRef(x: number, y: number, s: number): number {
  const F = (Math.sqrt(3) - 1) / 2,
    G = (3 - Math.sqrt(3)) / 6;
  const k = (x + y) * F;
  const i = Math.floor(x + k),
    j = Math.floor(y + k);
  const t = (i + j) * G;
  const x0 = x - (i - t),
    y0 = y - (j - t);
  const [i1, j1] = x0 > y0 ? [1, 0] : [0, 1];
  const pts: [number, number, number, number][] = [
    [x0, y0, i, j],
    [x0 - i1 + G, y0 - j1 + G, i + i1, j + j1],
    [x0 - 1 + 2 * G, y0 - 1 + 2 * G, i + 1, j + 1],
  ];
  let n = 0;
  for (const [px, py, ix, iy] of pts) {
    const r = 0.5 - px * px - py * py;
    if (r < 0) continue;
    const g = GRAD[hash(ix, iy, s) % 12]!;
    n += r ** 4 * (g[0]! * px + g[1]! * py);
  }
  return Math.min(1, Math.max(0, 0.5 + 35 * n));
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
    test(`${kind} noise, 3 octaves: sum of 0.5^o weighted octaves over (world px + 0.5) 2^o / scale`, async () => {
      const scale = 13.7;
      const f = await field({ kind, 'scale-px': scale, seed: 4, octaves: 3 }, WIN);
      const weights = [1, 0.5, 0.25].map((w) => w / 1.75);
      let worst = 0,
        lo = 1,
        hi = 0;
      for (let j = 0; j < WIN.height; j++)
        for (let i = 0; i < WIN.width; i++) {
          let want = 0;
          for (let o = 0; o < 3; o++) {
            const u = ((WIN.x0 + i + 0.5) * 2 ** o) / scale,
              v = ((WIN.y0 + j + 0.5) * 2 ** o) / scale;
            want += weights[o]! * (kind === 'value' ? valueRef(u, v, seedOf(4, 0, o)) : simplexRef(u, v, seedOf(4, 0, o)));
          }
          const got = f[j * WIN.width + i]!;
          worst = Math.max(worst, Math.abs(got - want));
          lo = Math.min(lo, got);
          hi = Math.max(hi, got);
        }
      // f32 storage of the raster: 6e-8 relative.
      expect(worst).toBeLessThan(1e-6);
      expect(lo).toBeGreaterThanOrEqual(0);
      expect(hi).toBeLessThanOrEqual(1);
      expect(hi - lo).toBeGreaterThan(0.3);
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
