// stroke: the dab lattice and profile against closed forms, tile seams, errors, CPU/GPU parity.
import sharp from 'sharp';
import { CpuBackend, Renderer, type Raster, type Window } from '../../index.js';
import { decodeImage } from '../../hosts/node/image.js';
import { NodeLoader } from '../../hosts/node/loader.js';
import type { Loader } from '../../sources/types.js';
import { checkParity, diffRasters, gpuDescribe, GPU, randomFeatures, renderOn, testWindow, GEOMETRY_TOL } from '../../../tests/gpu/harness.js';
import { lines, lonLat, TS, WIN, Z } from '../../../tests/helpers/op-window.js';
import { roundProfile, pressureOf, singleDabs, strokeDabs } from './plan.js';
import { drawDabs, drawDabsReference } from './cpu.js';
import { drawDabsWasm } from './simd.js';
import { arenaAlloc, arenaFree, inArena } from '../../util/wasm-arena.js';
import type { OpContext } from '../types.js';
import { mosaicMaxDiff } from '../../../tests/helpers/seam.js';
import type { RGBA } from '../../types.js';
import { ADDON, announceAddon, useNative } from '../../../tests/helpers/native.js';
import { bindNativeKernels, nativeKernels } from '../../util/native-kernels.js';

announceAddon('stroke.test');

/**
 * The round-dab kernels drawDabsWasm and dabLayer run, each with how to bind it: stroke.wat, and
 * the kernels addon's copies of them (native/dabs.h) where the addon is built: its AVX-512 copy
 * where the CPU has it (as the Node host binds it), its portable copy (what a CPU without AVX-512
 * would run) always.
 */
const DAB_KERNELS: [string, () => void][] = [
  ['WebAssembly (stroke.wat)', () => useNative(false)],
  ...(ADDON?.simd === 'avx512' ? [['native AVX-512 (dabs.h)', () => useNative(true)] as [string, () => void]] : []),
  ...(ADDON
    ? [
        [
          'native portable (dabs.h)',
          () => {
            useNative(true);
            const dabs = ADDON!.dabs;
            // the draw as simd.ts calls it, with the portable copy asked for
            const portable = (...a: Parameters<typeof dabs>) => {
              a[17] = 1;
              return dabs(...a);
            };
            const lay = ADDON!.lay;
            bindNativeKernels({ name: 'test', noise: ADDON!.noise, ...nativeKernels(), dabs: portable, lay: (mem, at, args) => lay(mem, at, args, 1) });
          },
        ] as [string, () => void],
      ]
    : []),
];

/** World pixel -> [lon, lat] at zoom z and tile size ts. */
function style(
  data: object,
  strokeNode: Record<string, unknown>,
  brush: Record<string, unknown> = { op: 'brush-solid', 'width-px': 6, color: '#204080' },
): object {
  return {
    output: 'out',
    sources: { l: { type: 'geojson', data, buffer: 128, tolerance: 0 } },
    nodes: { f: { op: 'features' }, brush, out: { op: 'stroke', features: '@f', brush: '@brush', ...strokeNode } },
  };
}

async function cpu(s: object, w: Window = WIN, loader?: Loader): Promise<Raster> {
  const r = Renderer.create(s, loader ? { loader } : {});
  return (await r.renderWindow(w, r.params(), { backend: new CpuBackend() })).raster;
}

/** Max absolute difference of two rasters' float values. */
function maxDiff(a: Raster, b: Raster): number {
  let m = 0;
  for (let i = 0; i < a.data.length; i++) m = Math.max(m, Math.abs(a.data[i]! - b.data[i]!));
  return m;
}

describe('stroke: dab profile and lattice', () => {
  afterEach(() => useNative(true));

  test('the round profile: hard + aa 1 is the circles coverage; hardness fades linearly; aa 0 is a step', () => {
    for (const d of [0, 2, 4.6, 5, 5.3, 6]) expect(roundProfile(d, 5, 1, 1)).toBeCloseTo(Math.min(1, Math.max(0, 5 - d + 0.5)), 12);
    expect(roundProfile(3, 4, 0.5, 0)).toBeCloseTo(0.5, 12); // fade from 2 to 4
    expect(roundProfile(4.01, 4, 1, 0)).toBe(0);
    expect(roundProfile(3.99, 4, 1, 0)).toBe(1);
  });

  test('pressure curve: piecewise linear, sorted, clamped at the ends', () => {
    const p = pressureOf([
      [1, 0.2],
      [0, 0],
      [0.5, 1],
    ]);
    [p(-1), p(0), p(0.25), p(0.5), p(0.75), p(1), p(2)].forEach((v, i) => expect(v).toBeCloseTo([0, 0, 0.5, 1, 0.6, 0.2, 0.2][i]!, 12));
  });

  test('a hard brush with dense dabs along a straight line converges to stroke-solid of the same width (round caps)', async () => {
    const data = lines([
      [20.3, 40.7, 110.2, 70.1],
      [30, 100, 100, 100],
    ]);
    const dense = await cpu(style(data, {}, { op: 'brush-solid', 'width-px': 7, color: '#204080', 'dabs-per-radius': 16 }));
    const solid = await cpu({
      output: 'out',
      sources: { l: { type: 'geojson', data, buffer: 128, tolerance: 0 } },
      nodes: { f: { op: 'features' }, out: { op: 'stroke-solid', features: '@f', width: 7, color: '#204080', cap: 'round', join: 'round' } },
    });
    // Dab coverage is a distance ramp at the pixel centre, stroke-solid's the exact pixel area:
    // they agree to a few percent on slanted edges and exactly on straight ones.
    expect(maxDiff(dense, solid)).toBeLessThan(0.09);
    let sum = 0;
    for (let i = 0; i < dense.data.length; i += 4) sum += Math.abs(dense.data[i + 3]! - solid.data[i + 3]!);
    expect(sum / (dense.width * dense.height)).toBeLessThan(0.002);
    // Horizontal line y = 100, width 7 (96.5 to 103.5): rows 97..102 covered, rows 96 and 103 half, as the area rule says.
    const a = (x: number, y: number) => dense.data[(y * dense.width + x) * 4 + 3]!;
    for (const [y, v] of [
      [95, 0],
      [96, 0.5],
      [97, 1],
      [100, 1],
      [102, 1],
      [103, 0.5],
      [104, 0],
    ])
      expect(a(60, y!)).toBeCloseTo(v!, 2);
  });

  test('runs (the nearest dab by projection) draw exactly what their dabs drawn one by one do', () => {
    const canvas = { z: 8, x0: 1000, y0: 2000, width: 96, height: 80, tileSize: 256 };
    const r = (() => {
      let s = 3;
      return () => (s = (s * 16807) % 2147483647) / 2147483647;
    })();
    const lines = Array.from({ length: 6 }, () => Float64Array.from({ length: 10 }, (_, i) => (i % 2 ? canvas.y0 : canvas.x0) - 10 + r() * 110));
    const node = { op: 'stroke', features: '@f', brush: '@b', 'width-scale': 1 };
    const ctx = {
      id: 's',
      node,
      canvas,
      window: canvas,
      zoom: 8,
      input: () => ({
        kind: 'features',
        groups: [
          { properties: {}, polygons: [], lines, points: new Float64Array(0) },
          { properties: { k: 1 }, polygons: [], lines: lines.slice(3), points: new Float64Array(0) },
        ],
      }),
      num: (_f: string, fb?: number) => fb,
      color: (_f: string, fb?: RGBA) => fb,
      expr: () => undefined,
    } as unknown as OpContext;
    for (const brush of [
      { widthPx: 5, spacing: 1 / 8, hardness: 1, aa: 1 },
      { widthPx: 3.3, spacing: 1 / 3, hardness: 0.4, aa: 0.6 },
      { widthPx: 0.6, spacing: 1 / 2, hardness: 0, aa: 0 },
    ]) {
      const d = strokeDabs(ctx, { kind: 'brush', tip: { kind: 'sprite', width: 1, height: 1, data: Float32Array.of(0.1, 0.2, 0.3, 0.5) }, ...brush });
      expect(d.runCount).toBeGreaterThan(0);
      const one = singleDabs(d);
      const withRuns = drawDabs(d, 96, 80);
      const oneByOne = drawDabs({ ...d, ...one, runs: new Float64Array(0), runGroup: new Uint32Array(0), runCount: 0 }, 96, 80);
      let m = 0;
      for (let i = 0; i < withRuns.data.length; i++) m = Math.max(m, Math.abs(withRuns.data[i]! - oneByOne.data[i]!));
      expect({ brush, max: m < 1e-5 ? 'same' : m }).toEqual({ brush, max: 'same' });
    }
  });

  test.each(DAB_KERNELS)('the %s kernel draws bit for bit what the TypeScript reference draws', (_name, bind) => {
    // Witness: drawDabsReference (cpu.ts), the kernel the op ran before the WebAssembly port; the
    // kernel copying the canvas through its scratch memory, and in place on a canvas in the arena.
    // Lines run past the canvas (dabs' blocks across its edges), features of every size (the
    // addon's eight-dab steps end short at every length).
    bind();
    const canvas = { z: 8, x0: 1000, y0: 2000, width: 97, height: 83, tileSize: 256 };
    let seed = 7;
    const r = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const lines = Array.from({ length: 8 }, () => Float64Array.from({ length: 12 }, (_, i) => (i % 2 ? canvas.y0 : canvas.x0) - 12 + r() * 120));
    const ring = Float64Array.from({ length: 10 }, (_, i) => (i % 2 ? canvas.y0 : canvas.x0) + 10 + r() * 60);
    const groups = [
      { properties: {}, polygons: [], lines: lines.slice(0, 3), points: new Float64Array(0) },
      { properties: { k: 1 }, polygons: [[ring]], lines: lines.slice(3, 6), points: new Float64Array(0) },
      { properties: { k: 2 }, polygons: [], lines: lines.slice(5), points: new Float64Array(0) },
    ];
    const ctxOf = (fields: Record<string, number>) =>
      ({
        id: 's',
        node: { op: 'stroke', features: '@f', brush: '@b', ...fields },
        canvas,
        window: canvas,
        zoom: 8,
        input: () => ({ kind: 'features', groups }),
        num: (f: string, fb?: number) => fields[f] ?? fb,
        color: (_f: string, fb?: RGBA) => fb,
        expr: () => undefined,
      }) as unknown as OpContext;
    const tip = { kind: 'sprite' as const, width: 1, height: 1, data: Float32Array.of(0.1, 0.2, 0.3, 0.5) };
    let cases = 0;
    for (const brush of [
      { widthPx: 1.4, spacing: 1 / 4, hardness: 0.6, aa: 1 },
      { widthPx: 6, spacing: 1 / 2, hardness: 0.2, aa: 1 },
      { widthPx: 3.3, spacing: 1 / 3, hardness: 1, aa: 0.6 },
      { widthPx: 2.5, spacing: 1 / 2, hardness: 0.3, aa: 0 },
      { widthPx: 0.6, spacing: 1 / 2, hardness: 0, aa: 0 },
    ]) {
      for (const fields of [
        { 'scatter-px': 1.5, 'size-jitter': 0.5, 'opacity-jitter': 0.6, opacity: 0.5, seed: 3 },
        { 'scatter-px': 0.8, 'size-jitter': 0.4, 'opacity-jitter': 0.4, seed: 5 },
        {}, // plain: runs
      ] as Record<string, number>[]) {
        const d = strokeDabs(ctxOf(fields), { kind: 'brush', tip, ...brush });
        const target = new Float32Array(canvas.width * canvas.height * 4);
        for (let i = 0; i < target.length; i += 4) {
          const a = r();
          target.set([a * r(), a * r(), a * r(), a], i);
        }
        for (const onto of [undefined, target]) {
          const ref = drawDabsReference(
            d,
            canvas.width,
            canvas.height,
            onto && { kind: 'raster', width: canvas.width, height: canvas.height, data: onto.slice() },
          );
          // The copying path (an ordinary canvas) and the in-place one (a canvas in the arena).
          for (const arena of [false, true]) {
            const out = arena ? arenaAlloc(target.length, false)! : new Float32Array(target.length);
            if (onto) out.set(onto);
            else out.fill(0.25);
            expect(inArena(out)).toBe(arena);
            expect(drawDabsWasm(d, canvas.width, canvas.height, out, onto === undefined)).toBe(true);
            const a = new Uint32Array(ref.data.buffer, ref.data.byteOffset, ref.data.length);
            const b = new Uint32Array(out.buffer, out.byteOffset, out.length);
            let differ = 0;
            for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
            expect({ brush, fields, onto: !!onto, arena, differ }).toEqual({ brush, fields, onto: !!onto, arena, differ: 0 });
            if (arena) arenaFree(out);
            cases++;
          }
        }
        expect(d.count + d.runCount).toBeGreaterThan(100);
      }
    }
    expect(cases).toBe(60);
  });

  test.each(DAB_KERNELS)('the %s lay kernel lays bit for bit the dabs DabLayout.push lays', (_name, bind) => {
    // Witness: strokeDabs with reference: true, every dab through push (plan.ts), as the op laid
    // them before the port. Canvases at zoom 8 and at zoom 22 (world x * 8 past 2^31: the hash's
    // ToInt32 wraps), lines crossing the antimeridian and running far beyond the canvas, dabs
    // narrower than a pixel, an image tip.
    bind();
    let seed = 11;
    const r = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const round = { kind: 'sprite' as const, width: 1, height: 1, data: Float32Array.of(0.1, 0.2, 0.3, 0.5) };
    const image = { kind: 'sprite' as const, width: 2, height: 2, data: new Float32Array(16).fill(0.5) };
    let cases = 0;
    for (const z of [8, 22]) {
      const world = 256 * 2 ** z;
      const canvas = { z, x0: z === 8 ? world - 60 : world * 0.7, y0: world * 0.3, width: 97, height: 83, tileSize: 256 };
      const pt = (i: number, spread: number) => (i % 2 ? canvas.y0 : canvas.x0) - spread / 10 + r() * spread;
      const lines = Array.from({ length: 8 }, (_, j) => Float64Array.from({ length: 12 }, (_, i) => pt(i, j < 2 ? 4000 : 140)));
      const ring = Float64Array.from({ length: 10 }, (_, i) => pt(i, 70));
      const groups = [
        { properties: {}, polygons: [], lines: lines.slice(0, 3), points: new Float64Array(0) },
        { id: 7, properties: { k: 1 }, polygons: [[ring]], lines: lines.slice(3, 6), points: new Float64Array(0) },
        { properties: { k: 2 }, polygons: [], lines: lines.slice(5), points: new Float64Array(0), cutEnds: [1, 2, 3] },
      ];
      const ctxOf = (fields: Record<string, number>) =>
        ({
          id: 's',
          node: { op: 'stroke', features: '@f', brush: '@b', ...fields },
          canvas,
          window: canvas,
          zoom: z,
          input: () => ({ kind: 'features', groups }),
          num: (f: string, fb?: number) => fields[f] ?? fb,
          color: (_f: string, fb?: RGBA) => fb,
          expr: () => undefined,
        }) as unknown as OpContext;
      for (const [tip, brush] of [
        [round, { widthPx: 1.4, spacing: 1 / 4, hardness: 0.6, aa: 1 }],
        [round, { widthPx: 0.6, spacing: 1 / 2, hardness: 0, aa: 0 }],
        [image, { widthPx: 5, spacing: 1 / 3, hardness: 1, aa: 1 }],
      ] as const) {
        for (const fields of [
          { 'scatter-px': 1.5, 'size-jitter': 0.5, 'opacity-jitter': 0.6, opacity: 0.5, seed: 3, 'width-max': 10 },
          { 'scatter-px': 3, 'size-jitter': 0.9, 'opacity-jitter': 0.4, seed: 5, 'width-max': 2 },
          { 'opacity-jitter': 0.5, seed: 9, 'spacing-scale': 0.3 },
          { 'size-jitter': 0.7, opacity: 0.8 },
        ] as Record<string, number>[]) {
          const b = { kind: 'brush' as const, tip, ...brush } as Parameters<typeof strokeDabs>[1];
          const a = strokeDabs(ctxOf(fields), b);
          const ref = strokeDabs(ctxOf(fields), b, { reference: true });
          const same = (x: Float32Array, y: Float32Array) => x.length === y.length && x.every((v, i) => Object.is(v, y[i]));
          expect({ z, brush, fields, count: a.count, geom: same(a.geom, ref.geom), group: a.group.join() === ref.group.join() }).toEqual({
            z,
            brush,
            fields,
            count: ref.count,
            geom: true,
            group: true,
          });
          expect(ref.count).toBeGreaterThan(100);
          cases++;
        }
      }
    }
    expect(cases).toBe(24);
  });

  (ADDON ? test : test.skip)("the addon's dabs refuses arrays outside its memory, misaligned ones and group indices past the paints", () => {
    // The C kernel reads and writes where the offsets point (WebAssembly's bounds are the memory's):
    // each of these would have it read or write outside the arrays it was given.
    const dabs = ADDON!.dabs;
    const mem = new Uint8Array(1 << 16);
    const f32 = new Float32Array(mem.buffer);
    const u32 = new Uint32Array(mem.buffer);
    // one dab (group 0) at (4, 4) and one paint, on a 8 x 8 canvas: geom 0, group 16, paints 32,
    // runs 64, runGroup 64, out 1024, layer 2048, cms 4096, touched 8192
    f32.set([4, 4, 0.9, 1], 0);
    f32.set([0.5, 0.5, 0.5, 0.5], 8);
    f32.fill(-1, 512, 512 + 64);
    type Args = Parameters<typeof dabs> extends [Uint8Array, ...infer R, 0 | 1] ? R : never;
    const args = (o: Partial<Record<number, number>> = {}) =>
      [8, 8, 1, 0, 1, 0, 16, 32, 64, 64, 1024, 2048, 4096, 8192, 0.6, 1].map((v, i) => o[i] ?? v) as Args;
    for (const generic of [0, 1] as const) {
      expect(dabs(mem, ...args(), generic)).toBe(true);
      expect(f32[256 + (4 * 8 + 4) * 4 + 3]).toBeGreaterThan(0); // the dab's pixel (4, 4) is drawn
      const bad: [string, Partial<Record<number, number>>, RegExp][] = [
        ['out past the end', { 10: (1 << 16) - 100 }, /outside the memory or misaligned/],
        ['cms misaligned', { 12: 4100 }, /outside the memory or misaligned/],
        ['runs misaligned', { 3: 1, 8: 68 }, /outside the memory or misaligned/],
        ['touched without its 8 entries to spare', { 13: (1 << 16) - 8 * 8 * 4 - 16 }, /outside the memory or misaligned/],
        ['no canvas', { 0: 0 }, /canvas or group count out of range/],
        ['a canvas past 2^28 pixels', { 0: 1 << 15, 1: 1 << 14 }, /canvas or group count out of range/],
        ['a negative offset', { 5: -16 }, /fourteen whole numbers/],
        ['a fractional count', { 2: 1.5 }, /fourteen whole numbers/],
      ];
      for (const [what, o, msg] of bad) {
        let err = 'no error';
        try {
          dabs(mem, ...args(o), generic);
        } catch (e) {
          err = (e as Error).message;
        }
        expect([what, err, msg.test(err)]).toEqual([what, err, true]);
      }
      expect(bad.length).toBe(8);
      u32[4] = 1; // the dab's group past the one paint
      expect(() => dabs(mem, ...args(), generic)).toThrow(/a dab's group out of range/);
      u32[4] = 0;
      u32[16] = 5; // a run's group
      expect(() => dabs(mem, ...args({ 3: 1, 8: 128 }), generic)).toThrow(/a run's group out of range/);
      u32[16] = 0;
    }
    expect(() => dabs(new Float32Array(4) as never, ...args(), 0)).toThrow(/a Uint8Array/);
  });

  (ADDON ? test : test.skip)("the addon's lay refuses lattice indices it could not bound, no room for the dabs, and keys past an int32", () => {
    const lay = ADDON!.lay;
    const mem = new Uint8Array(1 << 16);
    // a piece along x at y 10 (no scatter): dabs k = 0 .. 9 one px apart, every one kept on a 64 x 64 canvas
    const args = (o: Partial<Record<number, number>> = {}) =>
      Float64Array.from([0, 10, 1, 0, 0, 0, 9, 100, 0, 1, 2, 7, 1, 0, 0, 64, 64, 4, 1, 0.5, 0.4, 0, 10, 3], (v, i) => o[i] ?? v);
    for (const generic of [0, 1] as const) {
      expect(lay(mem, 64, args(), generic)).toBe(10);
      expect(Array.from(new Float32Array(mem.buffer, 64, 2))).toEqual([0, 10]);
      const bad: [string, Partial<Record<number, number>>, number, RegExp][] = [
        ['more than 65536 lattice dabs', { 6: 65536 }, 0, /more than 65536/],
        ['a fractional index', { 5: 0.5 }, 0, /not whole/],
        ['an infinite end index', { 6: Infinity }, 0, /not finite/],
        ['no room for the dabs', {}, (1 << 16) - 16 * 9, /no room/],
        ['a feature key past an int32', { 11: 2 ** 31 }, 0, /int32s/],
        ['a fractional seed', { 23: 1.5 }, 0, /int32s/],
        ['a misaligned output', {}, 6, /a byte offset/],
      ];
      for (const [what, o, at, msg] of bad) {
        let err = 'no error';
        try {
          lay(mem, at, args(o), generic);
        } catch (e) {
          err = (e as Error).message;
        }
        expect([what, err, msg.test(err)]).toEqual([what, err, true]);
      }
    }
    expect(() => lay(mem, 0, new Float64Array(23), 0)).toThrow(/Float64Array of 24/);
  });

  test('no dabs at all (a tile with no features) draws nothing, even where the arrays end the kernel memory', () => {
    // Regression: the kernel loaded group[count] (a select evaluates both arms) and, with every
    // array after it empty, read past the memory: hand-drawn failed at zooms 0-3. 1024 x 1024 is a
    // canvas larger than this file's others whose arrays end on a page boundary (36 bytes a pixel).
    const W = 1024;
    const H = 1024;
    const d = {
      count: 0,
      geom: new Float32Array(0),
      group: new Uint32Array(0),
      runs: new Float64Array(0),
      runGroup: new Uint32Array(0),
      runCount: 0,
      paints: new Float32Array(0),
      groups: 0,
      round: true,
      tinted: false,
      hardness: 1,
      aa: 1,
      tip: undefined,
    } as unknown as Parameters<typeof drawDabsWasm>[0];
    const out = new Float32Array(W * H * 4).fill(0.25);
    expect(drawDabsWasm(d, W, H, out, true)).toBe(true);
    expect(out.every((v) => v === 0)).toBe(true);
    const onto = new Float32Array(W * H * 4).fill(0.5);
    expect(drawDabsWasm(d, W, H, onto, false)).toBe(true);
    expect(onto.every((v) => v === 0.5)).toBe(true);
  });

  test('dabs of one feature combine by maximum: overlapping dabs do not darken a translucent stroke', async () => {
    const r = await cpu(
      style(lines([[10, 64, 118, 64]]), { color: '#ff000080' }, { op: 'brush-solid', 'width-px': 8, color: '#000000', 'dabs-per-radius': 8 }),
    );
    const a = r.data[(64 * r.width + 60) * 4 + 3]!;
    expect(a).toBeCloseTo(128 / 255, 5);
  });

  test('the lattice is anchored to the world: reversing a line or cutting it at a vertex draws the same dabs', async () => {
    const brush = { op: 'brush-solid', 'width-px': 3, color: '#000000', 'dabs-per-radius': 0.5 }; // sparse: dabs 3 px apart
    const a = await cpu(style(lines([[5.5, 30.25, 120.75, 90.5]]), {}, brush));
    const b = await cpu(style(lines([[120.75, 90.5, 5.5, 30.25]]), {}, brush));
    expect(maxDiff(a, b)).toBeLessThan(1e-5);
    // Sparse dabs are visible as beads: coverage varies along the line.
    let lo = 1,
      hi = 0;
    for (let x = 20; x < 100; x++) {
      const y = Math.round(30.25 + ((x + 0.5 - 5.5) * (90.5 - 30.25)) / (120.75 - 5.5) - 0.5);
      const v = a.data[(y * a.width + x) * 4 + 3]!;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    expect(hi - lo).toBeGreaterThan(0.2);
  });

  test('seams: 2 x 2 tiles equal the window render, with scatter, size and opacity jitter', async () => {
    const r = (() => {
      let s = 7;
      return () => (s = (s * 16807) % 2147483647) / 2147483647;
    })();
    const ls: number[][] = [];
    for (let i = 0; i < 12; i++) {
      const l: number[] = [];
      let x = r() * 128,
        y = r() * 128;
      for (let k = 0; k < 5; k++) {
        l.push(x, y);
        x += (r() - 0.5) * 90;
        y += (r() - 0.5) * 90;
      }
      ls.push(l);
    }
    const s = style(
      lines(ls),
      { 'scatter-px': 2, 'size-jitter': 0.5, 'opacity-jitter': 0.6, seed: 3 },
      { op: 'brush-solid', 'width-px': 4, color: '#103050', 'dabs-per-radius': 1, hardness: 0.5 },
    );
    expect(await mosaicMaxDiff((w) => cpu(s, w), WIN, TS)).toBeLessThan(1e-4);
  });

  test('across the antimeridian: a window across x = W equals its two sides rendered apart (lattice and jitter read x modulo W)', async () => {
    // Lines as RFC 7946 producers cut them at ±180 (a MultiLineString), and one line that runs on
    // past 180° in longitude (its own copy crosses x = W): slanted, so the lattice is not axis-aligned.
    const W = TS * 2 ** Z;
    const y0 = W / 2 - 32;
    const lat = (y: number) => lonLat(Z, TS, 0, y)[1];
    const data = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { k: 'cut' },
          geometry: {
            type: 'MultiLineString',
            coordinates: [
              [
                [178, lat(y0 + 8)],
                [180, lat(y0 + 20)],
              ],
              [
                [-180, lat(y0 + 20)],
                [-178, lat(y0 + 40)],
              ],
            ],
          },
        },
        {
          type: 'Feature',
          properties: { k: 'past' },
          geometry: {
            type: 'LineString',
            coordinates: [
              [178.5, lat(y0 + 50)],
              [181.3, lat(y0 + 30)],
            ],
          },
        },
      ],
    };
    const s = style(
      data,
      { 'scatter-px': 2, 'size-jitter': 0.5, 'opacity-jitter': 0.6, seed: 3 },
      { op: 'brush-solid', 'width-px': 4, color: '#103050', 'dabs-per-radius': 1, hardness: 0.5 },
    );
    const across = await cpu(s, { z: Z, x0: W - 64, y0, width: 128, height: 64, tileSize: TS });
    const east = await cpu(s, { z: Z, x0: W - 64, y0, width: 64, height: 64, tileSize: TS });
    const west = await cpu(s, { z: Z, x0: 0, y0, width: 64, height: 64, tileSize: TS });
    let m = 0,
      ink = 0;
    for (let y = 0; y < 64; y++)
      for (let x = 0; x < 128; x++) {
        const side = x < 64 ? east : west;
        const q = (y * 64 + (x % 64)) * 4;
        for (let c = 0; c < 4; c++) m = Math.max(m, Math.abs(across.data[(y * 128 + x) * 4 + c]! - side.data[q + c]!));
        if (across.data[(y * 128 + x) * 4 + 3]! > 0.5) ink++;
      }
    expect(ink).toBeGreaterThan(200);
    expect(m).toBeLessThan(1e-4);
  });

  test('seams on real street tiles (Chicago, @mapbox/mvt-fixtures): 4 windows across source-tile edges equal one window', async () => {
    const s = {
      output: 'out',
      sources: { s: { type: 'mvt', tiles: ['npm:@mapbox/mvt-fixtures/real-world/chicago/{z}-{x}-{y}.mvt'], minzoom: 13, maxzoom: 13 } },
      nodes: {
        roads: { op: 'features', source: 's', layer: 'road' },
        water: { op: 'features', source: 's', layer: 'water' },
        pen: { op: 'brush-solid', 'width-px': 2.5, color: '#202020', hardness: 0.6, 'dabs-per-radius': 1.5 },
        r: {
          op: 'stroke',
          features: '@roads',
          brush: '@pen',
          'scatter-px': 1,
          'size-jitter': 0.5,
          'opacity-jitter': 0.5,
          seed: 9,
          'width-max': 8,
          'width-scale-expr': ['match', ['get', 'class'], 'primary', 2, 1],
        },
        w: { op: 'stroke', features: '@water', brush: '@pen' },
        out: { op: 'blend', base: '@w', over: '@r' },
      },
    };
    const r = Renderer.create(s, { loader: nodeLoader() });
    // Source tiles 13/2099..2100/3044..3045 meet at world pixel (2100 * 256, 3045 * 256).
    const whole: Window = { z: 13, x0: 2100 * 256 - 96, y0: 3045 * 256 - 96, width: 192, height: 192, tileSize: 256 };
    const big = (await r.renderWindow(whole, r.params(), { backend: new CpuBackend() })).raster;
    let ink = 0;
    for (let i = 3; i < big.data.length; i += 4) ink += big.data[i]!;
    expect(ink).toBeGreaterThan(1000); // real streets were drawn
    for (const [qx, qy] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ]) {
      const w = { ...whole, x0: whole.x0 + qx! * 96, y0: whole.y0 + qy! * 96, width: 96, height: 96 };
      const part = (await r.renderWindow(w, r.params(), { backend: new CpuBackend() })).raster;
      let m = 0;
      for (let y = 0; y < 96; y++)
        for (let x = 0; x < 96; x++)
          for (let c = 0; c < 4; c++) m = Math.max(m, Math.abs(part.data[(y * 96 + x) * 4 + c]! - big.data[((y + qy! * 96) * 192 + x + qx! * 96) * 4 + c]!));
      expect({ quadrant: [qx, qy], ok: m < 1e-4 ? true : m }).toEqual({ quadrant: [qx, qy], ok: true });
    }
  });

  test('a missing brush asset is an error naming the node and the path', async () => {
    const loader: Loader = {
      load: async (ref) => {
        throw new Error(`ENOENT: no such file '${ref}'`);
      },
      decodeImage,
    };
    await expect(cpu(style(lines([[0, 0, 100, 100]]), {}, { op: 'brush-file', src: 'tips/pencil.png' }), WIN, loader)).rejects.toThrow(
      /brush.*tips\/pencil\.png.*ENOENT/,
    );
    const corrupt: Loader = { load: async () => new Uint8Array([1, 2, 3, 4]), decodeImage };
    await expect(cpu(style(lines([[0, 0, 100, 100]]), {}, { op: 'brush-file', src: 'tips/bad.png' }), WIN, corrupt)).rejects.toThrow(
      /brush.*tips\/bad\.png.*not a readable image/,
    );
  });

  test('assets resolve like data: relative to the style file, escapes refused', async () => {
    const at = (src: string) => {
      const r = Renderer.create(style(lines([[10, 64, 118, 64]]), { color: '#000000' }, { op: 'brush-file', src, 'width-px': 6 }), {
        loader: new NodeLoader({ baseDir: 'golden/brush-file-pencil' }),
      });
      return r.renderWindow(WIN, r.params(), { backend: new CpuBackend() });
    };
    expect((await at('pencil.png')).raster.data.some((v) => v > 0)).toBe(true);
    await expect(at('../stamp-sprites/arrow.png')).rejects.toThrow(/node 'brush' field 'src'.*arrow\.png.*outside the style's directory/);
  });

  test('an image tip from an asset is loaded once per style and drawn over the dab square', async () => {
    let loads = 0;
    const png = await tipPng();
    const loader: Loader = { load: async () => (loads++, png), decodeImage };
    const s = style(lines([[10, 64, 118, 64]]), { color: '#000000' }, { op: 'brush-file', src: 'tip.png', 'width-px': 8 });
    const r = Renderer.create(s, { loader });
    const a = await r.renderWindow(WIN, r.params(), { backend: new CpuBackend() });
    await r.renderWindow(WIN, r.params(), { backend: new CpuBackend() });
    expect(loads).toBe(1);
    // The tip is a 4 x 4 square (opaque left half, transparent right): along a horizontal line the union is opaque over the band.
    const al = (x: number, y: number) => a.raster.data[(y * a.raster.width + x) * 4 + 3]!;
    expect(al(60, 64)).toBeCloseTo(1, 4);
    expect(al(60, 58)).toBe(0);
  });
});

/** A 4 x 4 PNG: left half opaque white, right half transparent. */
async function tipPng(): Promise<Uint8Array> {
  const px = new Uint8Array(4 * 4 * 4);
  for (let y = 0; y < 4; y++) for (let x = 0; x < 2; x++) px.set([255, 255, 255, 255], (y * 4 + x) * 4);
  return new Uint8Array(
    await sharp(Buffer.from(px), { raw: { width: 4, height: 4, channels: 4 } })
      .png()
      .toBuffer(),
  );
}

describe('the gallery styles are seamless (tile mosaics equal one window)', () => {
  const cases: [string, Window][] = [
    ['examples/handdrawn/style.json', { z: 14, x0: 1076230, y0: 1558700, width: 192, height: 192, tileSize: 96 }],
    ['examples/watercolor/style.json', { z: 3, x0: 1000, y0: 600, width: 192, height: 192, tileSize: 96 }],
  ];
  for (const [file, whole] of cases) {
    test(file, async () => {
      const { loadStyleFile } = await import('../../hosts/node/style-file.js');
      const r = (await loadStyleFile(file)).renderer;
      const big = (await r.renderWindow(whole, r.params(), { backend: new CpuBackend() })).raster;
      const h = whole.width / 2;
      for (const [qx, qy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ]) {
        const w = { ...whole, x0: whole.x0 + qx! * h, y0: whole.y0 + qy! * h, width: h, height: h };
        const part = (await r.renderWindow(w, r.params(), { backend: new CpuBackend() })).raster;
        let bad = 0;
        let m = 0;
        for (let y = 0; y < h; y++) {
          for (let x = 0; x < h; x++) {
            for (let c = 0; c < 4; c++) {
              const d = Math.abs(part.data[(y * h + x) * 4 + c]! - big.data[((y + qy! * h) * whole.width + x + qx! * h) * 4 + c]!);
              m = Math.max(m, d);
              if (d > 2 / 255) bad++;
            }
          }
        }
        expect({ file, quadrant: [qx, qy], ok: m < 2e-3 ? true : { max: m, bad } }).toEqual({ file, quadrant: [qx, qy], ok: true });
      }
    });
  }
});

gpuDescribe('stroke: CPU/GPU parity', () => {
  const w = testWindow(64);
  const brushes: Record<string, Record<string, unknown>> = {
    hard: { op: 'brush-solid', 'width-px': 3, color: '#3060a0' },
    soft: { op: 'brush-solid', 'width-px': 7, color: '#a03060c0', hardness: 0.3, aa: 0.5, 'dabs-per-radius': 2 },
  };
  test('plain round strokes (the CPU draws runs by nearest dab, the GPU every dab): same image', async () => {
    const s = {
      output: 'out',
      sources: { p: { type: 'geojson', data: randomFeatures(12, w, { polygons: 3, lines: 8 }, 12) } },
      nodes: {
        f: { op: 'features' },
        brush: { op: 'brush-solid', 'width-px': 5, color: '#802040', hardness: 0.7, 'dabs-per-radius': 3 },
        out: { op: 'stroke', features: '@f', brush: '@brush', 'width-scale-expr': ['+', 0.5, ['get', 'v']] },
      },
    };
    await checkParity('stroke plain runs', s, w, GEOMETRY_TOL * 4);
  });
  for (const [name, brush] of Object.entries(brushes)) {
    test(`${name} brush on random lines and rings, jittered`, async () => {
      const s = {
        output: 'out',
        sources: { p: { type: 'geojson', data: randomFeatures(11, w, { polygons: 3, lines: 6 }, 12) } },
        nodes: {
          f: { op: 'features' },
          brush,
          out: {
            op: 'stroke',
            features: '@f',
            brush: '@brush',
            'scatter-px': 1,
            'size-jitter': 0.3,
            'opacity-jitter': 0.3,
            'pressure-curve': [
              [0, 0.3],
              [0.5, 1.2],
              [1, 0.5],
            ],
          },
        },
      };
      await checkParity(`stroke ${name}`, s, w, GEOMETRY_TOL * 4);
    });
  }

  test('image tip (asset), tinted and untinted', async () => {
    const png = await tipPng();
    const loader: Loader = { load: async () => png, decodeImage };
    for (const color of [undefined, '#208040']) {
      const s = {
        output: 'out',
        sources: { p: { type: 'geojson', data: randomFeatures(5, w, { lines: 5 }, 12) } },
        nodes: {
          f: { op: 'features' },
          brush: { op: 'brush-file', src: 'tip.png', 'width-px': 6 },
          out: { op: 'stroke', features: '@f', brush: '@brush', ...(color ? { color } : {}) },
        },
      };
      const r = Renderer.create(s, { loader });
      const c = await r.renderWindow(w, r.params(), { backend: new CpuBackend() });
      const g = await r.renderWindow(w, r.params(), { backend: GPU! });
      const d = diffRasters(c.raster, g.raster);
      expect({ color, ok: d.maxFloat <= GEOMETRY_TOL * 4 && d.max8 <= 2 }).toEqual({ color, ok: true });
    }
  });
  void renderOn;
});

/** The Node host's loader rooted at the repository (npm: references resolve from there). */
function nodeLoader(): Loader {
  return new NodeLoader({ baseDir: process.cwd() });
}
