// displace's demand (demand.ts, src/graph/demand.ts): the displacement pixels it leaves unmarked
// change no output pixel. Witness: the displace kernels themselves (displaceReference, the plain
// bilinear reads, and the op's kernel) over the whole displacement and over one whose unmarked
// pixels are replaced by arbitrary finite values: the outputs must be equal bit for bit
// (Object.is), for random sparse inputs, amplitudes, boundary rules and windows at the world's
// edges. The WebAssembly marks equal the TypeScript ones; a render with demand equals one without.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { NodeCache, Renderer, type Window } from '../../index.js';
import { cropData } from '../../backends/cpu/raster.js';
import { buildPlan } from '../../graph/build.js';
import { demandPlan, demandRuns } from '../../graph/demand.js';
import { loadStyle } from '../../style/load.js';
import type { Canvas } from '../../types.js';
import { arenaAlloc, arenaFree } from '../../util/wasm-arena.js';
import { randomFeatures } from '../../../tests/gpu/harness.js';
import type { OpContext } from '../types.js';
import { noise } from '../noise/index.js';
import { displace, displaceReference } from './cpu.js';
import { displaceDemand } from './demand.js';
import { type Boundary, displacePlan } from './plan.js';
import { rng } from '../../../tests/helpers/random.js';

const grow = (c: Canvas, m: number): Canvas => ({ ...c, x0: c.x0 - m, y0: c.y0 - m, width: c.width + 2 * m, height: c.height + 2 * m });

/** A displace node's context as the render gives it: its canvas, amplitudes and their bound. */
function context(c: Canvas, ampX: number, ampY: number, bound: number, boundary: Boundary): OpContext {
  const values: Record<string, number> = { 'amp-px': ampX, 'amp-x-px': ampX, 'amp-y-px': ampY };
  return {
    canvas: c,
    node: { op: 'displace', boundary },
    has: (f: string) => f in values,
    bound: () => bound,
    num: (f: string) => Math.min(values[f]!, bound),
  } as unknown as OpContext;
}

// -0 and the non-finite values too: a read at weight 0 still shows in the bits there (-0 + +0 is
// +0, Infinity x 0 is NaN), so the marks must cover every pixel a kernel reads, not only those it weighs.
const value = fc.oneof(
  fc.constant(0),
  fc.constant(-0),
  fc.constant(1),
  fc.constant(0.5),
  fc.constantFrom(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN),
  fc.float({ min: -2, max: 2, noNaN: true, noDefaultInfinity: true }),
);
const pixel = fc.tuple(value, value, value, value);

const arbCase = fc.record({
  z: fc.constantFrom(0, 1, 12),
  w: fc.integer({ min: 1, max: 40 }),
  h: fc.integer({ min: 1, max: 40 }),
  // rows: near the world's north edge, its south edge, or inside
  where: fc.constantFrom('north', 'south', 'inside'),
  x: fc.integer({ min: -300, max: 300 }),
  ampX: fc.oneof(fc.constantFrom(0, 0.3, 1, 1.2, 2.5, 5, 1 - 1e-12, 2 - 1e-7, 3 + 1e-12), fc.float({ min: 0, max: 6, noNaN: true, noDefaultInfinity: true })),
  ampY: fc.oneof(fc.constantFrom(0, 0.3, 1, 1.2, 2.5, 5, 1 - 1e-12, 2 - 1e-7, 3 + 1e-12), fc.float({ min: 0, max: 6, noNaN: true, noDefaultInfinity: true })),
  extra: fc.float({ min: 0, max: 3, noNaN: true, noDefaultInfinity: true }),
  boundary: fc.constantFrom<Boundary>('clamp', 'transparent', 'mirror'),
  // the input's canvas against the kernel's view: larger, equal or smaller (a crop reads +0 outside)
  fromGrow: fc.integer({ min: -2, max: 3 }),
  maskGrow: fc.integer({ min: 0, max: 3 }),
  background: fc.oneof(fc.constant([0, 0, 0, 0]), pixel),
  rects: fc.array(fc.record({ x: fc.nat(60), y: fc.nat(60), w: fc.integer({ min: 1, max: 8 }), h: fc.integer({ min: 1, max: 8 }), px: pixel }), {
    maxLength: 6,
  }),
  dots: fc.array(fc.record({ x: fc.nat(60), y: fc.nat(60), px: pixel }), { maxLength: 8 }),
  seed: fc.nat(),
});

type Case = typeof arbCase extends fc.Arbitrary<infer T> ? T : never;

/** The case's displace canvas, context, input (over its own canvas) and the kernel's view of it. */
function setUp(k: Case) {
  const world = 256 * 2 ** k.z;
  const y0 = k.where === 'north' ? -3 : k.where === 'south' ? world - k.h + 3 : Math.floor(world / 2);
  const c: Canvas = { z: k.z, x0: k.x, y0, width: k.w, height: k.h, tileSize: 256 };
  const bound = Math.max(k.ampX, k.ampY) + k.extra;
  const ctx = context(c, k.ampX, k.ampY, bound, k.boundary);
  const p = displacePlan(ctx);
  const from = grow(c, Math.max(0, p.pad + k.fromGrow));
  const data = new Float32Array(from.width * from.height * 4);
  for (let i = 0; i < data.length; i++) data[i] = k.background[i & 3]!;
  const put = (x: number, y: number, px: number[]) => {
    if (x < 0 || y < 0 || x >= from.width || y >= from.height) return;
    data.set(px, (y * from.width + x) * 4);
  };
  for (const r of k.rects) for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) put(x, y, r.px);
  for (const d of k.dots) put(d.x, d.y, d.px);
  const view = grow(c, p.pad);
  const src = cropData(data, 4, from, view).slice();
  return { c, ctx, p, from, data, view, src };
}

describe('displace demand: unmarked displacement pixels change no output pixel', () => {
  test('random sparse inputs, amplitudes, boundary rules, world edges: the same output bits (displaceReference and the kernel)', () => {
    fc.assert(
      fc.property(arbCase, (k) => {
        const { c, ctx, p, from, data, view, src } = setUp(k);
        const maskCanvas = grow(c, k.maskGrow);
        const mask = new Uint8Array(maskCanvas.width * maskCanvas.height);
        const read = () => ({ value: { kind: 'raster' as const, width: from.width, height: from.height, data }, canvas: from });
        expect(displaceDemand('displacement', ctx, read, mask, maskCanvas)).toBe(true);
        const r = rng(k.seed);
        const disp = new Float32Array(c.width * c.height * 4);
        // Offsets anywhere in the amplitude and past it (clamped): 0 and 1 reach it exactly.
        const pick = (a: number) => (a < 0.2 ? 0 : a < 0.4 ? 1 : a < 0.45 ? -1 : a < 0.5 ? 2 : r());
        for (let i = 0; i < disp.length; i++) disp[i] = (i & 3) === 3 ? (r() < 0.8 ? 1 : r()) : pick(r());
        // Unmarked pixels: any finite value, the offset's clamp included.
        const other = disp.slice();
        for (let j = 0; j < c.height; j++)
          for (let i = 0; i < c.width; i++) {
            const m = (j + k.maskGrow) * maskCanvas.width + i + k.maskGrow;
            if (mask[m]) continue;
            for (let ch = 0; ch < 4; ch++) other[(j * c.width + i) * 4 + ch] = ch === 3 ? r() : r() * 6 - 3;
          }
        for (const kernel of [displaceReference, displace]) {
          const a = kernel(src, view.width, view.height, disp, c.width, c.height, p).slice();
          const b = kernel(src, view.width, view.height, other, c.width, c.height, p).slice();
          for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) throw new Error(`${kernel.name}: value ${i} ${a[i]} != ${b[i]}`);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('the WebAssembly marks (input and mask in the canvas arena) equal the TypeScript ones', () => {
    let wasm = 0;
    fc.assert(
      fc.property(arbCase, (k) => {
        const { c, ctx, from, data } = setUp(k);
        const maskCanvas = grow(c, k.maskGrow);
        const n = maskCanvas.width * maskCanvas.height;
        const plain = new Uint8Array(n);
        displaceDemand(
          'displacement',
          ctx,
          () => ({ value: { kind: 'raster', width: from.width, height: from.height, data }, canvas: from }),
          plain,
          maskCanvas,
        );
        const src = arenaAlloc(data.length, false);
        const block = arenaAlloc(Math.ceil(n / 4), true);
        if (!src || !block) return;
        try {
          src.set(data);
          const mask = new Uint8Array(block.buffer, block.byteOffset, n);
          displaceDemand(
            'displacement',
            ctx,
            () => ({ value: { kind: 'raster', width: from.width, height: from.height, data: src }, canvas: from }),
            mask,
            maskCanvas,
          );
          if (k.fromGrow >= 0) wasm++;
          for (let i = 0; i < n; i++) if (mask[i] !== plain[i]) throw new Error(`mask byte ${i}: ${mask[i]} != ${plain[i]}`);
        } finally {
          arenaFree(src);
          arenaFree(block);
        }
      }),
      { numRuns: 300 },
    );
    expect(wasm).toBeGreaterThan(0);
  });

  test('noise asks for a demand only where its WebAssembly simplex octaves run (bounded memory: the marks are a byte a pixel)', () => {
    const n = noise.honoursDemand!;
    const c = (width: number, height: number): Canvas => ({ z: 3, x0: 0, y0: 0, width, height, tileSize: 256 });
    expect(n({ op: 'noise', kind: 'simplex' })).toBe(true);
    expect(n({ op: 'noise', kind: 'simplex' }, c(512, 512))).toBe(true);
    expect(n({ op: 'noise', kind: 'simplex' }, c(2048, 1025))).toBe(false); // over NOISE_WASM_MAX_PIXELS
    expect(n({ op: 'noise', kind: 'simplex' }, c(8193, 4))).toBe(false); // over NOISE_WASM_MAX_WIDTH
    expect(n({ op: 'noise', kind: 'value' }, c(256, 256))).toBe(false);
    expect(n({ op: 'noise' })).toBe(false); // value by default
  });

  test('demandRuns: the marked pixels as runs, gaps up to 8 joined', () => {
    const mask = Uint8Array.from([0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0]);
    // row 0 (16 px): 1-2 and 11-13 (8 unmarked between: joined); row 1: 14
    expect([...demandRuns(mask, 16, 2)]).toEqual([0, 1, 13, 1, 14, 1]);
    expect([...demandRuns(mask, 16, 2, 4)]).toEqual([0, 1, 2, 0, 11, 3, 1, 14, 1]);
  });
});

describe('demand in a render', () => {
  const W: Window = { z: 12, x0: 2201 * 256 + 17, y0: 1343 * 256 + 9, width: 96, height: 80, tileSize: 256 };
  const style = {
    output: 'out',
    params: { wobble: { type: 'number', default: 2.5, min: 0, max: 4 } },
    sources: { src: { type: 'geojson', data: randomFeatures(5, W, { lines: 6 }, 30) } },
    nodes: {
      f: { op: 'features', source: 'src' },
      lines: { op: 'stroke-solid', features: '@f', width: 1.2, color: '#603010' },
      field: { op: 'noise', kind: 'simplex', 'scale-px': 9, octaves: 2, seed: 4, output: 'raster' },
      moved: { op: 'displace', input: '@lines', displacement: '@field', 'amp-px': '$wobble' },
      out: { op: 'blend', base: '@lines', over: '@moved', mode: 'multiply' },
    },
  };

  test('a noise read only by displaces is a demand node; the render equals one without demand (a node cache turns it off), bit for bit', async () => {
    const plan = buildPlan(loadStyle(style));
    const d = demandPlan(plan);
    expect([...d.readers.keys()]).toEqual(['field']);
    for (const wobble of [0, 1.3, 4]) {
      const a = await Renderer.create(style).renderWindow(W, Renderer.create(style).params({ wobble: String(wobble) }));
      const b = await Renderer.create(style, { nodeCache: new NodeCache(64 << 20) }).renderWindow(W, Renderer.create(style).params({ wobble: String(wobble) }));
      let diff = 0;
      for (let i = 0; i < a.raster.data.length; i++) if (!Object.is(a.raster.data[i], b.raster.data[i])) diff++;
      expect({ wobble, diff }).toEqual({ wobble, diff: 0 });
    }
  });

  test("watercolour: its displaces read a value noise (`wander`), which computes every pixel: no demand node, the plan's order", () => {
    const doc = JSON.parse(readFileSync(new URL('../../../examples/watercolor/style.json', import.meta.url), 'utf8'));
    const plan = buildPlan(loadStyle(doc));
    const d = demandPlan(plan);
    expect(d.readers.size).toBe(0);
    expect(d.order).toEqual(plan.order);
    // As a simplex noise: after the three inputs its displaces move, in a topological order of the same nodes.
    doc.nodes.wander.kind = 'simplex';
    const simplex = buildPlan(loadStyle(doc));
    const s = demandPlan(simplex);
    expect(
      s.readers
        .get('wander')
        ?.map((r) => r.id)
        .sort(),
    ).toEqual(['borders-wobbly', 'land-wobbly', 'rim']);
    expect([...s.order].sort()).toEqual([...simplex.order].sort());
    const at = new Map(s.order.map((id, i) => [id, i]));
    for (const id of s.order) for (const e of simplex.nodes.get(id)!.edges) expect(at.get(e.from)!).toBeLessThan(at.get(id)!);
    for (const id of ['land-shape', 'rim-line', 'borders']) expect(at.get(id)!).toBeLessThan(at.get('wander')!);
  });
});
