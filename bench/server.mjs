// Tile server throughput at concurrency 16 from a loopback client, uncached and cached, for the
// bundled example and a heatmap style; then pyramid export tiles/s. Runs the compiled dist/.
// Usage: npm run build && node bench/server.mjs   (BENCH_RUNS=3, BENCH_CONCURRENCY=16, BENCH_BACKEND=cpu)
// Bounded: each uncached run renders the 256 distinct tiles of zoom 4 once; about a minute in all.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './lib.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { tilesCommand } = await import(path.join(root, 'dist/hosts/cli/tiles.js'));

const RUNS = Number(process.env.BENCH_RUNS || 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 16);
const BACKEND = process.env.BENCH_BACKEND || 'cpu';
const tmp = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-bench-'));

/** Seeded points clustered around a few centres (mulberry32), as a heatmap input. */
function heatmapStyle() {
  let seed = 42;
  const rand = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const centres = [
    [2.35, 48.85],
    [-74, 40.7],
    [139.7, 35.7],
    [77.2, 28.6],
    [-46.6, -23.5],
    [31.2, 30],
    [116.4, 39.9],
    [-99.1, 19.4],
    [3.4, 6.5],
    [151.2, -33.9],
  ];
  const features = [];
  for (let i = 0; i < 3000; i++) {
    const [lng, lat] = centres[i % centres.length];
    const r = 25 * Math.sqrt(-2 * Math.log(rand() + 1e-12));
    const a = 2 * Math.PI * rand();
    features.push({
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'Point',
        coordinates: [Math.max(-179, Math.min(179, lng + r * Math.cos(a))), Math.max(-80, Math.min(80, lat + 0.6 * r * Math.sin(a)))],
      },
    });
  }
  return {
    name: 'bench heatmap',
    output: 'out',
    params: { radius: { type: 'number', default: 30, min: 0, max: 30 } },
    sources: { pts: { type: 'geojson', data: { type: 'FeatureCollection', features } } },
    nodes: {
      pts: { op: 'features', source: 'pts' },
      sea: { op: 'solid', color: '#1d2230' },
      density: { op: 'density', features: '@pts', radius: '$radius', intensity: 0.4 },
      heat: {
        op: 'color-ramp',
        field: '@density',
        stops: [
          { value: 0, color: '#ffffb200' },
          { value: 0.3, color: '#fecc5c' },
          { value: 1, color: '#fd8d3c' },
          { value: 2, color: '#f03b20' },
          { value: 4, color: '#bd0026' },
        ],
      },
      out: { op: 'blend', base: '@sea', over: '@heat' },
    },
  };
}

const styles = [
  { name: 'world example', file: path.join(root, 'examples/world/style.json') },
  { name: 'heatmap', file: path.join(tmp, 'heatmap.json'), doc: heatmapStyle() },
];
for (const s of styles) if (s.doc) writeFileSync(s.file, JSON.stringify(s.doc));

const tilesOf = (z) => {
  const out = [];
  for (let y = 0; y < 2 ** z; y++) for (let x = 0; x < 2 ** z; x++) out.push([z, x, y]);
  return out;
};

/** `tilegraph serve` in a child process, so the client's work does not share the server's thread. */
async function startServer(style, extra = []) {
  const child = spawn(process.execPath, [path.join(root, 'dist/hosts/cli/main.js'), 'serve', '--style', style, '--port', '0', '--backend', BACKEND, ...extra], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let text = '';
  for await (const chunk of child.stdout) {
    text += chunk;
    const m = /version (\w+)\) at (http:\/\/\S+)/.exec(text);
    if (m) {
      return {
        url: m[2],
        version: m[1],
        async close() {
          child.kill('SIGTERM');
          await once(child, 'exit');
        },
      };
    }
  }
  throw new Error(`the server did not start: ${text}`);
}

function pct(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** `count` requests over `urls` (round robin) from CONCURRENCY loopback clients. */
async function load(urls, count) {
  const lat = [];
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const url = urls[next++ % urls.length];
        const s = performance.now();
        const r = await fetch(url);
        const body = r.clone();
        await r.arrayBuffer();
        if (r.status !== 200 && failed++ === 0)
          console.error(
            `  ${url}: ${r.status} ${Buffer.from(await body.arrayBuffer())
              .toString()
              .slice(0, 300)}`,
          );
        lat.push(performance.now() - s);
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  if (failed) throw new Error(`${failed} of ${count} requests failed`);
  return { rate: count / secs, p50: pct(lat, 50), p99: pct(lat, 99) };
}

const row = (label, runs) =>
  console.log(
    `  ${label.padEnd(34)} ${median(runs.map((r) => r.rate))
      .toFixed(1)
      .padStart(8)} tiles/s   p50 ${median(runs.map((r) => r.p50))
      .toFixed(1)
      .padStart(7)} ms   p99 ${median(runs.map((r) => r.p99))
      .toFixed(1)
      .padStart(7)} ms   (median of ${runs.length})`,
  );

console.log(`tile server: ${os.availableParallelism()} cores, concurrency ${CONCURRENCY}, backend ${BACKEND}, 256 px tiles, loopback`);
for (const s of styles) {
  const uncached = [];
  const cached = [];
  for (let run = 0; run < RUNS; run++) {
    // A fresh server per run with no tile cache: each of the 256 zoom-4 tiles renders once.
    const srv = await startServer(s.file, ['--cache-mb', '0']);
    try {
      await load(
        tilesOf(3).map(([z, x, y]) => `${srv.url}tiles/${z}/${x}/${y}.png`),
        64,
      ); // warm the workers
      uncached.push(
        await load(
          tilesOf(4).map(([z, x, y]) => `${srv.url}tiles/${z}/${x}/${y}.png`),
          256,
        ),
      );
    } finally {
      await srv.close();
    }
  }
  const srv = await startServer(s.file);
  try {
    const urls = tilesOf(4).map(([z, x, y]) => `${srv.url}tiles/${z}/${x}/${y}.png?v=${srv.version}`);
    await load(urls, 256); // fill the cache
    for (let run = 0; run < RUNS; run++) cached.push(await load(urls, 2000));
  } finally {
    await srv.close();
  }
  row(`${s.name}, uncached`, uncached);
  row(`${s.name}, cached`, cached);
}

console.log(`pyramid export (tiles to .pmtiles, zoom 0-4 = 341 tiles, ${os.availableParallelism()} worker threads)`);
for (const s of styles) {
  const rates = [];
  for (let run = 0; run < RUNS; run++) {
    const out = path.join(tmp, `pyramid-${run}.pmtiles`);
    const t0 = performance.now();
    await tilesCommand({
      style: s.file,
      bbox: '-180,-85.0511287798066,180,85.0511287798066',
      minZoom: 0,
      maxZoom: 4,
      out,
      tileSize: 256,
      backend: BACKEND,
      progress: 'none',
    });
    rates.push(341 / ((performance.now() - t0) / 1000));
    rmSync(out, { force: true });
  }
  console.log(`  ${s.name.padEnd(34)} ${median(rates).toFixed(1).padStart(8)} tiles/s   (median of ${rates.length}, worker start-up included)`);
}
rmSync(tmp, { recursive: true, force: true });
