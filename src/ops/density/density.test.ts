// density: the field against the closed-form kernel of spec §2.5, sampled at pixel centres.
import { compileExpr } from '../../expr/index.js';
import { density } from './index.js';
import type { OpContext } from '../types.js';
import type { Canvas, FeatureGroup, ScalarField, ScalarValue } from '../../types.js';
import { gpuTest, GPU, PARITY_WINDOW, randomSource, rng, tap, renderOn } from '../../../tests/gpu/harness.js';
import { rampOut } from '../../../tests/helpers/scalars.js';
import { CpuBackend } from '../../index.js';
import { DensityAccumulator } from './cpu.js';
import { inArena, setArenaEnabled } from '../../util/wasm-arena.js';

// The spec's falloff, written out independently of cpu.ts.
const K = (d: number, r: number) => (d <= r ? Math.exp(-0.5 * 3 ** 2 * (d / r) ** 2) / Math.sqrt(2 * Math.PI) : 0);

const CANVAS: Canvas = {
  z: 6,
  x0: 3000,
  y0: 5000,
  width: 64,
  height: 48,
  tileSize: 256,
};

interface Param {
  value: number;
  max?: number;
}

/** A minimal OpContext: literal and `$param` fields, real compiled expressions, features input. */
function ctxFor(node: Record<string, unknown>, groups: FeatureGroup[], params: Record<string, Param> = {}, canvas = CANVAS): OpContext {
  const spec = { op: 'density', features: '@pts', ...node };
  const fieldDefault = (f: string) => (density.fields[f] as { default?: number }).default;
  const boundOf = (f: string): number | undefined => {
    const v = spec[f as keyof typeof spec];
    if (typeof v === 'number') return v;
    if (typeof v === 'string' && v.startsWith('$')) return params[v.slice(1)]!.max;
    return fieldDefault(f);
  };
  const resolve = (v: unknown): ScalarValue => (typeof v === 'string' && v.startsWith('$') ? params[v.slice(1)]!.value : (v as number));
  return {
    id: 'd',
    node: spec,
    canvas,
    window: canvas,
    zoom: canvas.z,
    input: (() => ({ kind: 'features', groups })) as OpContext['input'],
    handle: () => ({ kind: 'features', groups }),
    has: (f) => spec[f as keyof typeof spec] !== undefined,
    num(f) {
      const v = spec[f as keyof typeof spec];
      let x = v === undefined ? fieldDefault(f)! : (resolve(v) as number);
      if (density.paddingFields?.includes(f)) x = Math.min(x, boundOf(f)!);
      return x;
    },
    nums: () => undefined,
    color: () => [0, 0, 0, 1],
    bool: () => false,
    resolve,
    bound: (f) => boundOf(f)!,
    expr: (f) => (spec[f as keyof typeof spec] === undefined ? undefined : compileExpr(spec[f as keyof typeof spec], 'number', f)),
    sources: undefined as never,
  };
}

const pointGroup = (xy: number[], properties: Record<string, unknown> = {}): FeatureGroup => ({
  properties,
  polygons: [],
  lines: [],
  points: new Float64Array(xy),
});

function run(node: Record<string, unknown>, groups: FeatureGroup[], params?: Record<string, Param>, canvas = CANVAS): ScalarField {
  return density.cpu!(ctxFor(node, groups, params, canvas)) as ScalarField;
}

/** Closed-form field of weighted points [x, y, scale, radius], at every pixel centre. */
function expected(pts: [number, number, number, number][], canvas = CANVAS): Float64Array {
  const out = new Float64Array(canvas.width * canvas.height);
  for (let j = 0; j < canvas.height; j++) {
    for (let i = 0; i < canvas.width; i++) {
      const cx = canvas.x0 + i + 0.5;
      const cy = canvas.y0 + j + 0.5;
      for (const [x, y, s, r] of pts) out[j * canvas.width + i] += s * K(Math.hypot(cx - x, cy - y), r);
    }
  }
  return out;
}

function expectClose(f: ScalarField, want: Float64Array) {
  expect([f.width, f.height]).toEqual([CANVAS.width, CANVAS.height]);
  let worst = 0;
  for (let k = 0; k < want.length; k++) {
    const err = Math.abs(f.data[k]! - want[k]!);
    worst = Math.max(worst, err / Math.max(1e-12, Math.abs(want[k]!)));
    if (want[k] === 0) expect(f.data[k]).toBe(0);
  }
  expect(worst).toBeLessThan(1e-6);
}

const X = CANVAS.x0;
const Y = CANVAS.y0;

describe('density', () => {
  test('one point: every pixel matches the closed-form kernel, zero beyond the radius', () => {
    const f = run({ radius: 10 }, [pointGroup([X + 20.3, Y + 31.7])]);
    const want = expected([[X + 20.3, Y + 31.7, 1, 10]]);
    expectClose(f, want);
    // The peak pixel centre (20.5, 31.5) is 0.283 px from the point.
    expect(f.data[31 * 64 + 20]).toBeCloseTo(K(Math.hypot(0.2, 0.2), 10), 6);
    expect(f.data[31 * 64 + 20]).toBeCloseTo(0.3989422804 * Math.exp((-4.5 * 0.08) / 100), 6);
    // The support is a disk: (20.5 + 7, 31.5 + 7) is 9.6 px away (inside), (20.5 + 8, 31.5 + 7) is 10.4 px (outside).
    expect(f.data[38 * 64 + 27]).toBeGreaterThan(0);
    expect(f.data[38 * 64 + 28]).toBe(0);
  });

  test('the default radius is 30 px and the default intensity 1', () => {
    const f = run({}, [pointGroup([X + 32, Y + 24])]);
    expectClose(f, expected([[X + 32, Y + 24, 1, 30]]));
  });

  test('several points in one group and across groups sum, unclamped', () => {
    const pts: [number, number, number, number][] = [
      [X + 10, Y + 10, 1, 15],
      [X + 12.25, Y + 11.5, 1, 15],
      [X + 40, Y + 30, 1, 15],
      [X + 40, Y + 30, 1, 15],
    ];
    const f = run({ radius: 15 }, [pointGroup([X + 10, Y + 10, X + 12.25, Y + 11.5]), pointGroup([X + 40, Y + 30]), pointGroup([X + 40, Y + 30])]);
    expectClose(f, expected(pts));
    // Two coincident points: twice one kernel, above the single-point peak (no clamp to 1 either).
    expect(f.data[29 * 64 + 39]! / K(Math.SQRT1_2, 15)).toBeCloseTo(2, 5);
    const big = run({ radius: 15, intensity: 40 }, [pointGroup([X + 40, Y + 30])]);
    expect(Math.max(...big.data)).toBeGreaterThan(15);
  });

  test('intensity scales the field, as a literal or a $param', () => {
    const g = [pointGroup([X + 30, Y + 20])];
    expectClose(run({ radius: 12, intensity: 2.5 }, g), expected([[X + 30, Y + 20, 2.5, 12]]));
    expectClose(run({ radius: 12, intensity: '$k' }, g, { k: { value: 0.25 } }), expected([[X + 30, Y + 20, 0.25, 12]]));
  });

  test('weight-expr weighs each group by its property; a missing or non-number weight is 1', () => {
    const groups = [
      pointGroup([X + 10, Y + 10], { w: 3 }),
      pointGroup([X + 50, Y + 10], { w: 'heavy' }),
      pointGroup([X + 10, Y + 40], {}),
      pointGroup([X + 50, Y + 40], { w: 0.5 }),
    ];
    const f = run({ radius: 8, intensity: 2, 'weight-expr': ['get', 'w'] }, groups);
    expectClose(
      f,
      expected([
        [X + 10, Y + 10, 6, 8],
        [X + 50, Y + 10, 2, 8],
        [X + 10, Y + 40, 2, 8],
        [X + 50, Y + 40, 1, 8],
      ]),
    );
  });

  test('intensity-expr multiplies intensity per group', () => {
    const groups = [pointGroup([X + 15, Y + 15], { k: 4 }), pointGroup([X + 45, Y + 30], { k: 0.5 })];
    const f = run({ radius: 9, intensity: 3, 'intensity-expr': ['get', 'k'] }, groups);
    expectClose(
      f,
      expected([
        [X + 15, Y + 15, 12, 9],
        [X + 45, Y + 30, 1.5, 9],
      ]),
    );
    // A zoom curve (no feature data): evaluated at the render zoom 6 -> 2 + 6 = 8.
    const z = run({ radius: 9, 'intensity-expr': ['+', 2, ['zoom']] }, [pointGroup([X + 15, Y + 15])]);
    expectClose(z, expected([[X + 15, Y + 15, 8, 9]]));
  });

  test('radius-expr sets each group radius, clamped to the static bound', () => {
    const groups = [pointGroup([X + 15, Y + 20], { r: 5 }), pointGroup([X + 45, Y + 20], { r: 50 }), pointGroup([X + 30, Y + 40], {})];
    // Bound from a literal radius (20): r = 50 clamps to 20; a group without r uses `radius`.
    const f = run({ radius: 20, 'radius-expr': ['get', 'r'] }, groups);
    expectClose(
      f,
      expected([
        [X + 15, Y + 20, 1, 5],
        [X + 45, Y + 20, 1, 20],
        [X + 30, Y + 40, 1, 20],
      ]),
    );
    // Bound from a $param's max (12), while the param's value is 7.
    const p = run({ radius: '$rad', 'radius-expr': ['get', 'r'] }, groups, {
      rad: { value: 7, max: 12 },
    });
    expectClose(
      p,
      expected([
        [X + 15, Y + 20, 1, 5],
        [X + 45, Y + 20, 1, 12],
        [X + 30, Y + 40, 1, 7],
      ]),
    );
  });

  test('a $param radius above its max clamps to the max', () => {
    const f = run({ radius: '$rad' }, [pointGroup([X + 30, Y + 20])], {
      rad: { value: 25, max: 9 },
    });
    expectClose(f, expected([[X + 30, Y + 20, 1, 9]]));
  });

  test('lines and polygons contribute nothing: an all-zero field, no error', () => {
    const line: FeatureGroup = {
      properties: {},
      polygons: [],
      lines: [new Float64Array([X, Y, X + 60, Y + 40])],
      points: new Float64Array(0),
    };
    const poly: FeatureGroup = {
      properties: {},
      polygons: [[new Float64Array([X + 5, Y + 5, X + 40, Y + 5, X + 40, Y + 30, X + 5, Y + 30])]],
      lines: [],
      points: new Float64Array(0),
    };
    const f = run({ radius: 10, 'weight-expr': ['get', 'w'] }, [line, poly]);
    expect(f.data.length).toBe(64 * 48);
    expect(f.data.every((v) => v === 0)).toBe(true);
  });

  test('a point outside the canvas still reaches the pixels within its radius', () => {
    const px = X - 6.5;
    const py = Y + 20;
    const f = run({ radius: 10 }, [pointGroup([px, py])]);
    expectClose(f, expected([[px, py, 1, 10]]));
    // Pixel (0, 19) is centred at (X + 0.5, Y + 19.5): 7.02 px from the point.
    expect(f.data[19 * 64]).toBeCloseTo(K(Math.hypot(7, 0.5), 10), 7);
    expect(f.data[19 * 64]).toBeGreaterThan(0);
    // Pixel 4 of that row is 11 px away: outside the support.
    expect(f.data[19 * 64 + 4]).toBe(0);
  });

  test('adjacent canvases agree where they overlap (the field is world-anchored)', () => {
    const pts = pointGroup([X + 60, Y + 20, X + 70.5, Y + 25.25, X + 66, Y + 10]);
    const a = run({ radius: 14 }, [pts]);
    const right: Canvas = { ...CANVAS, x0: X + 40 };
    const b = run({ radius: 14 }, [pts], undefined, right);
    for (let j = 0; j < 48; j++) for (let i = 40; i < 64; i++) expect(b.data[j * 64 + i - 40]).toBe(a.data[j * 64 + i]);
  });

  test('the WebAssembly rows (density.wat) sum bit for bit what the TypeScript rows sum', () => {
    // Witness: splatRowsReference (cpu.ts), the kernel the op ran before the WebAssembly port.
    const random = rng(11);
    let cases = 0;
    for (const [W, H, radius, k] of [
      [97, 61, 24, 1],
      [256, 256, 48, 1],
      [40, 33, 4.3, 1],
      [30, 30, 3.1, 8],
    ] as const) {
      const pts = Float64Array.from({ length: 400 }, (_, i) => (i % 2 ? H : W) * (random() * 1.6 - 0.3) * k + 1000);
      const run = (reference: boolean, arena = true) => {
        setArenaEnabled(arena);
        const acc = new DensityAccumulator(W, H, 1000 / k, 1000 / k, radius * 2, reference);
        acc.splat(pts, 0.09, radius, radius, k);
        acc.splat(pts.subarray(0, 100), 1.7, radius * 0.6, radius * 1.3, k); // a cutoff's longer reach
        acc.splat(pts.subarray(100, 180), 0.3, radius * 1.9, radius * 2.5, k); // factors grown past the first size
        // The WebAssembly path keeps the sum in the canvas arena (or the module's memory), with the factors.
        if (!reference) expect(acc.sum.buffer.byteLength).toBeGreaterThan(acc.sum.byteLength);
        if (!reference) expect(inArena(acc.sum)).toBe(arena);
        const sum = Float64Array.from(acc.sum);
        const f32 = acc.toFloat32();
        setArenaEnabled(true);
        // The field is a canvas of the pool: rounded in the arena by density.wat, else by Float32Array.set.
        expect(inArena(f32)).toBe(arena && W * H >= 4096);
        return { sum, f32: Array.from(f32) };
      };
      const ref = run(true);
      for (const fast of [run(false), run(false, false)]) {
        let differ = 0;
        for (let i = 0; i < ref.sum.length; i++) if (!Object.is(ref.sum[i], fast.sum[i])) differ++;
        expect({ W, radius, differ }).toEqual({ W, radius, differ: 0 });
        expect(fast.f32).toEqual(ref.f32);
      }
      expect(ref.sum.some((v) => v > 0)).toBe(true);
      cases++;
    }
    expect(cases).toBe(4);
  });

  test('pad grows the input canvas by the radius bound', () => {
    expect(
      density.pad!((f) => (f === 'radius' ? 17.2 : undefined), 'features', {
        op: 'density',
      }),
    ).toBe(18);
  });
});

describe('CPU/GPU parity', () => {
  const W = PARITY_WINDOW;

  gpuTest('density: the r32float field itself, random radius, intensity and weights', async () => {
    const g = GPU!;
    for (const seed of [41, 42]) {
      const r = rng(seed);
      const style = {
        output: 'out',
        sources: randomSource(seed, { points: 80 }),
        nodes: {
          f: { op: 'features' },
          d: { op: 'density', features: '@f', radius: 4 + 20 * r(), intensity: 0.2 + 3 * r(), 'weight-expr': ['get', 'v'] },
          out: rampOut('@d', [0, '#00000000'], [1, '#ff0000']),
        },
      };
      const tc = tap(new CpuBackend(), 'd');
      const tg = tap(g, 'd');
      await renderOn(tc.backend, style, W);
      await renderOn(tg.backend, style, W);
      const a = tc.value().data;
      const b = tg.value().data;
      expect(b.length).toBe(a.length);
      let max = 0;
      let worst = 0;
      for (let i = 0; i < a.length; i++) {
        max = Math.max(max, a[i]!);
        worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
      }
      expect(max).toBeGreaterThan(0.05); // the field is not trivially empty
      expect(worst).toBeLessThanOrEqual(1e-5 * Math.max(max, 1));
    }
  });
});
