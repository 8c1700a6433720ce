// Where a server's memory is, by thread, from V8 heap snapshots (issue 23): a gallery server in this
// process (the main thread), loaded by a client in a child process over zooms 0-5 with the tile
// cache off; then the process's RSS, each thread's heap figures, and of each thread's heap snapshot
// the largest kinds of object and who holds the ArrayBuffer data (typed arrays, WebAssembly memory).
// Usage: npm run build && node bench/heap-threads.mjs   (BENCH_REQUESTS=1500, BENCH_STYLES=<regex of
//   example names>, BENCH_KEEP=1 keeps the .heapsnapshot files, to open in Chrome DevTools' Memory tab)
// Bounded: BENCH_REQUESTS renders, then one snapshot per thread (~50 MB each).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { galleryStyles } from './gallery.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REQUESTS = Number(process.env.BENCH_REQUESTS || 1500);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-heap-'));
const styles = galleryStyles(tmp, process.env.BENCH_STYLES ? new RegExp(process.env.BENCH_STYLES) : undefined).map((s) => s.file);
const { serve } = await import(path.join(root, 'dist/hosts/server/serve.js'));
const srv = await serve({ style: styles.length > 1 ? styles : styles[0], port: 0, backend: 'cpu', cacheBytes: 0, log: () => undefined });
const services = srv.services ? [...srv.services.values()] : [srv.service];
const prefixes = srv.services ? [...srv.services.keys()].map((id) => `styles/${id}/`) : [''];

// The client: round robin over every style's tiles of zooms 0-5, concurrency 16.
const client = `
const [url, n, prefixes] = [process.argv[1], Number(process.argv[2]), JSON.parse(process.argv[3])];
const urls = [];
for (let z = 0; z <= 5; z++) for (let y = 0; y < 2 ** z; y++) for (let x = 0; x < 2 ** z; x++) for (const p of prefixes) urls.push(url + p + 'tiles/' + z + '/' + x + '/' + y + '.png');
let next = 0, failed = 0;
await Promise.all(Array.from({ length: 16 }, async () => { while (next < n) { const r = await fetch(urls[next++ % urls.length]); await r.arrayBuffer(); if (r.status !== 200) failed++; } }));
if (failed) console.log(failed + ' requests failed');`;
const t0 = performance.now();
const c = spawn(process.execPath, ['--input-type=module', '-e', client, srv.url, String(REQUESTS), JSON.stringify(prefixes)], { stdio: 'inherit' });
await once(c, 'exit');
const mib = (b) => (b / 1048576).toFixed(1);
const status = readFileSync('/proc/self/status', 'utf8');
const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1]) / 1024;
console.log(
  `${REQUESTS} requests over ${styles.length} style(s) in ${((performance.now() - t0) / 1000).toFixed(0)} s: RSS ${kb('VmRSS').toFixed(0)} MiB (anonymous ${kb('RssAnon').toFixed(0)}, files ${kb('RssFile').toFixed(0)}), peak ${kb('VmHWM').toFixed(0)}`,
);
const memory = await services[0].memory();
for (const t of memory.threads)
  console.log(
    `  ${t.thread.padEnd(8)} heap used ${mib(t.heapUsed)} of ${mib(t.heapTotal)} MiB, external ${mib(t.external)} (ArrayBuffers ${mib(t.arrayBuffers)})${t.sourceCache !== undefined ? `, source cache ${mib(t.sourceCache)}, free buffers ${mib(t.bufferPool)}` : ''}`,
  );

/** The largest kinds of object of a snapshot, and the ArrayBuffer data by the path that holds it. */
function summarize(name, file) {
  const j = JSON.parse(readFileSync(file, 'utf8'));
  const m = j.snapshot.meta;
  const nf = m.node_fields.length;
  const ef = m.edge_fields.length;
  const [ti, ni, si, eci] = ['type', 'name', 'self_size', 'edge_count'].map((f) => m.node_fields.indexOf(f));
  const [eti, eni, eto] = ['type', 'name_or_index', 'to_node'].map((f) => m.edge_fields.indexOf(f));
  const types = m.node_types[0];
  const etypes = m.edge_types[0];
  const count = j.nodes.length / nf;
  const label = (n) => `${types[j.nodes[n * nf + ti]]}:${j.strings[j.nodes[n * nf + ni]]}`;
  const kinds = new Map();
  let total = 0;
  const retainers = Array.from({ length: count }, () => []);
  for (let n = 0, e = 0; n < count; n++) {
    const t = types[j.nodes[n * nf + ti]];
    const size = j.nodes[n * nf + si];
    total += size;
    const k = t === 'object' || t === 'native' || t === 'closure' ? label(n) : t;
    kinds.set(k, (kinds.get(k) ?? 0) + size);
    for (let k2 = 0; k2 < j.nodes[n * nf + eci]; k2++, e += ef) {
      const et = etypes[j.edges[e + eti]];
      if (et === 'weak' || et === 'shortcut') continue;
      retainers[j.edges[e + eto] / nf].push([n, et === 'element' || et === 'hidden' ? '[]' : j.strings[j.edges[e + eni]]]);
    }
  }
  console.log(`${name}: heap snapshot ${mib(total)} MiB (ArrayBuffer data included); largest kinds:`);
  console.log(
    `  ${[...kinds]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([k, s]) => `${k} ${mib(s)}`)
      .join(', ')}`,
  );
  // Who holds the ArrayBuffer data: the first retainers up to a named holder, typed-array wrappers skipped.
  const wrapper = /^(object:(ArrayBuffer|\w+Array)|array:|hidden:system \/ (Context|PropertyArray|FixedArray|DescriptorArray))/;
  const held = new Map();
  for (let n = 0; n < count; n++) {
    if (j.strings[j.nodes[n * nf + ni]] !== 'system / JSArrayBufferData') continue;
    const seen = new Set([n]);
    const chain = [];
    for (let cur = n, d = 0; d < 12; d++) {
      const r = retainers[cur].find(([p]) => !seen.has(p));
      if (!r) break;
      seen.add(r[0]);
      chain.push(`${label(r[0]).slice(0, 40)}.${r[1]}`);
      cur = r[0];
    }
    const key =
      chain
        .filter((p) => !wrapper.test(p))
        .slice(0, 3)
        .join(' <- ') || '(unreachable)';
    const v = held.get(key) ?? [0, 0];
    v[0] += j.nodes[n * nf + si];
    v[1]++;
    held.set(key, v);
  }
  for (const [k, [s, c]] of [...held].sort((a, b) => b[1][0] - a[1][0]).slice(0, 8))
    console.log(`  ${mib(s).padStart(6)} MiB in ${String(c).padStart(5)} buffers: ${k}`);
}

summarize('main', v8.writeHeapSnapshot(path.join(tmp, 'main.heapsnapshot')));
const pool = services[0].renderer;
for (const [i, slot] of (pool.slots ?? []).entries()) {
  const chunks = [];
  for await (const ch of await slot.worker.getHeapSnapshot()) chunks.push(ch);
  const file = path.join(tmp, `worker${i}.heapsnapshot`);
  writeFileSync(file, Buffer.concat(chunks));
  summarize(`worker${i}`, file);
}
await srv.close();
if (process.env.BENCH_KEEP === '1') console.log(`snapshots in ${tmp}`);
else rmSync(tmp, { recursive: true, force: true });
