// npm run bench: our rows, and, where ../shared/peers is set up, the peers (Mapnik, libvips, GDAL)
// in the same invocation, so the ratio column compares runs made under the same machine load.
// Options: --no-peers (ours only), --gpu (both backends side by side with their per-render
// counters, bench/backends.mjs), BENCH_ONLY=<regex>.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PEERS = path.resolve(HERE, '../../shared/peers');
const OUT = path.join(HERE, 'out');
const args = new Set(process.argv.slice(2));
mkdirSync(OUT, { recursive: true });
// This run's gallery tables only (a part left out by BENCH_ONLY leaves none).
for (const f of ['preview.json', 'server.json', 'speed.json']) rmSync(path.join(OUT, f), { force: true });
// The machine's speed (bench/speed.mjs, code-independent) before and after each part: this VM's
// speed moves by a third within minutes, and these say how fast it was while the rows ran.
const speeds = [];
// Each sample in a fresh process: in one process the workloads' code warms from call to call.
const sample = (part, when) => {
  const r = spawnSync(process.execPath, [path.join(HERE, 'speed.mjs')], { encoding: 'utf8' });
  if (r.status === 0) speeds.push({ part, when, ...JSON.parse(r.stdout) });
};

const peersReady =
  !args.has('--no-peers') &&
  existsSync(path.join(PEERS, 'run.sh')) &&
  spawnSync('/usr/bin/python3', ['-c', 'import mapnik, numpy; from osgeo import gdal'], { stdio: 'ignore' }).status === 0;

const ours = [`node ${path.join(HERE, 'ours.mjs')}`];
if (args.has('--gpu')) ours.push(`node ${path.join(HERE, 'backends.mjs')}`);
for (const extra of ['server.mjs', 'sources.mjs', 'brushes.mjs', 'color.mjs', 'terrain.mjs', 'preview.mjs', 'geometry.mjs', 'labels.mjs', 'maplibre.mjs'])
  if (existsSync(path.join(HERE, extra))) ours.push(`node ${path.join(HERE, extra)}`);

let results;
if (peersReady) {
  const work = path.join(OUT, 'peers');
  sample('peers and ours', 'before');
  const r = spawnSync('bash', [path.join(PEERS, 'run.sh')], {
    stdio: 'inherit',
    env: { ...process.env, PEERS_WORK: work, ANCHORS_EXTRA: ours.join(' && ') },
  });
  sample('peers and ours', 'after');
  if (r.status !== 0) process.exit(r.status ?? 1);
  results = path.join(work, 'out/results.jsonl');
} else {
  console.log(existsSync(PEERS) ? 'peers not set up (run ../shared/peers/setup.sh): our rows only, no ratios' : 'no ../shared/peers: our rows only');
  results = path.join(OUT, 'results.jsonl');
  rmSync(results, { force: true });
  for (const cmd of ours) {
    const part = path.basename(cmd.split(' ').at(-1), '.mjs');
    sample(part, 'before');
    const r = spawnSync('bash', ['-c', cmd], { stdio: 'inherit', env: { ...process.env, RESULTS: results } });
    sample(part, 'after');
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}

// Ratio table: each of our rows against the peer rows of the same job and size.
const rows = existsSync(results)
  ? readFileSync(results, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  : [];
const isOurs = (r) => r.tool.startsWith('tilegraph');
console.log('\n== tilegraph vs peers (same run; ratio = our median / peer median, < 1 is faster)');
console.log(
  `${'job'.padEnd(32)} ${'size'.padEnd(5)} ${'ours'.padEnd(34)} ${'ms'.padStart(8)}   ${'peer'.padEnd(44)} ${'ms'.padStart(8)} ${'ratio'.padStart(7)}`,
);
for (const o of rows.filter(isOurs)) {
  const peers = rows.filter((p) => !isOurs(p) && p.job === o.job && p.size === o.size);
  if (!peers.length) {
    console.log(`${o.job.padEnd(32)} ${o.size.padEnd(5)} ${o.tool.padEnd(34)} ${o.median_ms.toFixed(2).padStart(8)}   ${'(no peer)'.padEnd(44)}`);
    continue;
  }
  for (const p of peers) {
    console.log(
      `${o.job.padEnd(32)} ${o.size.padEnd(5)} ${o.tool.padEnd(34)} ${o.median_ms.toFixed(2).padStart(8)}   ${p.tool.padEnd(44)} ${p.median_ms.toFixed(2).padStart(8)} ${(o.median_ms / p.median_ms).toFixed(2).padStart(7)}`,
    );
  }
}

// The README's two gallery tables (bench/preview.mjs, bench/server.mjs), from this run's JSON.
const table = (file, head, line) => {
  const f = path.join(OUT, file);
  if (!existsSync(f)) return;
  const rows = JSON.parse(readFileSync(f, 'utf8'));
  console.log(
    `\n== ${file} (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  console.log(head);
  for (const r of rows) console.log(line(r));
};
table(
  'preview.json',
  '| style | param | median ms | max ms | tiles |\n|---|---|---:|---:|---:|',
  (r) => `| ${r.style} | ${r.param} | ${r.median_ms} | ${r.max_ms} | ${r.tiles} |`,
);
table(
  'server.json',
  '| style | zoom | uncached tiles/s | p50 / p99 ms | CPU ms per tile (main, workers, other) | cached tiles/s |\n|---|---:|---:|---:|---:|---:|',
  (r) =>
    `| ${r.style} | ${r.zoom} | ${r.uncached_tiles_per_s} | ${r.p50_ms} / ${r.p99_ms} | ${r.cpu_ms_per_tile} (${r.cpu_ms_per_tile_main}, ${r.cpu_ms_per_tile_workers}, ${r.cpu_ms_per_tile_other}) | ${r.cached_tiles_per_s ?? ''} |`,
);

// The machine's speed through the run (lower is faster), kept beside the tables.
writeFileSync(path.join(OUT, 'speed.json'), `${JSON.stringify(speeds, null, 1)}\n`);
const range = (k) => {
  const v = speeds.map((x) => x[k]).sort((a, b) => a - b);
  if (!v.length) return 'not measured';
  return `${v[0]}-${v.at(-1)} ms (median ${v[v.length >> 1]})`;
};
console.log(
  `\n== machine speed (bench/speed.mjs, ${speeds.length} samples before and after each part; bench/out/speed.json): js ${range('js')}, zlib ${range('zlib')}`,
);
