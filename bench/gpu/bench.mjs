// The GPU bench (issue 24; docs/gpu.md "The GPU bench bundle"): one report of the WebGPU backend
// against the CPU backend on all cores of the same machine. Bundled into app/bench.js of
// out/gpu-bundle.tar.xz by scripts/gpu-bundle.mjs; run.sh starts it after choosing the Vulkan
// driver. Runs unbundled too: `node bench/gpu/bench.mjs --styles-dir out/gpu-bundle/styles`.
//
//   --probe            print the adapter as one JSON line after a test render (run.sh's driver probe)
//   --quick            short budgets (about 2 minutes on a 16-core GPU machine)
//   --out DIR          write report.txt and report.json there (after every section)
//   --sections a,b     adapter,export,server,ops (default all)
//   --styles a,b       bench styles by name (default all of bench.json)
//   --budget-scale X   multiply every time budget (default 1)
//
// Sections are isolated: one that fails prints its error and the next runs. Each has a time
// budget; units that do not fit print "skipped: time budget".
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { CpuBackend, NodeCache, Renderer, releaseRaster, tileWindow } from '../../dist/index.js';
import { GpuBackend } from '../../dist/backends/gpu/index.js';
import { NodeLoader } from '../../dist/hosts/node/index.js';
import { closeGpu, createGpuBackend, createGpuDevice, gpuAdapterSummary, mayHaveHardwareGpu } from '../../dist/hosts/node/gpu.js';
import { archiveTiles, openArchive, tileIdToZxy } from '../../dist/hosts/node/pmtiles/index.js';
import { TileList, tilesCommand } from '../../dist/hosts/cli/tiles.js';
import { MAX_DEFAULT_GPU_WORKERS } from '../../dist/hosts/node/render-pool.js';
import { compareImages } from '../../dist/hosts/cli/check.js';
import { load } from './load.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

// --- arguments ------------------------------------------------------------------------------

function parseArgs(argv) {
  const a = { quick: false, probe: false, budgetScale: 1 };
  for (let i = 0; i < argv.length; i++) {
    const [k, inline] = argv[i].split(/=(.*)/s, 2);
    const val = () => inline ?? argv[++i];
    if (k === '--quick') a.quick = true;
    else if (k === '--probe') a.probe = true;
    else if (k === '--out') a.out = val();
    else if (k === '--sections') a.sections = val().split(',');
    else if (k === '--styles') a.styles = val().split(',');
    else if (k === '--styles-dir') a.stylesDir = val();
    else if (k === '--cli') a.cli = val();
    else if (k === '--budget-scale') a.budgetScale = Number(val());
    else throw new Error(`unknown argument '${argv[i]}'`);
  }
  return a;
}

const args = parseArgs(process.argv.slice(2));
const now = () => performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fmt = (v, d = 1) => (v === undefined || v === null || !Number.isFinite(v) ? '-' : v.toFixed(d));
const msg = (e) =>
  String(e?.message ?? e)
    .split('\n')[0]
    .slice(0, 300);

// --- probe: run.sh asks whether this environment gives an adapter that renders ---------------

/** The probe's test tile (and the adapter section's timestamp check). */
const PROBE_STYLE = {
  output: 'b',
  nodes: {
    s: { op: 'solid', color: '#336699' },
    n: { op: 'noise', kind: 'value', 'scale-px': 8, octaves: 2, seed: 1, output: 'raster' },
    m: { op: 'blend', base: '@s', over: '@n', opacity: 0.25 },
    b: { op: 'blur', input: '@m', sigma: 2 },
  },
};

if (args.probe) {
  const t0 = now();
  try {
    const made = await createGpuDevice({ allowFallback: true });
    if (!made) throw new Error('no WebGPU adapter found');
    const backend = new GpuBackend({ device: made.device });
    const r = Renderer.create(PROBE_STYLE, { loader: new NodeLoader({ baseDir: os.tmpdir() }) });
    const win = { z: 0, x0: 0, y0: 0, width: 64, height: 64, tileSize: 64 };
    const gpu = await r.renderWindow(win, undefined, { backend, signal: AbortSignal.timeout(30000) });
    const cpu = await r.renderWindow(win, undefined, { backend: new CpuBackend() });
    let maxDiff = 0;
    for (let i = 0; i < gpu.raster.data.length; i++) maxDiff = Math.max(maxDiff, Math.abs(gpu.raster.data[i] - cpu.raster.data[i]));
    const l = made.device.limits;
    console.log(
      JSON.stringify({
        ok: maxDiff < 2 / 255,
        adapter: made.adapter,
        limits: { maxTextureDimension2D: l.maxTextureDimension2D, maxBufferSize: l.maxBufferSize, maxStorageBufferBindingSize: l.maxStorageBufferBindingSize },
        testRender: { maxDiffToCpu: maxDiff, ms: now() - t0 },
        error: maxDiff < 2 / 255 ? undefined : `the test render differs from the CPU's by ${maxDiff}`,
      }),
    );
    backend.destroy();
    process.exit(0);
  } catch (e) {
    console.log(JSON.stringify({ ok: false, error: msg(e), ms: now() - t0 }));
    process.exit(2);
  }
}

// --- the report -----------------------------------------------------------------------------

// GPU timing with timestamp queries in every GPU backend of this process and its workers (the "gpu" column).
process.env.TILEGRAPH_GPU_TIMESTAMPS ??= '1';
const QUICK = args.quick;
const S = args.budgetScale > 0 ? args.budgetScale : 1;
/** Seconds per section (and the whole run), scaled by --budget-scale. */
const BUDGET = Object.fromEntries(
  // Full: the bench within 320 s, so that unpacking, probes and bench end within 400 s on the lent machine (run.sh stops it at 370 s).
  Object.entries(QUICK ? { export: 60, server: 24, ops: 20, total: 140 } : { export: 190, server: 60, ops: 40, total: 320 }).map(([k, v]) => [k, v * S]),
);
const START = now();
const SECTIONS = new Set(args.sections ?? ['adapter', 'export', 'server', 'ops']);
const stylesDir = path.resolve(args.stylesDir ?? path.join(HERE, '../styles'));
const manifest = JSON.parse(readFileSync(path.join(stylesDir, 'bench.json'), 'utf8'));
const STYLES = manifest.styles.filter((s) => !args.styles || args.styles.includes(s.name)).map((s) => ({ ...s, path: path.join(stylesDir, s.file) }));
const CLI = args.cli ?? [path.join(HERE, 'tilegraph.js'), path.resolve(HERE, '../../dist/hosts/cli/main.js')].find((f) => existsSync(f));
const CORES = os.availableParallelism();
const tmp = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-gpubench-'));

const report = {
  version: 1,
  date: new Date().toISOString(),
  mode: QUICK ? 'quick' : 'full',
  budgets: BUDGET,
  host: {},
  adapter: undefined,
  exports: [],
  server: [],
  ops: [],
  errors: [],
};
/** The compact lines (stdout and the top of report.txt) and the detail lines (report.txt only). */
const lines = [];
const details = [];
const say = (l = '') => {
  console.log(l);
  lines.push(l);
};
const detail = (l = '') => details.push(l);

function writeReport() {
  if (!args.out) return;
  try {
    mkdirSync(args.out, { recursive: true });
    writeFileSync(path.join(args.out, 'report.json'), JSON.stringify(report, null, 1) + '\n');
    writeFileSync(path.join(args.out, 'report.txt'), [...lines, '', '== details', ...details, ''].join('\n'));
  } catch (e) {
    console.log(`(cannot write the report files: ${msg(e)})`);
  }
}

const elapsedS = () => (now() - START) / 1000;
const totalLeft = () => BUDGET.total - elapsedS();

async function section(name, budgetS, fn) {
  if (!SECTIONS.has(name)) return;
  const left = Math.min(budgetS, totalLeft());
  if (left <= 1) {
    say(`\n== ${name}: skipped: time budget (run total ${fmt(elapsedS(), 0)} s of ${BUDGET.total} s)`);
    return;
  }
  const t0 = now();
  const deadline = t0 + left * 1000;
  try {
    await fn(deadline);
  } catch (e) {
    say(`  ${name}: ERROR ${msg(e)}`);
    report.errors.push({ section: name, error: msg(e), stack: String(e?.stack ?? '') });
    detail(`${name} error: ${e?.stack ?? e}`);
  }
  detail(`section ${name}: ${fmt((now() - t0) / 1000)} s (budget ${fmt(left, 0)} s)`);
  writeReport();
}

// --- adapter ----------------------------------------------------------------------------------

let gpuOk = false;

await section('adapter', 30, async () => {
  report.host = {
    node: process.version,
    cores: CORES,
    cpu: os.cpus()[0]?.model,
    memGiB: os.totalmem() / 2 ** 30,
    platform: `${process.platform} ${process.arch} ${os.release()}`,
    vk: Object.fromEntries(['VK_ICD_FILENAMES', 'VK_DRIVER_FILES', 'LD_LIBRARY_PATH', 'XDG_RUNTIME_DIR'].map((k) => [k, process.env[k] ?? ''])),
  };
  say(`== tilegraph GPU bench (${report.mode}), ${report.date}`);
  say(`host: node ${process.version}, ${CORES} cores (${report.host.cpu}), ${fmt(report.host.memGiB, 0)} GiB, ${report.host.platform}`);
  const gb = await createGpuBackend({ allowFallback: true });
  const a = gpuAdapterSummary();
  if (!gb || !a) {
    say('adapter: NONE (no WebGPU adapter: GPU rows fail, CPU rows still run)');
    return;
  }
  gpuOk = true;
  if (a.fallback) {
    // A software adapter (SwiftShader) is 10-40x slower than the CPU backend: give the export
    // section five times its budget so the smallest zoom range of every style completes (parity).
    const extra = BUDGET.export * 4;
    BUDGET.export += extra;
    BUDGET.total += extra;
    say(`software adapter: the export budget is raised to ${fmt(BUDGET.export, 0)} s (run total ${fmt(BUDGET.total, 0)} s)`);
  }
  const l = gb.device.limits;
  report.adapter = { ...a, limits: { maxTextureDimension2D: l.maxTextureDimension2D, maxBufferSize: l.maxBufferSize }, autoPicks: undefined };
  const d = a.details;
  const auto = !a.fallback && mayHaveHardwareGpu() ? 'gpu' : 'cpu';
  report.adapter.autoPicks = auto;
  say(
    `adapter: ${d.description || a.description} | vendor ${d.vendor || '-'} | arch ${d.architecture || '-'} | device ${d.device || '-'} | backend Vulkan (Dawn) | ${a.fallback ? 'SOFTWARE (fallback adapter)' : 'hardware'} | --backend auto picks ${auto}`,
  );
  say(`adapter features: ${a.features.join(' ') || '-'}`);
  detail(`adapter details: ${JSON.stringify(d)}`);
  // GPU timestamps (the breakdown's "gpu" column): a test render must time its command buffer
  // and match the CPU; otherwise they are turned off for the rest of the run (workers included).
  let why;
  try {
    const t0 = gb.timings.gpuTimed;
    const r = Renderer.create(PROBE_STYLE, { loader: new NodeLoader({ baseDir: os.tmpdir() }) });
    const win = { z: 0, x0: 0, y0: 0, width: 64, height: 64, tileSize: 64 };
    const g = await r.renderWindow(win, undefined, { backend: gb, signal: AbortSignal.timeout(30000) });
    const c = await r.renderWindow(win, undefined, { backend: new CpuBackend() });
    let maxDiff = 0;
    for (let i = 0; i < g.raster.data.length; i++) maxDiff = Math.max(maxDiff, Math.abs(g.raster.data[i] - c.raster.data[i]));
    if (maxDiff >= 2 / 255) why = `a timed render differs from the CPU's by ${maxDiff}`;
    else if (!(gb.timings.gpuTimed > t0)) why = a.features.includes('timestamp-query') ? 'no command buffer was timed' : 'the adapter has no timestamp-query';
    report.adapter.gpuTimestamps = why ? { ok: false, why } : { ok: true, ms: gb.timings.gpuMs };
  } catch (e) {
    why = msg(e);
    report.adapter.gpuTimestamps = { ok: false, why };
  }
  if (why) {
    process.env.TILEGRAPH_GPU_TIMESTAMPS = '0';
    say(`GPU timestamps: off (${why})`);
  } else say(`GPU timestamps: on (a 64 px test tile took ${fmt(gb.timings.gpuMs, 3)} ms of GPU time)`);
  await closeGpu();
});

// --- pyramid export ---------------------------------------------------------------------------

/** CPU seconds of this process's main thread (/proc/self/task/<pid>/stat: utime + stime). */
function mainThreadCpuS() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

const sumKeys = (list) => {
  const out = {};
  for (const o of list) for (const [k, v] of Object.entries(o ?? {})) if (typeof v === 'number') out[k] = (out[k] ?? 0) + v;
  return out;
};

/**
 * One export of `s` on `backend` over minZ..maxZ to a .pmtiles; stopped at `hardS` seconds. Both
 * backends render in the CLI's worker pool on every core (`tiles` renders in one thread below 64
 * tiles; the bench asks for the pool at any count): the CPU backend, or the GPU with a device per
 * worker. The GPU's breakdown comes from the workers' counters (WorkerPool.stats()).
 */
async function runExport(s, backend, minZ, maxZ, hardS, extra = {}) {
  const file = path.join(tmp, `${s.name}-${backend}-${minZ}-${maxZ}.pmtiles`);
  rmSync(file, { force: true });
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadCpuS();
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), hardS * 1000);
  const stamps = [];
  let bytes = 0;
  let stats;
  let workers = 0;
  const t0 = now();
  let error;
  try {
    await tilesCommand({
      style: s.path,
      bbox: s.bbox.join(','),
      minZoom: minZ,
      maxZoom: maxZ,
      out: file,
      tileSize: s.tileSize,
      backend,
      progress: 'none',
      timeout: 120,
      signal: ac.signal,
      minTilesForWorkers: 1,
      ...extra,
      onTile: (_t, b) => {
        stamps.push(now());
        bytes += b;
      },
      beforeClose: async (r) => {
        workers = r.size ?? 1;
        if (r.stats) stats = await r.stats();
      },
    });
  } catch (e) {
    error = ac.signal.aborted ? `stopped by the time budget after ${stamps.length} tiles (${fmt(hardS, 0)} s)` : msg(e);
  } finally {
    clearTimeout(timer);
  }
  const wallS = (now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const n = stamps.length;
  // Steady state: the rate after the first 10 % of the tiles (start-up, compilation and warm-up excluded).
  const k = Math.floor(n / 10);
  const steady = n >= 20 ? (n - 1 - k) / ((stamps[n - 1] - stamps[k]) / 1000) : undefined;
  const r = {
    backend,
    tiles: n,
    workers,
    wallS,
    tilesPerS: n / wallS,
    steadyTilesPerS: steady,
    firstTileS: n ? (stamps[0] - t0) / 1000 : undefined,
    kbPerTile: n ? bytes / n / 1024 : undefined,
    cpuCoresBusy: (cpu.user + cpu.system) / 1e6 / wallS,
    cpuMsPerTile: n ? (cpu.user + cpu.system) / 1e3 / n : undefined,
    mainThreadBusy: (mainThreadCpuS() - main0) / wallS,
    file: error ? undefined : file,
    error,
  };
  if (stats) {
    const png = sumKeys(stats.map((w) => w.png));
    r.pngMsPerTile = png.count ? png.ms / png.count : undefined;
  }
  if (backend === 'gpu' && stats?.some((w) => w.gpu)) {
    const t = sumKeys(stats.map((w) => w.gpu?.timings));
    const p = sumKeys(stats.map((w) => w.gpu?.pipelining));
    const per = (v) => (t.renders ? v / t.renders : undefined);
    r.gpu = {
      renders: t.renders,
      perTileMs: {
        render: per(t.renderMs),
        record: per(t.recordMs),
        cpuOps: per(t.cpuOpsMs),
        submit: per(t.submitMs),
        wait: per(t.waitMs),
        readback: per(t.readbackMs),
        pngEncode: r.pngMsPerTile,
        // GPU execution (timestamps): per tile, and the share of the wall time the GPU was busy (renders of all workers summed).
        gpu: t.gpuTimed ? t.gpuMs / t.renders : undefined,
      },
      gpuTimed: t.gpuTimed,
      gpuBusy: t.gpuTimed ? t.gpuMs / 1000 / wallS : undefined,
      submitsPerTile: per(t.submits),
      readbacksPerTile: per(t.readbacks),
      kbReadBackPerTile: per(t.bytesReadBack / 1024),
      overlappedRenders: p.overlapped,
      maxReadingBack: Math.max(0, ...stats.map((w) => w.gpu?.pipelining.maxReadingBack ?? 0)),
    };
  }
  return r;
}

/** Every GPU tile against the CPU tile of the same address, decoded by sharp, within the golden tolerance (2/255 on 99.9 %). */
async function parity(gpuFile, cpuFile, deadline) {
  const readAll = async (f) => {
    const a = await openArchive(f);
    const m = new Map();
    try {
      for await (const t of archiveTiles(a)) m.set(t.tileId, t.bytes);
    } finally {
      await a.close();
    }
    return m;
  };
  const [g, c] = await Promise.all([readAll(gpuFile), readAll(cpuFile)]);
  const decode = async (b) => {
    const { data, info } = await sharp(b).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  };
  let compared = 0;
  let identical = 0;
  let failed = 0;
  let missing = 0;
  let worst;
  const ids = [...g.keys()];
  for (const id of c.keys()) if (!g.has(id)) missing++;
  for (let i = 0; i < ids.length; i += 16) {
    if (now() > deadline) return { compared, identical, failed, missing, worst, cut: ids.length - i };
    await Promise.all(
      ids.slice(i, i + 16).map(async (id) => {
        const a = g.get(id);
        const b = c.get(id);
        if (!b) {
          missing++;
          return;
        }
        compared++;
        if (Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0) {
          identical++;
          return;
        }
        const [x, y] = await Promise.all([decode(a), decode(b)]);
        if (x.width !== y.width || x.height !== y.height) {
          failed++;
          worst = { tile: tileIdToZxy(id).join('/'), error: `sizes differ: ${x.width}x${x.height} vs ${y.width}x${y.height}` };
          return;
        }
        const cmp = compareImages(x.data, y.data, x.width, x.height, { channel: 2, fraction: 0.001 });
        if (!cmp.ok) failed++;
        const key = (w) => (w ? [w.ok ? 0 : 1, w.badFraction, w.maxDiff] : [-1, 0, 0]);
        const cand = { tile: tileIdToZxy(id).join('/'), ok: cmp.ok, badFraction: cmp.badFraction, badPixels: cmp.badPixels, maxDiff: cmp.maxDiff };
        const [k1, k2] = [key(cand), key(worst)];
        if (k1[0] > k2[0] || (k1[0] === k2[0] && (k1[1] > k2[1] || (k1[1] === k2[1] && k1[2] > k2[2])))) worst = cand;
      }),
    );
  }
  return { compared, identical, failed, missing, worst };
}

function parityLine(p) {
  if (!p) return 'parity: not run';
  if (p.error) return `parity: ERROR ${p.error}`;
  const w = p.worst;
  const worst = w ? ` worst ${w.tile}: ${w.error ?? `${fmt(100 * w.badFraction, 3)} % of pixels past 2/255, max diff ${fmt(w.maxDiff, 1)}/255`}` : '';
  const cut = p.cut ? `, ${p.cut} tiles not compared (time budget)` : '';
  const miss = p.missing ? `, ${p.missing} tiles missing on one side` : '';
  if (p.failed === 0 && !p.missing && p.compared > 0)
    return `parity ok (${p.compared} tiles, ${p.identical} byte-identical${cut};${worst || ' all identical'})`;
  return `parity FAIL: ${p.failed} of ${p.compared} tiles past the golden tolerance${miss}${cut};${worst}`;
}

await section('export', BUDGET.export, async (deadline) => {
  say(
    `\n== pyramid export to .pmtiles (tiles/s; both backends in the CLI's worker pool: GPU = ${Math.min(CORES, MAX_DEFAULT_GPU_WORKERS)} worker threads with a GPU device each, CPU = ${CORES} worker threads; start-up included; "steady" excludes the first 10 % of tiles)`,
  );
  say(
    `${'style'.padEnd(11)} ${'zooms'.padEnd(6)} ${'tiles'.padStart(6)} ${'GPU t/s'.padStart(8)} ${'steady'.padStart(7)} ${'CPU t/s'.padStart(8)} ${'steady'.padStart(7)} ${'GPU/CPU'.padStart(7)} ${'steady'.padStart(7)}  parity`,
  );
  const breakdown = [];
  for (let si = 0; si < STYLES.length; si++) {
    const s = STYLES[si];
    const styleBudget = (deadline - now()) / 1000 / (STYLES.length - si);
    const styleStart = now();
    const rungs = [];
    const entry = { style: s.name, about: s.about, tileSize: s.tileSize, rungs };
    report.exports.push(entry);
    if (styleBudget < 2) {
      say(`${s.name.padEnd(11)} skipped: time budget`);
      continue;
    }
    // On a hardware GPU the ladder starts at its first rung of 64 tiles or more: smaller rungs
    // measure mostly the pools' start-up (16 workers building the style, GPU devices). On a
    // software adapter (SwiftShader, seconds a tile) it starts at the smallest.
    const first =
      gpuOk && !report.adapter?.fallback
        ? Math.max(
            0,
            s.ladder.findIndex(([a, b]) => new TileList(s.bbox, a, b).total >= 64),
          )
        : 0;
    try {
      for (let i = first; i < s.ladder.length; i++) {
        const [minZ, maxZ] = s.ladder[i];
        const tiles = new TileList(s.bbox, minZ, maxZ).total;
        const spent = (now() - styleStart) / 1000;
        const prev = rungs.at(-1);
        if (prev) {
          const predicted = ((prev.gpu?.wallS ?? 0) + (prev.cpu?.wallS ?? 0)) * (tiles / prev.tiles);
          if (spent + predicted > styleBudget) break;
        }
        const hardS = Math.max(styleBudget - spent, 10) * (prev ? 1.5 : 3);
        const rung = { zooms: `${minZ}-${maxZ}`, tiles };
        rungs.push(rung);
        detail(`export ${s.name} z${minZ}-${maxZ} (${tiles} tiles)...`);
        for (const b of gpuOk ? ['gpu', 'cpu'] : ['cpu']) {
          try {
            rung[b] = await runExport(s, b, minZ, maxZ, Math.max(5, Math.min(hardS, (deadline - now()) / 1000 + 10)));
            // A GPU pool that fails (a driver that gives worker threads no device): one device in this thread instead.
            if (b === 'gpu' && rung.gpu.error && !rung.gpu.error.startsWith('stopped by the time budget')) {
              say(`${s.name.padEnd(11)} GPU z${minZ}-${maxZ} in the worker pool: ${rung.gpu.error}; again on one device in this thread`);
              const poolError = rung.gpu.error;
              rung.gpu = await runExport(s, b, minZ, maxZ, Math.max(5, Math.min(hardS, (deadline - now()) / 1000 + 10)), { concurrency: 1 });
              rung.gpu.poolError = poolError;
            }
          } catch (e) {
            rung[b] = { backend: b, error: msg(e) };
          }
          detail(`  ${b}: ${JSON.stringify(rung[b])}`);
        }
        if (!gpuOk) rung.gpu = { backend: 'gpu', error: 'no adapter' };
        if (rung.gpu.error || rung.cpu.error) break;
      }
    } catch (e) {
      entry.error = msg(e);
    }
    // The last rung that completed on both backends is the style's row; its tiles are compared.
    const done = [...rungs].reverse().find((r) => r.gpu?.file && r.cpu?.file);
    entry.final = done?.zooms;
    if (done) {
      try {
        done.parity = await parity(done.gpu.file, done.cpu.file, Math.max(deadline, now() + 15000));
      } catch (e) {
        done.parity = { error: msg(e) };
      }
    }
    for (const r of rungs) {
      const row = `${s.name.padEnd(11)} ${r.zooms.padEnd(6)} ${String(r.tiles).padStart(6)} ${fmt(r.gpu?.tilesPerS).padStart(8)} ${fmt(r.gpu?.steadyTilesPerS).padStart(7)} ${fmt(r.cpu?.tilesPerS).padStart(8)} ${fmt(r.cpu?.steadyTilesPerS).padStart(7)} ${fmt(r.gpu?.tilesPerS / r.cpu?.tilesPerS, 2).padStart(7)} ${fmt(r.gpu?.steadyTilesPerS / r.cpu?.steadyTilesPerS, 2).padStart(7)}  ${r === done ? parityLine(r.parity) : ''}`;
      if (r === done || r === rungs.at(-1)) say(row);
      else detail(row);
      for (const b of ['gpu', 'cpu']) if (r[b]?.error) say(`${''.padEnd(11)} ${b.toUpperCase()} z${r.zooms}: ${r[b].error}`);
    }
    if (entry.error) say(`${s.name.padEnd(11)} ERROR ${entry.error}`);
    if (!done && !entry.error && rungs.length === 0) say(`${s.name.padEnd(11)} skipped: time budget`);
    if (done?.gpu?.gpu) breakdown.push([s.name, done]);
    for (const r of rungs) for (const b of ['gpu', 'cpu']) if (r[b]?.file && r !== done) rmSync(r[b].file, { force: true });
    writeReport();
  }
  if (breakdown.length) {
    say(`\n== GPU export: where a tile's time goes (ms per tile, summed over the workers' renders, which overlap; wall = 1000 / tiles/s)`);
    say(
      `${'style'.padEnd(11)} ${'wall'.padStart(6)} ${'render'.padStart(7)} ${'record'.padStart(7)} ${'cpuOps'.padStart(7)} ${'submit'.padStart(7)} ${'wait'.padStart(7)} ${'readbk'.padStart(7)} ${'png'.padStart(6)} ${'gpu'.padStart(6)} ${'subm/t'.padStart(6)} ${'rb/t'.padStart(5)} ${'KiB rb'.padStart(7)} ${'ovl'.padStart(5)} ${'wkrs'.padStart(4)}`,
    );
    for (const [name, r] of breakdown) {
      const g = r.gpu.gpu;
      const m = g.perTileMs;
      say(
        `${name.padEnd(11)} ${fmt(1000 / r.gpu.tilesPerS, 2).padStart(6)} ${fmt(m.render, 2).padStart(7)} ${fmt(m.record, 2).padStart(7)} ${fmt(m.cpuOps, 2).padStart(7)} ${fmt(m.submit, 2).padStart(7)} ${fmt(m.wait, 2).padStart(7)} ${fmt(m.readback, 2).padStart(7)} ${fmt(m.pngEncode, 2).padStart(6)} ${fmt(m.gpu, 2).padStart(6)} ${fmt(g.submitsPerTile, 2).padStart(6)} ${fmt(g.readbacksPerTile, 2).padStart(5)} ${fmt(g.kbReadBackPerTile, 0).padStart(7)} ${String(g.overlappedRenders).padStart(5)} ${String(r.gpu.workers).padStart(4)}`,
      );
    }
    say(
      "columns: render = first op to end of a render (latency); record = GPU ops encoding passes (+ their CPU prep: triangulation, uploads); cpuOps = ops on CPU kernels (sources, features, contours) incl. their downloads; submit = finish+submit; wait = mapAsync (GPU execution + queueing + the other workers' time slices); readbk = map + copy of the pixels (widened to f32 on the GPU); png = PNG encode (in the worker); gpu = the GPU's own time for the tile's command buffers (timestamp queries); subm/t, rb/t = submits, readbacks per tile; ovl = renders that started while another of the same worker waited; wkrs = worker threads (one device each)",
    );
    say(`\n== what bounds the export (${CORES} cores): CPU ms per tile = the process's CPU time / tiles; ceilings = tiles/s if that alone were the limit`);
    say(
      `${'style'.padEnd(11)} ${'GPU t/s'.padStart(8)} ${'CPU ms/t'.padStart(9)} ${'cores'.padStart(6)} ${'GPU busy'.padStart(9)} ${'png %'.padStart(6)} ${'CPU ceil'.padStart(9)} ${'PNG ceil'.padStart(9)} ${'GPU ceil'.padStart(9)}   CPU backend: ${'t/s'.padStart(6)} ${'ms/t'.padStart(7)} ${'cores'.padStart(6)} ${'png ms'.padStart(7)}`,
    );
    for (const [name, r] of breakdown) {
      const g = r.gpu;
      const m = g.gpu.perTileMs;
      const c = r.cpu;
      say(
        `${name.padEnd(11)} ${fmt(g.tilesPerS).padStart(8)} ${fmt(g.cpuMsPerTile, 1).padStart(9)} ${fmt(g.cpuCoresBusy, 1).padStart(6)} ${(g.gpu.gpuBusy === undefined ? '-' : `${fmt(100 * g.gpu.gpuBusy, 0)} %`).padStart(9)} ${fmt((100 * (m.pngEncode ?? NaN)) / g.cpuMsPerTile, 0).padStart(6)} ${fmt((CORES * 1000) / g.cpuMsPerTile, 0).padStart(9)} ${fmt((CORES * 1000) / m.pngEncode, 0).padStart(9)} ${fmt(1000 / m.gpu, 0).padStart(9)}                ${fmt(c.tilesPerS).padStart(6)} ${fmt(c.cpuMsPerTile, 1).padStart(7)} ${fmt(c.cpuCoresBusy, 1).padStart(6)} ${fmt(c.pngMsPerTile, 2).padStart(7)}`,
      );
    }
    say(
      "GPU busy = the GPU's own time (timestamps, all workers) / wall; png % = PNG encoding's share of the CPU time per tile; CPU ceil = cores x 1000 / CPU ms per tile; PNG ceil = the same for PNG encoding alone; GPU ceil = 1000 / gpu ms per tile, if the GPU ran one command buffer at a time (GPU busy above 100 %: those of different workers overlapped)",
    );
  }
});

// --- tile server ------------------------------------------------------------------------------

function procCpuS(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

function tilesAt(bbox, z) {
  const n = 2 ** z;
  const tx = (lng) => Math.min(n - 1, Math.max(0, Math.floor(((lng + 180) / 360) * n)));
  const ty = (lat) => {
    const r = (lat * Math.PI) / 180;
    return Math.min(n - 1, Math.max(0, Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n)));
  };
  const out = [];
  for (let y = ty(bbox[3]); y <= ty(bbox[1]); y++) for (let x = tx(bbox[0]); x <= tx(bbox[2]); x++) out.push([z, x, y]);
  return out;
}

async function startServer(style, backend, extra = []) {
  const child = spawn(process.execPath, [CLI, 'serve', '--style', style, '--port', '0', '--backend', backend, '--cache-mb', '0', '--queue', '4096', ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // The server as a user runs it: no GPU timestamps.
    env: { ...process.env, TILEGRAPH_GPU_TIMESTAMPS: '0' },
  });
  let text = '';
  let errText = '';
  child.stderr.on('data', (d) => (errText = (errText + d).slice(-2000)));
  const exited = new Promise((r) => child.once('exit', r));
  const url = await Promise.race([
    (async () => {
      for await (const chunk of child.stdout) {
        text += chunk;
        const m = /at (http:\/\/\S+)/.exec(text);
        if (m) return m[1].replace(/\/?$/, '/');
      }
      throw new Error(`the server exited: ${errText.trim().split('\n').slice(-3).join(' | ')}`);
    })(),
    sleep(60000).then(() => {
      throw new Error('the server did not start in 60 s');
    }),
  ]).catch((e) => {
    child.kill('SIGKILL');
    throw e;
  });
  return {
    url,
    pid: child.pid,
    stderr: () => errText,
    async close() {
      child.kill('SIGTERM');
      if ((await Promise.race([exited.then(() => true), sleep(10000).then(() => false)])) === false) child.kill('SIGKILL');
    },
  };
}

/** One server row: start `serve`, warm up, load it for the rest of `left` seconds. */
async function measureServer(s, backend, urlsAll, left, extra = []) {
  const row = { style: s.name, backend, mode: extra.length ? 'main thread' : 'workers', urls: urlsAll.length, zooms: s.serve.zooms };
  report.server.push(row);
  const label = `${s.name.padEnd(10)} ${backend}${extra.length ? ' (main thread)' : ''}`;
  let srv;
  try {
    const t0 = now();
    srv = await startServer(s.path, backend, extra);
    row.startS = (now() - t0) / 1000;
    const urls = urlsAll.map(([z, x, y]) => `${srv.url}tiles/${z}/${x}/${y}.png`);
    const budget = Math.max(2, left - row.startS - 1.5);
    row.warm = await load(urls, Math.min(3, budget * 0.25));
    const c0 = procCpuS(srv.pid);
    Object.assign(row, await load(urls, budget * 0.75));
    row.cpuMsPerTile = ((procCpuS(srv.pid) - c0) * 1000) / Math.max(1, row.requests);
    say(
      `  ${label}: ${fmt(row.tilesPerS).padStart(8)} tiles/s  p50 ${fmt(row.p50).padStart(7)} ms  p99 ${fmt(row.p99).padStart(7)} ms  server CPU ${fmt(row.cpuMsPerTile, 2)} ms/tile  (${row.requests} requests over ${row.urls} tiles of z${s.serve.zooms.join(',')} in ${fmt(row.seconds)} s${row.unfinished ? `, ${row.unfinished} unfinished after 5 s more` : ''}${row.failed ? `, ${row.failed} FAILED: ${row.firstError}` : ''}; start ${fmt(row.startS)} s)`,
    );
  } catch (e) {
    row.error = msg(e);
    say(`  ${label}: ERROR ${row.error}${srv ? ` | ${srv.stderr().trim().split('\n').slice(-2).join(' | ')}` : ''}`);
  } finally {
    await srv?.close();
  }
  return row;
}

await section('server', BUDGET.server, async (deadline) => {
  const styles = STYLES.filter((s) => (QUICK ? ['world'] : ['world', 'chicago']).includes(s.name));
  say(
    `\n== tile server (tilegraph serve, 256 px, tile cache off: every request renders; concurrency 64, loopback; GPU: ${Math.min(CORES, MAX_DEFAULT_GPU_WORKERS)} workers with a device each; CPU: ${CORES} workers)`,
  );
  if (!CLI) throw new Error('no CLI to start the server with');
  const units = styles.length * 2;
  let i = 0;
  for (const s of styles) {
    const urlsAll = s.serve.zooms.flatMap((z) => tilesAt(s.bbox, z));
    for (const backend of ['gpu', 'cpu']) {
      const left = (deadline - now()) / 1000 / (units - i++);
      if (left < 4) {
        say(`  ${s.name.padEnd(10)} ${backend}: skipped: time budget`);
        continue;
      }
      if (backend === 'gpu' && !gpuOk) {
        say(`  ${s.name.padEnd(10)} gpu: skipped: no adapter`);
        continue;
      }
      const row = await measureServer(s, backend, urlsAll, left);
      // A GPU pool that fails (a driver that gives worker threads no device): the server's main-thread device instead.
      if (backend === 'gpu' && (row.error || row.failed > row.requests / 2) && (deadline - now()) / 1000 > 8) {
        say(`  ${s.name.padEnd(10)} gpu: the worker pool failed; again with --workers 0 (one device in the main thread)`);
        await measureServer(s, backend, urlsAll, Math.min(left, (deadline - now()) / 1000 - 2), ['--workers', '0']);
      }
    }
  }
  const pairs = styles.map((s) => [
    s.name,
    report.server.find((r) => r.style === s.name && r.backend === 'gpu' && r.tilesPerS) ?? report.server.find((r) => r.style === s.name && r.backend === 'gpu'),
    report.server.find((r) => r.style === s.name && r.backend === 'cpu'),
  ]);
  for (const [name, g, c] of pairs)
    if (g?.tilesPerS && c?.tilesPerS) say(`  ${name.padEnd(10)} GPU/CPU throughput ${fmt(g.tilesPerS / c.tilesPerS, 2)}, p99 ${fmt(g.p99 / c.p99, 2)}`);
});

// --- per raster op ----------------------------------------------------------------------------

/**
 * Per raster op, ms per 512 px tile, from a style applying the op K = 5 times (a chain of raster ->
 * raster ops, or 5 instances of a generator each blended onto the result) on fixed inputs (noise,
 * countries).
 * - CPU: the op's own time, clocked around each instance's run in the render (a wrapper of the
 *   backend's session), median over the instances and the renders; one thread. The inputs come
 *   from a node cache after the first render, so a render costs the five ops alone. (The first
 *   H100 run subtracted whole renders, T5 - T1, and drowned in the inputs' cost: negative values.)
 * - GPU: the op's GPU time, (G5 - G1) / 4 of the renders' GPU time (timestamp queries; without
 *   them, of the render latency), generators minus one blend; and "rec", the CPU time the GPU path
 *   spends recording one instance (its CPU preparation: triangles, bins, uploads), clocked as on the CPU.
 */
function opSpecs() {
  const colours = ['#c0392b', '#2980b9', '#27ae60', '#8e44ad', '#d35400'];
  const chain = (make) => (k) => {
    const nodes = {};
    let prev = '@img';
    for (let i = 0; i < k; i++) {
      nodes[`x${i}`] = make(prev, i);
      prev = `@x${i}`;
    }
    return { nodes, output: prev.slice(1) };
  };
  const gen = (make) => (k) => {
    const nodes = {};
    let prev = '@img';
    for (let i = 0; i < k; i++) {
      nodes[`g${i}`] = make(i);
      nodes[`b${i}`] = { op: 'blend', base: prev, over: `@g${i}`, opacity: 0.5 };
      prev = `@b${i}`;
    }
    return { nodes, output: prev.slice(1) };
  };
  return [
    { name: 'blend (normal, 0.5)', kind: 'chain', build: chain((p, i) => ({ op: 'blend', base: p, over: '@img2', opacity: 0.5 - i * 0.01 })) },
    { name: 'blend multiply', kind: 'chain', build: chain((p) => ({ op: 'blend', base: p, over: '@img2', mode: 'multiply' })) },
    { name: 'blur sigma 4', kind: 'chain', build: chain((p) => ({ op: 'blur', input: p, sigma: 4 })) },
    { name: 'blur sigma 16', kind: 'chain', build: chain((p) => ({ op: 'blur', input: p, sigma: 16 })) },
    { name: 'displace 4 px', kind: 'chain', build: chain((p) => ({ op: 'displace', input: p, displacement: '@img2', 'amp-px': 4 })) },
    { name: 'brightness-contrast', kind: 'chain', build: chain((p) => ({ op: 'brightness-contrast', input: p, brightness: 0.05, contrast: 0.1 })) },
    { name: 'channel-shuffle', kind: 'chain', build: chain((p) => ({ op: 'channel-shuffle', input: p, r: 'g', g: 'b', b: 'r' })) },
    { name: 'color-to-alpha', kind: 'chain', build: chain((p) => ({ op: 'color-to-alpha', input: p, color: '#808080', softness: 0.3 })) },
    { name: 'threshold (luma)', kind: 'chain', build: chain((p) => ({ op: 'threshold', input: p, level: 0.5, softness: 0.1, channel: 'luma' })) },
    { name: 'erode 2 px', kind: 'chain', build: chain((p) => ({ op: 'erode', input: p, 'radius-px': 2 })) },
    { name: 'dilate 2 px', kind: 'chain', build: chain((p) => ({ op: 'dilate', input: p, 'radius-px': 2 })) },
    { name: 'edge-detect', kind: 'chain', build: chain((p) => ({ op: 'edge-detect', input: p })) },
    {
      name: 'dither ordered',
      kind: 'chain',
      build: chain((p) => ({ op: 'dither', input: p, palette: ['#000000', '#ffffff', '#c0392b', '#2980b9'], method: 'ordered' })),
    },
    { name: 'dither floyd-steinberg', kind: 'chain', build: chain((p) => ({ op: 'dither', input: p, palette: ['#000000', '#ffffff', '#c0392b', '#2980b9'] })) },
    { name: 'solid', kind: 'gen', build: gen((i) => ({ op: 'solid', color: colours[i] })) },
    { name: 'noise value 3 oct', kind: 'gen', build: gen((i) => ({ op: 'noise', kind: 'value', 'scale-px': 30, octaves: 3, seed: 10 + i, output: 'raster' })) },
    {
      name: 'noise simplex 3 oct',
      kind: 'gen',
      build: gen((i) => ({ op: 'noise', kind: 'simplex', 'scale-px': 30, octaves: 3, seed: 20 + i, output: 'raster' })),
    },
    { name: 'fill-solid (countries)', kind: 'gen', build: gen((i) => ({ op: 'fill-solid', features: '@c', fill: colours[i] })) },
    {
      name: 'stroke-solid 1.5 px',
      kind: 'gen',
      build: gen((i) => ({ op: 'stroke-solid', features: '@c', color: colours[i], width: 1.5 + 0.01 * i, join: 'round' })),
    },
    {
      name: 'circles (centroids)',
      kind: 'gen',
      build: gen((i) => ({ op: 'circles', features: '@pts', radius: 6 + 0.01 * i, color: colours[i], 'stroke-color': '#ffffff', 'stroke-width': 1 })),
    },
    {
      name: 'color-ramp (field)',
      kind: 'gen',
      build: gen((i) => ({
        op: 'color-ramp',
        field: '@fld',
        stops: [
          { value: 0, color: '#00000000' },
          { value: 1, color: colours[i] },
        ],
      })),
    },
    { name: 'hillshade (field)', kind: 'gen', build: gen((i) => ({ op: 'hillshade', field: '@fld', 'z-factor': 2000 + i, azimuth: 315 - i })) },
  ];
}

const OP_BASE = {
  c: { op: 'features', source: 'countries' },
  pts: { op: 'centroid', features: '@c' },
  img: { op: 'noise', kind: 'value', 'scale-px': 40, octaves: 2, seed: 1, output: 'raster' },
  img2: { op: 'noise', kind: 'simplex', 'scale-px': 60, octaves: 2, seed: 2, output: 'raster' },
  fld: { op: 'noise', kind: 'simplex', 'scale-px': 50, octaves: 3, seed: 3 },
};

/** The backend with each session's run() clocked per node id: sink(id, ms). */
function clockedBackend(backend, sink) {
  return new Proxy(backend, {
    get(target, key) {
      if (key === 'begin') {
        return () => {
          const session = target.begin();
          return new Proxy(session, {
            get(t, k) {
              if (k === 'run')
                return async (op, ctx) => {
                  const t0 = now();
                  try {
                    return await t.run(op, ctx);
                  } finally {
                    sink(ctx.id, now() - t0);
                  }
                };
              const v = t[k];
              return typeof v === 'function' ? v.bind(t) : v;
            },
          });
        };
      }
      const v = target[key];
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

const median = (xs) => {
  if (!xs.length) return undefined;
  const a = [...xs].sort((x, y) => x - y);
  return a[a.length >> 1];
};

await section('ops', BUDGET.ops, async (deadline) => {
  const world = STYLES.find((s) => s.name === 'world') ?? manifest.styles.find((s) => s.name === 'world');
  const baseDir = path.dirname(path.join(stylesDir, world.file));
  const loader = new NodeLoader({ baseDir });
  const win = tileWindow({ z: 3, x: 4, y: 2 }, 512);
  const runs = QUICK ? 3 : 5;
  const gpu = gpuOk ? await createGpuBackend({ allowFallback: true }) : undefined;
  const cpu = new CpuBackend();
  const INPUTS = new Set(Object.keys(OP_BASE));
  // A node cache that keeps the inputs only: the ops under test run in every render.
  class InputCache extends NodeCache {
    key(plan, n, w, p) {
      return INPUTS.has(n.id) ? super.key(plan, n, w, p) : undefined;
    }
  }
  say(
    `\n== per raster op, ms per 512 px tile (z3/4/2, Europe), 5 instances per style, ${runs} renders after 1: CPU = the op's own time (one thread; median over instances and renders); GPU = (G5 - G1) / 4 of the renders' GPU time (timestamp queries; render latency where there are none), generators minus a blend; rec = CPU time recording one instance on the GPU path`,
  );
  const doc = (build, k) => {
    const { nodes, output } = build(k);
    return { output, sources: { countries: { type: 'geojson', data: 'countries-110m.json', maxzoom: 6 } }, nodes: { ...OP_BASE, ...nodes } };
  };
  /** Renders `d` `runs` times after one warm-up; per-node run times (ms), the median latency and the median GPU time per render. */
  const timeStyle = async (d, backend) => {
    const perNode = new Map();
    let recording = false;
    const clocked = clockedBackend(backend, (id, ms) => {
      if (!recording) return;
      if (!perNode.has(id)) perNode.set(id, []);
      perNode.get(id).push(ms);
    });
    const r = Renderer.create(d, { loader, nodeCache: backend.name === 'cpu' ? new InputCache(256 * 2 ** 20) : undefined });
    const lat = [];
    const gpuT = [];
    for (let i = 0; i <= runs; i++) {
      recording = i > 0;
      const g0 = backend.timings ? { ...backend.timings } : undefined;
      const t0 = now();
      const { raster } = await r.renderWindow(win, undefined, { backend: clocked, signal: AbortSignal.timeout(60000) });
      const ms = now() - t0;
      releaseRaster(raster);
      if (i === 0) continue;
      lat.push(ms);
      if (g0 && backend.timings.gpuTimed > g0.gpuTimed) gpuT.push(backend.timings.gpuMs - g0.gpuMs);
    }
    return { perNode, latency: median(lat), gpu: median(gpuT) };
  };
  const instances = (perNode, prefix) => [0, 1, 2, 3, 4].flatMap((i) => perNode.get(`${prefix}${i}`) ?? []);
  // Fixed cost of a tile: a style that is one solid.
  const overhead = { name: 'tile overhead (one solid)' };
  const bare = { output: 's', nodes: { s: { op: 'solid', color: '#336699' } } };
  for (const [b, backend] of [
    ['cpu', cpu],
    ['gpu', gpu],
  ]) {
    if (!backend) continue;
    try {
      const t = await timeStyle(bare, backend);
      overhead[b] = t.latency;
      if (b === 'gpu') overhead.gpuTime = t.gpu;
    } catch (e) {
      overhead[`${b}Error`] = msg(e);
    }
  }
  report.ops.push(overhead);
  say(`${'op'.padEnd(26)} ${'CPU ms'.padStart(8)} ${'GPU ms'.padStart(8)} ${'CPU/GPU'.padStart(8)} ${'rec ms'.padStart(8)}   (GPU: G1, G5; T1 latency)`);
  say(
    `${overhead.name.padEnd(26)} ${fmt(overhead.cpu, 2).padStart(8)} ${fmt(overhead.gpuTime ?? overhead.gpu, 2).padStart(8)} ${''.padStart(8)} ${''.padStart(8)}   (latency ${fmt(overhead.gpu, 2)})`,
  );
  let blendPer = 0;
  const specs = opSpecs();
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i];
    if (now() > deadline) {
      say(
        `${specs
          .slice(i)
          .map((s) => s.name)
          .join(', ')}: skipped: time budget`,
      );
      break;
    }
    const row = { name: spec.name, kind: spec.kind };
    report.ops.push(row);
    const prefix = spec.kind === 'gen' ? 'g' : 'x';
    try {
      const t5 = await timeStyle(doc(spec.build, 5), cpu);
      row.cpuSamples = instances(t5.perNode, prefix).length;
      row.cpu = median(instances(t5.perNode, prefix));
    } catch (e) {
      row.cpuError = msg(e);
    }
    if (gpu) {
      try {
        const t1 = await timeStyle(doc(spec.build, 1), gpu);
        const t5 = await timeStyle(doc(spec.build, 5), gpu);
        row.gpuRec = median(instances(t5.perNode, prefix));
        row.gpuT1 = t1.latency;
        row.gpuT5 = t5.latency;
        row.gpuG1 = t1.gpu;
        row.gpuG5 = t5.gpu;
        const [a1, a5] = t1.gpu !== undefined && t5.gpu !== undefined ? [t1.gpu, t5.gpu] : [t1.latency, t5.latency];
        row.gpuBasis = t1.gpu !== undefined ? 'timestamps' : 'latency';
        row.gpu = (a5 - a1) / 4 - (spec.kind === 'gen' ? blendPer : 0);
      } catch (e) {
        row.gpuError = msg(e);
      }
    }
    if (i === 0) blendPer = row.gpu ?? 0;
    const err = row.cpuError || row.gpuError ? `  ERROR ${row.cpuError ? `cpu: ${row.cpuError} ` : ''}${row.gpuError ? `gpu: ${row.gpuError}` : ''}` : '';
    say(
      `${spec.name.padEnd(26)} ${fmt(row.cpu, 2).padStart(8)} ${fmt(row.gpu, 2).padStart(8)} ${fmt(row.cpu / row.gpu, 1).padStart(8)} ${fmt(row.gpuRec, 2).padStart(8)}   (${fmt(row.gpuG1, 2)}, ${fmt(row.gpuG5, 2)}; ${fmt(row.gpuT1, 1)})${err}`,
    );
  }
  if (gpu) await closeGpu();
});

say(`\n== done in ${fmt(elapsedS(), 0)} s${report.errors.length ? `, ${report.errors.length} section error(s)` : ''}`);
report.elapsedS = elapsedS();
writeReport();
rmSync(tmp, { recursive: true, force: true });
// Dawn and the worker pools hold nothing that keeps the process alive, but a stuck server child could.
process.exit(0);
