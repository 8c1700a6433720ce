// The render pool's V8 heap growth (src/hosts/node/render-pool.ts setHeapGrowth, `serve
// --worker-heap-growth`): its bounds. What it does to a server's full collections is measured in
// the bench (docs/server.md "V8's heap growth"), not in a timed test.
import { MAX_HEAP_GROWTH, setHeapGrowth, WORKER_HEAP_GROWTH } from '../../src/hosts/node/render-pool.js';

test('a heap growth outside 0-400 percent, or not an integer, is a RangeError naming the bound', () => {
  for (const bad of [-1, MAX_HEAP_GROWTH + 1, 2.5, Number.NaN])
    expect(() => setHeapGrowth(bad)).toThrow(/heap growth must be an integer percent from 0 to 400/);
  expect(MAX_HEAP_GROWTH).toBe(400);
  // The default and V8's own rule are accepted (this sets the process's flag; 0 puts V8's own back).
  expect(() => setHeapGrowth(WORKER_HEAP_GROWTH)).not.toThrow();
  expect(() => setHeapGrowth(0)).not.toThrow();
});
