// The CPU buffer pool (src/backends/cpu/pool.ts) is bounded by bytes and keeps what was released
// last (issue 23): a pool that refused buffers once full kept the first style's canvas sizes for
// good in a server rendering several styles, up to its whole budget per render thread.
import { acquire, POOL_MAX_BYTES, poolStats, release } from '../../src/backends/cpu/pool.js';
import { setArenaEnabled } from '../../src/util/wasm-arena.js';

// The pool of ordinary arrays, as where WebAssembly is missing: with the canvas arena on, an
// ordinary array released while the arena has room is left to the collector (tests/core/arena.test.ts).
beforeAll(() => setArenaEnabled(false));
afterAll(() => setArenaEnabled(true));

test('buffers of many sizes: the pool stays within its bytes and hands back the sizes released last', () => {
  // 40 sizes of ~4 MiB each, released in turn, as the canvases of seven styles would be.
  const sizes = Array.from({ length: 40 }, (_, i) => (1 << 20) + 4096 * i);
  const bufs = sizes.map((n) => new Float32Array(n));
  for (const b of bufs) release(b);
  const s = poolStats();
  expect(s.bytes).toBeLessThanOrEqual(POOL_MAX_BYTES);
  expect(s.bytes).toBeGreaterThan(POOL_MAX_BYTES - 8 * 1024 * 1024);
  // The last size released is pooled (and zeroed when handed out again); the first one was dropped.
  bufs.at(-1)![5] = 7;
  const again = acquire(sizes.at(-1)!);
  expect(again).toBe(bufs.at(-1));
  expect(again[5]).toBe(0);
  expect(acquire(sizes[0]!)).not.toBe(bufs[0]);
  expect(poolStats().bytes).toBe(s.bytes - again.byteLength);
});

test('at most six buffers of one size; a buffer released twice is pooled once', () => {
  const n = 300_000;
  const bufs = Array.from({ length: 8 }, () => new Float32Array(n));
  for (const b of bufs) release(b);
  release(bufs[7]!);
  const got = new Set<Float32Array>();
  for (let i = 0; i < 8; i++) got.add(acquire(n));
  // The six released last come back; two more are fresh.
  for (const b of bufs.slice(2)) expect(got.has(b)).toBe(true);
  expect(got.has(bufs[0]!)).toBe(false);
  expect(got.size).toBe(8);
});
