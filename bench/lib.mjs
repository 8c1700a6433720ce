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
