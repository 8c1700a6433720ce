// Margins from the param values of a render (src/graph/margins.ts): a blur or displace whose
// `$param` is below its max reads less, so the canvases upstream shrink to what is read, and the
// pixels stay the same bits. Witnesses: the closed forms of what each kernel reads (the Gaussian
// truncated at ceil(3 sigma); a displacement of amplitude a moves a read at most a px, plus the
// bilinear neighbour), and the same graph rendered with margins from the maxima (an `@node` port
// with a `-max` is never sized by its value) for random values (fast-check).
import fc from 'fast-check';
import { NodeCache, Renderer, tileWindow, type Raster, type Window } from '../../src/index.js';
import { renderMargins } from '../../src/graph/margins.js';
import { OPS } from '../../src/ops/index.js';
import { blurFast, readMargin } from '../../src/ops/blur/cpu.js';
import { decimationFactor, gaussianKernel } from '../../src/ops/blur/plan.js';
import { squareFeature } from '../helpers/geometry.js';

const blur = OPS.get('blur')!;
const displace = OPS.get('displace')!;
const padOf = (op: typeof blur, field: string, v: number, input = 'input') =>
  Math.ceil(op.pad!((f) => (f === field ? op.valueBound!(field, v, 1e9, { op: op.name }) : undefined), input, { op: op.name }));

/** A one-channel plane of `n` x 1 with a 1 at `at`, as RGBA. */
function impulse(n: number, at: number): Float32Array {
  const src = new Float32Array(n * 4);
  src.set([1, 1, 1, 1], at * 4);
  return src;
}

describe('what a blur of sigma s reads (closed form: the Gaussian truncated at ceil(3 s))', () => {
  for (const s of [0.2, 0.5, 1, 1.7, 2.5, 3.3, 3.9]) {
    test(`sigma ${s}: the pad is ceil(3 s) = ${Math.ceil(3 * s)}, and a pixel feels exactly the pixels within it`, () => {
      const r = Math.ceil(3 * s);
      expect(decimationFactor(s)).toBe(1);
      expect(padOf(blur, 'sigma', s)).toBe(r);
      expect(gaussianKernel(s).length).toBe(2 * r + 1);
      // One output pixel over a row with a dot at distance d: lit exactly while d <= r.
      for (let d = 0; d <= r + 3; d++) {
        const n = 2 * (r + 4) + 1;
        const out = blurFast(impulse(n, r + 4 + d), n, 1, r + 4, 0, 1, 1, s);
        expect({ d, lit: out[3]! > 0 }).toEqual({ d, lit: d <= r });
      }
    });
  }
  for (const s of [4, 5.5, 8, 13]) {
    test(`sigma ${s} (decimated by ${decimationFactor(s)}): the pad is readMargin = ceil(3 s) + 4k + 2, and nothing past it changes a bit`, () => {
      const k = decimationFactor(s);
      const m = Math.ceil(3 * s) + 4 * k + 2;
      expect(readMargin(s)).toBe(m);
      expect(padOf(blur, 'sigma', s)).toBe(m);
      // 16 x 16 output over a source padded by m, and by m + 9 with random pixels in the extra ring.
      const w = 16;
      let seed = 7;
      const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
      const big = w + 2 * (m + 9);
      const wide = new Float32Array(big * big * 4).map(rnd);
      const tight = new Float32Array((w + 2 * m) ** 2 * 4);
      for (let y = 0; y < w + 2 * m; y++) tight.set(wide.subarray(((y + 9) * big + 9) * 4, ((y + 9) * big + 9 + w + 2 * m) * 4), y * (w + 2 * m) * 4);
      // The same world origin for both (blocks are aligned to world pixels).
      const a = blurFast(tight, w + 2 * m, w + 2 * m, m, m, w, w, s, 100 - m, 100 - m);
      const b = blurFast(wide, big, big, m + 9, m + 9, w, w, s, 100 - m - 9, 100 - m - 9);
      expect(Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength))).toBe(true);
    });
  }
});

describe('what a displace of amplitude a reads (closed form: <= ceil(a) px, + 1 for the bilinear neighbour)', () => {
  for (const a of [0, 0.4, 1, 2.5, 5, 11.2]) {
    test(`amplitude ${a}: the pad is ceil(a) + 1 = ${Math.ceil(a) + 1}; the displacement raster needs none`, () => {
      expect(padOf(displace, 'amp-px', a)).toBe(Math.ceil(a) + 1);
      expect(padOf(displace, 'amp-px', a, 'displacement')).toBe(0);
    });
  }
});

describe('what a dilate or erode of radius r reads (closed form: the (2 round(r) + 1)-square, round(r) px)', () => {
  for (const name of ['dilate', 'erode'])
    for (const r of [0, 0.4, 1, 2.5, 7.6]) {
      test(`${name} ${r}: the pad is round(r) = ${Math.round(r)}`, () => {
        expect(padOf(OPS.get(name)!, 'radius-px', r)).toBe(Math.round(r));
      });
    }
});

const squares = {
  type: 'geojson',
  data: { type: 'FeatureCollection', features: [squareFeature(-40, -20, 50), squareFeature(20, 10, 30), squareFeature(-100, 30, 20)] },
};

/** A filter of the random chains: a blur, a displace by the wander noise, a dilate or an erode, its size a param. */
type Step = { op: 'blur' | 'displace' | 'dilate' | 'erode'; max: number; value: number; axis?: 'x' | 'y' };

/**
 * A chain of filters over a fill and a noise, as a style: `viaPort` reads each size through an
 * `@node` port bounded by `-max` (margins from the maxima, as every render sized them before),
 * else through its `$param` (margins from the value).
 */
function chainStyle(steps: Step[], viaPort: boolean) {
  const params: Record<string, unknown> = {};
  const nodes: Record<string, unknown> = {
    f: { op: 'features', source: 's' },
    fill: { op: 'fill-solid', features: '@f', fill: '#336699' },
    wander: { op: 'noise', 'scale-px': 20, octaves: 2, seed: 3, output: 'raster' },
    tone: { op: 'noise', 'scale-px': 30, octaves: 1, seed: 1, kind: 'simplex' },
    ramp: {
      op: 'color-ramp',
      field: '@tone',
      stops: [
        { value: 0.2, color: '#ffffff' },
        { value: 0.8, color: '#c08040' },
      ],
    },
    shaded: { op: 'blend', base: '@ramp', over: '@fill', mode: 'multiply' },
    // Paints whose canvases shrink too (a brush stroke keeps its own: OpDef.keepsCanvas).
    line: { op: 'stroke-solid', features: '@f', width: 2.3, color: '#aa3311' },
    dots: { op: 'circles', features: '@f', vertices: true, radius: 4.5, color: '#1144aa', 'stroke-width': 1, 'stroke-color': '#ffffff' },
    pen: { op: 'brush-solid', 'width-px': 2, color: '#222222', hardness: 0.3 },
    brushed: { op: 'stroke', features: '@f', brush: '@pen', 'scatter-px': 1, 'size-jitter': 0.4, seed: 3 },
    lined: { op: 'blend', base: '@shaded', over: '@line' },
    dotted: { op: 'blend', base: '@lined', over: '@dots', opacity: 0.7 },
    base: { op: 'blend', base: '@dotted', over: '@brushed', mode: 'multiply' },
  };
  let prev = 'base';
  steps.forEach((s, i) => {
    const p = `p${i}`;
    params[p] = { type: 'number', default: s.value, min: 0, max: s.max };
    const field = s.op === 'blur' ? 'sigma' : s.op === 'dilate' || s.op === 'erode' ? 'radius-px' : s.axis ? `amp-${s.axis}-px` : 'amp-px';
    let ref = `$${p}`;
    const extra: Record<string, unknown> = {};
    if (viaPort) {
      nodes[`m${i}`] = { op: 'math', fn: 'add', a: `$${p}`, b: 0 };
      ref = `@m${i}`;
      extra[`${field}-max`] = s.max;
    }
    if (s.op === 'displace' && s.axis) extra['amp-px'] = 0;
    nodes[`n${i}`] =
      s.op === 'blur' || s.op === 'dilate' || s.op === 'erode'
        ? { op: s.op, input: `@${prev}`, [field]: ref, ...extra }
        : { op: 'displace', input: `@${prev}`, displacement: '@wander', [field]: ref, boundary: 'transparent', ...extra };
    prev = `n${i}`;
  });
  // The last filter read through a blend and beside the unfiltered base (two readers, two needs).
  nodes.out = { op: 'blend', base: '@base', over: `@${prev}`, mode: 'multiply', opacity: 0.8 };
  return { output: 'out', params, sources: { s: squares }, nodes };
}

const bytes = (r: Raster) => Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength);

describe('margins from values against margins from maxima (fast-check)', () => {
  test('a watercolour-like chain: the canvases upstream of a blur and a displace shrink with their values', () => {
    const r = Renderer.create(
      chainStyle(
        [
          { op: 'displace', max: 12, value: 5 },
          { op: 'blur', max: 8, value: 2.5 },
        ],
        false,
      ),
    );
    const m = renderMargins(r.plan, r.params({}), 1);
    expect(r.plan.nodes.get('base')!.margin).toBe(24 + 13); // the maxima: 3 x 8, then 12 + 1
    expect(m.margin.get('base')).toBe(8 + 6); // the values: ceil(7.5), then ceil(5) + 1
    expect(m.margin.get('wander')).toBe(8);
    expect(m.margin.get('f')).toBe(r.plan.nodes.get('f')!.margin); // features keep the plan's margin
    expect(renderMargins(r.plan, r.params({}), 2).margin.get('base')).toBe(25 + 11); // @2x: sigma 5 is decimated by 2 (15 + 4 x 2 + 2), ceil(10) + 1
  });

  test('random chains, values and windows: the same bits', async () => {
    const step = fc.oneof(
      fc.record({ op: fc.constant('blur' as const), max: fc.double({ min: 0.5, max: 10, noNaN: true }), frac: fc.double({ min: 0, max: 1, noNaN: true }) }),
      fc.record({
        op: fc.constant('displace' as const),
        max: fc.double({ min: 0.5, max: 14, noNaN: true }),
        frac: fc.double({ min: 0, max: 1, noNaN: true }),
        axis: fc.constantFrom(undefined, 'x' as const, 'y' as const),
      }),
      fc.record({
        op: fc.constantFrom('dilate' as const, 'erode' as const),
        max: fc.integer({ min: 1, max: 9 }),
        frac: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 3 }),
        fc.record({ z: fc.integer({ min: 1, max: 3 }), tx: fc.nat(), ty: fc.nat(), size: fc.constantFrom(32, 48, 64), ratio: fc.constantFrom(1, 1, 2) }),
        async (raw, w) => {
          const steps: Step[] = raw.map((s) => ({ ...s, value: s.max * s.frac }));
          const n = 2 ** w.z;
          const win: Window = { ...tileWindow({ z: w.z, x: w.tx % n, y: w.ty % n }, w.size * w.ratio), pixelRatio: w.ratio };
          const byValue = Renderer.create(chainStyle(steps, false));
          const byMax = Renderer.create(chainStyle(steps, true));
          const a = (await byValue.renderWindow(win, byValue.params({}))).raster;
          const b = (await byMax.renderWindow(win, byMax.params({}))).raster;
          expect(bytes(a).equals(bytes(b))).toBe(true);
        },
      ),
      { numRuns: 40, seed: 20261127 },
    );
  });
});

describe('the node cache with margins from values', () => {
  const style = {
    output: 'out',
    params: { s: { type: 'number', default: 1, min: 0, max: 6 } },
    nodes: {
      tone: { op: 'noise', 'scale-px': 12, octaves: 2, seed: 4, kind: 'simplex' },
      ramp: {
        op: 'color-ramp',
        field: '@tone',
        stops: [
          { value: 0, color: '#000000' },
          { value: 1, color: '#ffffff' },
        ],
      },
      out: { op: 'blur', input: '@ramp', sigma: '$s' },
    },
  };
  const W: Window = { z: 3, x0: 300, y0: 520, width: 64, height: 64, tileSize: 256 };

  test("with a node cache the canvases are the plan's: a change of sigma re-runs the blur alone, the same bits as renders sized by the values", async () => {
    const cached = Renderer.create(style, { nodeCache: new NodeCache() });
    const plain = Renderer.create(style);
    // Without a cache the noise's canvas is grown by ceil(3 s); with one, by the plan's 18 px.
    expect(renderMargins(plain.plan, plain.params({ s: '1' }), 1).margin.get('tone')).toBe(3);
    expect(renderMargins(cached.plan, undefined, 1).margin.get('tone')).toBe(18);
    const first = await cached.renderWindow(W, cached.params({ s: '1' }));
    expect(first.stats.nodes).toBe(3);
    expect(bytes(first.raster).equals(bytes((await plain.renderWindow(W, plain.params({ s: '1' }))).raster))).toBe(true);
    for (const s of ['4', '6', '0.5']) {
      const again = await cached.renderWindow(W, cached.params({ s }));
      expect({ s, ...again.stats }).toMatchObject({ s, nodes: 1, cached: 2 });
      expect(bytes(again.raster).equals(bytes((await plain.renderWindow(W, plain.params({ s }))).raster))).toBe(true);
    }
  });

  test('an entry serves only canvases its own holds (a render that needs more computes the node again)', () => {
    const cache = new NodeCache();
    const canvas = { ...W, x0: W.x0 - 8, y0: W.y0 - 8, width: W.width + 16, height: W.height + 16 };
    const value = { kind: 'scalar', value: 1 } as const;
    cache.set('k', value, canvas);
    expect(cache.get('k', W)?.canvas).toEqual(canvas);
    expect(cache.get('k', canvas)?.value).toBe(value);
    expect(cache.get('k', { ...canvas, x0: canvas.x0 - 1 })).toBeUndefined();
    expect(cache.get('k', { ...canvas, height: canvas.height + 1 })).toBeUndefined();
  });
});
