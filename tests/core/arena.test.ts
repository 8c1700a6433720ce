// The canvas arena (src/util/wasm-arena.ts): the buffer pool places canvases in one WebAssembly
// memory that never grows, and the blend, displace, color-ramp, noise, hillshade, blur, density and
// edge-detect kernels read and write them there in place instead of copying them through their own
// scratch memory (issue 25). The witness of every pixel is the copying path of the same kernels (their oracles are the
// TypeScript references, src/ops/<op>/<op>.test.ts): the arena must change where bytes lie, never
// their values.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { acquire, release } from '../../src/backends/cpu/pool.js';
import { loadStyleFile } from '../../src/hosts/node/style-file.js';
import { CpuBackend, releaseRaster, tileWindow } from '../../src/index.js';
import { BLEND_SPAN_PIXELS, eraseSimd, multiplySimd, normalOverSimd } from '../../src/ops/blend/simd.js';
import { blurFast, monoPlane } from '../../src/ops/blur/cpu.js';
import { gaussianKernel } from '../../src/ops/blur/plan.js';
import { blurExactSimd, tintSimd } from '../../src/ops/blur/simd.js';
import { rowInverseResolution, type ShadeColours, shadeTerms } from '../../src/ops/hillshade/plan.js';
import { hillshadeSimd } from '../../src/ops/hillshade/simd.js';
import { sobelSimd } from '../../src/ops/edge-detect/simd.js';
import { planNoise } from '../../src/ops/noise/plan.js';
import { noiseWasm } from '../../src/ops/noise/wasm.js';
import type { Window } from '../../src/types.js';
import {
  ARENA_BYTES,
  ARENA_MAX_BYTES,
  arenaAlloc,
  arenaCapacity,
  arenaFree,
  arenaHasRoom,
  arenaStats,
  inArena,
  isArenaBuffer,
  setArenaBytes,
  setArenaEnabled,
} from '../../src/util/wasm-arena.js';
import { uniformOf } from '../../src/backends/cpu/uniform.js';
import { rng } from '../helpers/random.js';
import { requireBuild, ROOT } from '../server/fixtures.js';

const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));

afterEach(() => setArenaEnabled(true));

test('canvases from the pool lie in the arena, and no two live canvases share a byte', () => {
  const n = 300 * 300 * 4;
  const live = Array.from({ length: 8 }, () => acquire(n, false));
  for (const b of live) expect(isArenaBuffer(b)).toBe(true);
  live.forEach((b, i) => b.fill(i + 1));
  // Release half and take as many again: reused blocks, still disjoint from the canvases kept.
  for (const b of live.splice(0, 4)) release(b);
  for (let i = 0; i < 4; i++) live.push(acquire(n));
  for (const b of live.slice(4)) expect(b.every((v) => v === 0)).toBe(true); // handed out zeroed
  live.slice(4).forEach((b, i) => b.fill(100 + i));
  const ranges = live.map((b) => [b.byteOffset, b.byteOffset + b.byteLength] as const).sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0]).toBeGreaterThanOrEqual(ranges[i - 1]![1]);
  live.forEach((b, i) => expect(b.every((v) => v === (i < 4 ? i + 5 : 100 + i - 4))).toBe(true));
  for (const b of live) release(b);
});

test('a canvas larger than the room left is an ordinary array, and the kernels give it the same bits', () => {
  const big = acquire(ARENA_BYTES / 4 + 16, false);
  expect(isArenaBuffer(big)).toBe(false);
  expect(inArena(big)).toBe(false);
  release(big);
});

test("a server turning to another style's canvas size: pooled arena buffers make room for it", () => {
  // Four canvas sizes, six of each pooled (the pool's most per size): the arena fills with them.
  const held: Float32Array[] = [];
  for (let k = 0; k < 4; k++) for (let i = 0; i < 6; i++) held.push(acquire((400 + k) ** 2 * 4, false));
  for (const b of held) release(b);
  const b = 500 * 500 * 4;
  expect(arenaHasRoom(b)).toBe(false);
  const next = Array.from({ length: 6 }, () => acquire(b, false));
  expect(next.every(isArenaBuffer)).toBe(true);
  for (const x of next) release(x);
});

/** Random premultiplied base and over rasters of `n` pixels, written into `make`'s arrays. */
function rasters(n: number, seed: number, make: (length: number) => Float32Array): [Float32Array, Float32Array] {
  const r = rng(seed);
  const base = make(n * 4);
  const over = make(n * 4);
  for (let i = 0; i < n; i++) {
    const ab = r();
    const as = i % 5 === 0 ? 0 : r();
    base.set([r() * ab, r() * ab, r() * ab, ab], i * 4);
    over.set([r() * as, r() * as, r() * as, as], i * 4);
  }
  return [base, over];
}

test('blend in place in the arena: the bits of the copying path, and a scratch memory grow in between leaves the canvases intact', () => {
  const n = 70_000;
  const [base, over] = rasters(n, 7, (l) => acquire(l, false));
  const [hb, ho] = rasters(n, 7, (l) => new Float32Array(l));
  expect(inArena(base) && inArena(over)).toBe(true);
  const runs: [string, (b: Float32Array, o: Float32Array, out: Float32Array) => boolean][] = [
    ['normal', (b, o, out) => normalOverSimd(b, o, 0.7, out)],
    ['multiply', (b, o, out) => multiplySimd(b, o, 0.7, true, out)],
    ['erase', (b, o, out) => eraseSimd(b, o, 0.7, out)],
  ];
  for (const [mode, run] of runs) {
    const out = acquire(n * 4, false);
    expect(inArena(out)).toBe(true);
    const want = new Float32Array(n * 4);
    expect(run(hb, ho, want)).toBe(true);
    // A canvas over one span, not in the arena, grows the blend module's scratch memory (which
    // detaches the views of that memory, never the arena's).
    const hugeN = BLEND_SPAN_PIXELS + 3;
    const [bb, bo] = rasters(hugeN, 9, (l) => new Float32Array(l));
    expect(run(bb, bo, new Float32Array(hugeN * 4))).toBe(true);
    expect(run(base, over, out)).toBe(true);
    expect({ mode, bits: bits(out) }).toEqual({ mode, bits: bits(want) });
    expect(bits(base)).toEqual(bits(hb));
    expect(bits(over)).toEqual(bits(ho));
    release(out);
  }
  release(base);
  release(over);
});

test('noise written in place in the arena: the bits of the copying path (simplex and value, field and raster)', () => {
  const win: Window = { z: 12, x0: 1100 * 256 + 37, y0: 1400 * 256 + 5, width: 300, height: 280, tileSize: 256 };
  for (const kind of ['simplex', 'value'] as const)
    for (const raster of [false, true]) {
      const plan = planNoise(win, 18, 2, kind);
      const there = noiseWasm(plan, 11, raster)!;
      expect(inArena(there)).toBe(true);
      setArenaEnabled(false);
      const copied = noiseWasm(plan, 11, raster)!;
      setArenaEnabled(true);
      expect(inArena(copied)).toBe(false);
      const want = bits(copied);
      expect({ kind, raster, same: want.length === there.length && bits(there).every((v, i) => v === want[i]) }).toEqual({ kind, raster, same: true });
      release(there);
    }
});

test('hillshade in place in the arena: the bits of the copying path, no data included', () => {
  const w = 261;
  const h = 258;
  const r = rng(3);
  const fill = (f: Float32Array) => {
    for (let i = 0; i < f.length; i++) f[i] = 800 + 600 * Math.sin(i / 13) + 200 * r();
    f[5 * (w + 2) + 9] = Number.NaN;
    f[120 * (w + 2) + 30] = Number.POSITIVE_INFINITY;
    return f;
  };
  const field = fill(acquire((w + 2) * (h + 2), false));
  const copy = Float32Array.from(field);
  const inv = rowInverseResolution({ z: 9, x0: 100 * 256, y0: 170 * 256, width: w, height: h, tileSize: 256 });
  const terms = shadeTerms(315, 45, 2, false);
  const colours = { shadow: [0, 0, 0, 1], highlight: [1, 1, 1, 1], accent: [0, 0, 0, 0] } as ShadeColours;
  const out = acquire(w * h * 4, false);
  expect(inArena(field) && inArena(out)).toBe(true);
  expect(hillshadeSimd(field, w, h, inv, terms, colours, out)).toBe(true);
  const want = new Float32Array(w * h * 4);
  expect(hillshadeSimd(copy, w, h, inv, terms, colours, want)).toBe(true);
  const b = bits(want);
  expect(bits(out).every((v, i) => v === b[i])).toBe(true);
  release(field);
  release(out);
});

/**
 * The blur kernels' outputs for one source: RGBA and one plane, exact (sigma < 4, its sliding
 * passes and its edge tables) and decimated (sigma >= 4), on sizes that are and are not whole
 * vectors; the one-colour test's alpha plane and the tint. `make` gives the canvases.
 */
function blurs(make: (length: number) => Float32Array): number[][] {
  const out: number[][] = [];
  const r = rng(5);
  for (const [sw, sh, ox, oy, w, h] of [
    [300, 300, 22, 22, 256, 256],
    [271, 262, 9, 3, 250, 253],
  ] as const)
    for (const sigma of [1.5, 2.5, 5])
      for (const nc of [4, 1] as const) {
        const src = make(sw * sh * nc);
        for (let i = 0; i < src.length; i++) src[i] = r();
        for (const [x, y] of [
          [ox, oy],
          [0, 0],
        ]) {
          const res = blurFast(src, sw, sh, x, y, w, h, sigma, 1000 + x, 2000 + y, nc);
          out.push(bits(res));
          release(res);
        }
        release(src);
      }
  // One colour: the test's alpha plane, then the tint of a plane.
  const mono = make(300 * 280 * 4);
  for (let i = 0; i < 300 * 280; i++) {
    const a = r();
    mono.set([0.25 * a, 0.5 * a, 0.75 * a, a], i * 4);
  }
  const m = monoPlane(mono, 300, { x0: 10, y0: 12, x1: 290, y1: 270 })!;
  out.push(bits(m.alpha));
  for (const n of [m.alpha.length, m.alpha.length - 3]) {
    const plane = make(n);
    plane.set(m.alpha.subarray(0, n));
    const tinted = make(n * 4);
    expect(tintSimd(plane, m.r, m.g, m.b, tinted)).toBe(true);
    out.push(bits(tinted));
    release(plane);
    release(tinted);
  }
  release(m.alpha);
  release(mono);
  return out;
}

test('blur in place in the arena: the bits of the copying path, also where the arena has no room for its planes', () => {
  const there = blurs((l) => acquire(l, false));
  // A call's tables and planes are arena blocks given back when it ends.
  const [src, out] = [acquire(200 * 100 * 4), acquire(180 * 80 * 4, false)];
  const blocks = arenaStats().blocks;
  expect(blurExactSimd(src, 200, 100, 10, 10, 180, 80, gaussianKernel(2), out, false)).toBe(true);
  expect(arenaStats().blocks).toBe(blocks);
  release(src);
  release(out);
  setArenaEnabled(false);
  const copied = blurs((l) => acquire(l, false));
  setArenaEnabled(true);
  // The arena full but for the canvases: the kernels copy through their scratch memory.
  const filler: Float32Array[] = [];
  const full = blurs((l) => {
    const b = acquire(l, false);
    for (let size = ARENA_BYTES / 8; size >= 16; size >>= 1) for (let f = arenaAlloc(size, false); f; f = arenaAlloc(size, false)) filler.push(f);
    return b;
  });
  for (const f of filler) arenaFree(f);
  expect(there.length).toBe(copied.length);
  for (let i = 0; i < there.length; i++) {
    expect({ i, same: there[i]!.length === copied[i]!.length && there[i]!.every((v, j) => v === copied[i]![j]) }).toEqual({ i, same: true });
    expect({ i, same: full[i]!.length === copied[i]!.length && full[i]!.every((v, j) => v === copied[i]![j]) }).toEqual({ i, same: true });
  }
});

test('edge-detect in place in the arena: the bits of the copying path (bands of rows)', () => {
  const [w, h] = [301, 263];
  const sw = w + 2;
  const r = rng(17);
  const src = acquire(sw * (h + 2) * 4, false);
  for (let i = 0; i < src.length; i++) src[i] = r() < 0.2 ? 0 : r();
  const out = acquire(w * h * 4, false);
  expect(inArena(src) && inArena(out)).toBe(true);
  expect(sobelSimd(src, sw, w, h, 1.7, out)).toBe(true);
  const want = new Float32Array(w * h * 4);
  expect(sobelSimd(Float32Array.from(src), sw, w, h, 1.7, want)).toBe(true);
  const b = bits(want);
  expect(bits(out).every((v, i) => v === b[i])).toBe(true);
  release(src);
  release(out);
});

test('the watercolour example (noise, color-ramp, displace, blur, blends): the same bits with canvases in the arena and without', async () => {
  const { renderer } = await loadStyleFile(path.join(ROOT, 'examples/watercolor/style.json'));
  const backend = new CpuBackend();
  const params = renderer.params({});
  const tiles = [
    [4, 8, 5],
    [4, 3, 6],
    [3, 4, 2],
  ] as const;
  const render = async () => {
    const out: number[][] = [];
    for (const [z, x, y] of tiles) {
      const { raster } = await renderer.renderWindow(tileWindow({ z, x, y }, 256), params, { backend });
      out.push(bits(raster.data));
      releaseRaster(raster);
    }
    return out;
  };
  const inArenaBits = await render();
  expect(arenaStats().touchedBytes).toBeGreaterThan(0);
  setArenaEnabled(false);
  const without = await render();
  setArenaEnabled(true);
  expect(inArenaBits.length).toBe(without.length);
  for (let i = 0; i < tiles.length; i++)
    expect(inArenaBits[i]!.length === without[i]!.length && inArenaBits[i]!.every((v, j) => v === without[i]![j])).toBe(true);
}, 60_000);

test("a render's raster is the caller's own, outside the arena (transferable), and keeps its one-value mark", async () => {
  const world = await loadStyleFile(path.join(ROOT, 'examples/world/style.json'));
  const backend = new CpuBackend();
  const params = world.renderer.params({});
  // z4 1/9: open sea, one colour (marked); 8/5: land, coasts and borders.
  for (const [x, y, marked] of [
    [1, 9, true],
    [8, 5, false],
  ] as const) {
    const { raster } = await world.renderer.renderWindow(tileWindow({ z: 4, x, y }, 256), params, { backend });
    expect(inArena(raster.data)).toBe(false);
    expect(uniformOf(raster.data) !== undefined).toBe(marked);
    const moved = structuredClone(raster.data, { transfer: [raster.data.buffer] });
    expect(moved.length).toBe(256 * 256 * 4);
  }
});

test('arenaOutput: a raster the caller only reads and gives back comes where it lies in the arena, the same bits and mark as its own copy', async () => {
  const world = await loadStyleFile(path.join(ROOT, 'examples/world/style.json'));
  const backend = new CpuBackend();
  const params = world.renderer.params({});
  for (const [x, y, marked] of [
    [1, 9, true],
    [8, 5, false],
  ] as const) {
    const window = tileWindow({ z: 4, x, y }, 256);
    const own = (await world.renderer.renderWindow(window, params, { backend })).raster;
    const ownBits = bits(own.data);
    releaseRaster(own);
    const { raster } = await world.renderer.renderWindow(window, params, { backend, arenaOutput: true });
    expect(inArena(raster.data)).toBe(true);
    expect(uniformOf(raster.data) !== undefined).toBe(marked);
    expect(bits(raster.data)).toEqual(ownBits);
    releaseRaster(raster);
  }
});

test('setArenaBytes: refused once the arena is in use (this file has used it)', () => {
  release(acquire(16, false));
  expect(setArenaBytes(200 * 2 ** 20)).toBe(false);
  expect(arenaCapacity()).toBe(ARENA_BYTES);
});

test('setArenaBytes before first use: a thread sized for its node cache places canvases past the default 48 MiB, and sizes are clamped (a fresh process on dist/)', () => {
  requireBuild();
  const script = `
    const a = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, 'dist/util/wasm-arena.js')).href)});
    const out = { huge: a.setArenaBytes(1e15), hugeCap: a.arenaCapacity(), tiny: a.setArenaBytes(1), tinyCap: a.arenaCapacity() };
    out.sized = a.setArenaBytes(176 * 2 ** 20 + 1);
    out.cap = a.arenaCapacity();
    const blocks = [0, 1, 2, 3].map(() => a.arenaAlloc(10 * 2 ** 20, false)); // 4 x 40 MiB
    out.placed = blocks.filter((b) => b && a.inArena(b)).length;
    out.memory = a.arenaMemory().buffer.byteLength;
    out.after = a.setArenaBytes(300 * 2 ** 20);
    console.log(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(JSON.parse(r.stdout)).toEqual({
    huge: true,
    hugeCap: ARENA_MAX_BYTES,
    tiny: true,
    tinyCap: ARENA_BYTES,
    sized: true,
    cap: 176 * 2 ** 20 + 65536, // rounded up to whole 64 KiB pages
    placed: 4, // 160 MiB of canvases: 3 of them would not fit the default arena
    memory: 176 * 2 ** 20 + 65536,
    after: false,
  });
});
