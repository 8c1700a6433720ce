// Timing rule shared with ../shared/peers/scripts/benchlib.mjs (same warm-up, run count and
// minimum time), so our rows and the peers' rows in one table are measured alike.
import fs from 'node:fs';
import path from 'node:path';

const WARMUP = Number(process.env.BENCH_WARMUP || 5);
const MIN_RUNS = Number(process.env.BENCH_MIN_RUNS || 30);
const MIN_TIME_S = Number(process.env.BENCH_MIN_TIME_S || 1.0);
const MAX_RUNS = Number(process.env.BENCH_MAX_RUNS || 1000);

export async function bench(fn, { warmup = WARMUP, minRuns = MIN_RUNS, minTimeS = MIN_TIME_S, maxRuns = MAX_RUNS } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const times = [];
  const start = process.hrtime.bigint();
  while (times.length < maxRuns && (times.length < minRuns || Number(process.hrtime.bigint() - start) / 1e9 < minTimeS)) {
    const t0 = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return times;
}

/**
 * Node's own flags in the Docker image's ENTRYPOINT (`["node", "--single-threaded-gc",
 * "dist/hosts/cli/main.js"]`: the flags between `node` and the script), which `npm start` and the
 * Kubernetes manifests share: the bench starts its servers the way the image does.
 */
export function imageNodeFlags(root) {
  const m = /^ENTRYPOINT\s+(\[.*\])\s*$/m.exec(fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8'));
  if (!m) throw new Error('Dockerfile: no ENTRYPOINT ["node", ...] line');
  const argv = JSON.parse(m[1]);
  const script = argv.findIndex((a) => a.endsWith('.js'));
  if (argv[0] !== 'node' || script < 1) throw new Error(`Dockerfile: ENTRYPOINT ${m[1]} is not node [flags] <script>`);
  return argv.slice(1, script);
}

export function median(a) {
  const s = [...a].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function record(job, tool, size, times, note = '') {
  const rec = { job, tool, size: String(size), median_ms: median(times), min_ms: Math.min(...times), runs: times.length, note };
  const out = process.env.RESULTS;
  if (out) {
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.appendFileSync(out, JSON.stringify(rec) + '\n');
  }
  console.log(
    `  ${job.padEnd(30)} ${tool.padEnd(36)} ${String(size).padEnd(5)} median ${rec.median_ms.toFixed(3).padStart(9)} ms  min ${rec.min_ms.toFixed(3).padStart(9)} ms  runs ${String(times.length).padStart(4)}  ${note}`,
  );
  return rec;
}

/** The peers' job 5a style: countries filled #f2efe9 with a 1.5 px #555555 stroke. */
export function countriesStyle(data) {
  return {
    output: 'map',
    sources: { countries: { type: 'geojson', data } },
    nodes: {
      c: { op: 'features', source: 'countries' },
      fill: { op: 'fill-solid', features: '@c', fill: '#f2efe9' },
      line: { op: 'stroke-solid', features: '@c', color: '#555555', width: 1.5 },
      map: { op: 'blend', base: '@fill', over: '@line' },
    },
  };
}

/** Seeded points clustered around a few centres (mulberry32), as a heatmap input. */
export function heatmapStyle() {
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
