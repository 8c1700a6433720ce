// The PNG encoder's deflate (src/hosts/node/deflate.ts): libdeflate through our addon
// (native/deflate.c, dist/native/deflate.node) and node:zlib, its fallback. Witness: node:zlib's
// inflate (zlib 1.3, a decoder we did not write) gives back every input byte for byte, at every
// level, from buffers of every size, in the main thread and in worker threads at once. The
// pixels of whole PNG files are tests/server/png.test.ts's (libvips and pngjs, both deflates).
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import zlib from 'node:zlib';
import { DEFLATE_ADDON, deflate, deflateInfo, setZlibDeflate, usingLibdeflate } from '../../src/hosts/node/deflate.js';
import { serve } from '../../src/hosts/server/serve.js';
import { kernelsAddon } from '../../src/hosts/node/kernels.js';
import { differenceFromRaster } from '../helpers/decode.js';
import { requireBuild, WORKER, writeFixtures } from './fixtures.js';
import { loadStyleFile } from '../../src/hosts/node/style-file.js';

const ADDON = usingLibdeflate();
if (!ADDON) {
  const msg = `tests/server/deflate.test.ts: the libdeflate tests SKIPPED: ${deflateInfo().reason} (scripts/build-native.mjs builds it).`;
  if (process.env.TILEGRAPH_REQUIRE_ADDON === '1') throw new Error(`${msg} TILEGRAPH_REQUIRE_ADDON=1 makes this a failure.`);
  console.warn(msg);
}
const withAddon = ADDON ? test : test.skip;

/** Seeded bytes: runs and repeats (what deflate matches) mixed with noise (what it cannot). */
function sample(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed;
  const next = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s >>> 8;
  };
  for (let i = 0; i < n; ) {
    const kind = next() % 3;
    const len = Math.min(n - i, 1 + (next() % 300));
    if (kind === 0) out.fill(next() & 255, i, i + len);
    else if (kind === 1 && i > 1000) out.copyWithin(i, i - 1 - (next() % 1000), i - 1 - (next() % 1000) + len);
    else for (let k = 0; k < len; k++) out[i + k] = next() & 255;
    i += len;
  }
  return out;
}

const inflated = (z: Uint8Array) => new Uint8Array(zlib.inflateSync(z));
const same = (a: Uint8Array, b: Uint8Array) =>
  Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;

describe.each([['libdeflate'], ['node:zlib']])('deflate with %s', (which) => {
  const run = which === 'libdeflate' ? withAddon : test;
  beforeAll(() => setZlibDeflate(which === 'node:zlib'));
  afterAll(() => setZlibDeflate(false));

  run('every level 0-9, sizes 0 B to 6 MB (past the kept output room), inflates to the input', () => {
    expect(deflateInfo().name.split(' ')[0]).toBe(which);
    for (const n of [0, 1, 2, 100, 65_536, 197_633, 1_049_601])
      for (let level = 0; level <= 9; level++) {
        const data = sample(n, n + level);
        expect(same(inflated(deflate(data, level)), data)).toBe(true);
      }
    for (const n of [6 << 20, 300_000, 6 << 20]) {
      const data = sample(n, 9);
      expect(same(inflated(deflate(data, 2)), data)).toBe(true);
    }
  });

  run('a view into a larger buffer and into WebAssembly memory (what pngImage hands it)', () => {
    const big = sample(100_000, 3);
    const view = big.subarray(1234, 99_000);
    expect(same(inflated(deflate(view, 1)), view)).toBe(true);
    const mem = new WebAssembly.Memory({ initial: 4 });
    const wasm = new Uint8Array(mem.buffer, 70_000, 150_000);
    wasm.set(sample(150_000, 4));
    expect(same(inflated(deflate(wasm, 2)), wasm)).toBe(true);
  });
});

withAddon('the addon: levels 10-12 too (not offered by deflate()), and it rejects what it cannot take', () => {
  const data = sample(50_000, 5);
  const addon = createRequire(import.meta.url)(DEFLATE_ADDON) as { compress(i: unknown, l: unknown, o: unknown): number; bound(n: number, l: number): number };
  for (let level = 10; level <= 12; level++) {
    const room = new Uint8Array(addon.bound(data.length, level));
    expect(same(inflated(room.subarray(0, addon.compress(data, level, room))), data)).toBe(true);
  }
  for (const level of [10, -1, 2.5, Number.NaN]) expect(() => deflate(data, level)).toThrow(/deflate level must be an integer 0-9/);
  expect(() => addon.compress(data, 13, new Uint8Array(100))).toThrow(/level must be an integer 0-12/);
  expect(() => addon.compress(data, -1, new Uint8Array(100))).toThrow(/level must be an integer 0-12/);
  expect(() => addon.compress('text', 1, new Uint8Array(100))).toThrow(/input must be a Uint8Array/);
  expect(() => addon.compress(data, 1, new Float32Array(100))).toThrow(/output must be a Uint8Array/);
  expect(addon.compress(data, 1, new Uint8Array(10))).toBe(0); // too little room: 0, nothing thrown
  expect(addon.bound(data.length, 1)).toBeGreaterThan(data.length);
});

withAddon('four worker threads at once, each with its own compressors, then new ones after they end', async () => {
  // Context-aware: each thread's environment initialises the addon and frees its compressors when it ends.
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const a = require(workerData.file);
    const out = [];
    for (let i = 0; i < 30; i++) {
      const input = Buffer.alloc(20000 + i * 1000, (workerData.id * 31 + i) & 255);
      for (let k = 0; k < input.length; k += 7) input[k] = (k * (workerData.id + 1)) & 255;
      const room = new Uint8Array(a.bound(input.length, i % 10));
      const n = a.compress(input, i % 10, room);
      out.push([input, room.slice(0, n)]);
    }
    parentPort.postMessage(out);`;
  for (let round = 0; round < 2; round++) {
    const results = await Promise.all(
      [0, 1, 2, 3].map(
        (id) =>
          new Promise<[Uint8Array, Uint8Array][]>((resolve, reject) => {
            const w = new Worker(code, { eval: true, workerData: { file: DEFLATE_ADDON, id: id + round * 4 } });
            w.once('message', (m) => {
              void w.terminate().then(() => resolve(m as [Uint8Array, Uint8Array][]));
            });
            w.once('error', reject);
          }),
      ),
    );
    for (const pairs of results) for (const [input, z] of pairs) expect(same(inflated(z), input)).toBe(true);
  }
  // This thread's compressors still work after the workers' environments ended.
  const data = sample(40_000, 8);
  expect(same(inflated(deflate(data, 2)), data)).toBe(true);
});

withAddon(
  'the server: no fallback line at start-up, GET /metrics names libdeflate, a tile from a worker decodes (libvips) to the in-process render',
  async () => {
    requireBuild();
    const fx = writeFixtures();
    const log: string[] = [];
    const s = await serve({ style: fx.shapes, port: 0, workers: 1, workerUrl: WORKER, backend: 'cpu', log: (l) => log.push(l) });
    try {
      expect(log.filter((l) => l.includes('deflate'))).toEqual([]);
      const metrics = await (await fetch(`${s.url}metrics`)).text();
      expect(metrics).toMatch(/^tilegraph_png_deflate_info\{deflate="libdeflate \d+\.\d+"\} 1$/m);
      // the kernels this machine runs: the addon's AVX-512 copy where the CPU has it, else WebAssembly
      expect(metrics).toContain(`\ntilegraph_cpu_kernels_info{kernels="${kernelsAddon()?.simd === 'avx512' ? 'native (avx512)' : 'wasm'}"} 1\n`);
      const r = await fetch(`${s.url}tiles/2/1/1.png`);
      expect(r.status).toBe(200);
      const style = await loadStyleFile(fx.shapes);
      const raster = await style.renderer.renderTile({ z: 2, x: 1, y: 1 }, style.renderer.params({}));
      expect(await differenceFromRaster(new Uint8Array(await r.arrayBuffer()), raster)).toBeUndefined();
    } finally {
      await s.close();
    }
  },
);
