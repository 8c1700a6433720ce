// Preview latency: a slider change on the preview page -> every visible tile of a 1280x800 view
// re-rendered and shown, for every bundled example (bench/gallery.mjs: examples/*/style.json,
// terrain on a local DEM copy) and every number param of each. Headless Chromium (the system's
// /usr/bin/chromium through playwright-core; never a downloaded browser), CPU backend in the page's
// render worker(s), the page opened where it opens for a new user (the data's extent).
// Per change: from the slider's `input` event to MapLibre's first `idle` after every tile it shows
// got the new value's image (the worker renders, the 8-bit conversion, the ImageBitmap, the
// transfer, MapLibre's texture uploads and its repaint). "Every tile": the page records the tiles
// of each in-place update (`lastUpdate`) and the run fails when a visible tile is not among them.
// Median and max over BENCH_PREVIEW_CHANGES (20) changes per slider after 2 warm-up changes, the
// values on the slider's own grid, consecutive ones distinct. Where the time went (medians): the
// render workers' busy time summed over tiles, the last worker's end, and the page after it.
// Writes bench/out/preview.json: [{style, param, median_ms, max_ms, tiles, ...}]. With a style or
// param filter, the rows of the file it finds for the sliders not measured in this run are kept
// (so `BENCH_MODE=preview` of bench/render-cpu.mjs still finds every example's tiles).
// Env: BENCH_PREVIEW_STYLES=<regex> picks examples, BENCH_PREVIEW_PARAMS=<regex> params,
// BENCH_PREVIEW_WORKERS the page's render workers, BENCH_PREVIEW_NOCACHE=<regex> also measures
// those examples with the workers' node cache off (`#nodecache=0`: every change renders whole tiles),
// BENCH_PREVIEW_PROFILE=<dir> writes each page worker's CPU profile of a slider's timed changes
// (<dir>/<example>-<param>-<k>.cpuprofile, Chrome DevTools protocol; open them in Chrome's DevTools
// or read their self times: the page's own workers, where Node's --cpu-prof cannot look).
// Needs `npm run build` first. Skipped (with a line saying so) when chromium is absent.
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { galleryStyles } from './gallery.mjs';
import { record } from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'bench/out');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const CHANGES = Number(process.env.BENCH_PREVIEW_CHANGES || 20);
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const styleOnly = process.env.BENCH_PREVIEW_STYLES ? new RegExp(process.env.BENCH_PREVIEW_STYLES) : null;
const paramOnly = process.env.BENCH_PREVIEW_PARAMS ? new RegExp(process.env.BENCH_PREVIEW_PARAMS) : null;
const noCache = process.env.BENCH_PREVIEW_NOCACHE ? new RegExp(process.env.BENCH_PREVIEW_NOCACHE) : null;
if (only && !only.test('P preview')) process.exit(0);
if (!existsSync(CHROMIUM)) {
  console.log(`!!! bench/preview.mjs: no chromium at ${CHROMIUM}; no preview rows`);
  process.exit(0);
}
const { chromium } = await import('playwright-core');
const { serve } = await import(path.join(ROOT, 'dist/hosts/server/index.js'));

const VIEW = { width: 1280, height: 800 };
const tmp = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-bench-preview-'));
const userDataDir = path.join(tmp, 'chromium');
const PROFILE = process.env.BENCH_PREVIEW_PROFILE;
const DEBUG_PORT = 9333;
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: CHROMIUM,
  headless: true,
  args: [
    ...(PROFILE ? [`--remote-debugging-port=${DEBUG_PORT}`] : []),
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
  ],
  viewport: VIEW,
});

/** In the page: wait for the map to be ready and idle. */
const settle = (page) =>
  page.evaluate(async () => {
    const t = window.tilegraphPreview;
    await t.ready;
    const map = t.map;
    if (!map.loaded() || !map.areTilesLoaded()) await new Promise((resolve) => map.once('idle', resolve));
  });

/** In the page: the number sliders, with their grids. */
const slidersOf = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('input[type=range]')].map((s) => ({
      name: s.name,
      min: Number(s.min),
      max: Number(s.max),
      step: Number(s.step),
      value: Number(s.value),
    })),
  );

/**
 * In the page: move slider `name` to `value`, then resolve with the ms until MapLibre's first
 * `idle` after every visible tile got the new image, the tiles shown, and the phases.
 */
const timed = (page, action) =>
  page.evaluate(async ({ name, value }) => {
    const t = window.tilegraphPreview;
    const map = t.map;
    const g0 = t.generation;
    const trace = (t.trace = []);
    const done = new Promise((resolve) => {
      const check = () => {
        // The page bumps `generation` on the input; `idleGeneration` reaches it at the first idle
        // after all the tiles of that generation were handed to the map.
        if (t.generation > g0 && t.idleGeneration === t.generation && map.areTilesLoaded() && !map.isMoving()) {
          map.off('idle', check);
          resolve(performance.now());
        }
      };
      map.on('idle', check);
    });
    const t0 = performance.now();
    const s = document.querySelector(`input[type=range][name="${name}"]`);
    if (!s) throw new Error(`no slider for '${name}'`);
    s.value = String(value);
    s.dispatchEvent(new Event('input', { bubbles: true }));
    const t1 = await done;
    t.trace = undefined;
    const cache = map.style?.tileManagers?.tilegraph ?? map.style?.sourceCaches?.tilegraph;
    const visible = (cache?.getVisibleCoordinates?.() ?? []).map((c) => `${c.canonical.z}/${c.canonical.x}/${c.canonical.y}`);
    const updated = new Set(t.lastUpdate?.generation === t.generation ? t.lastUpdate.tiles : []);
    const missed = visible.filter((k) => !updated.has(k));
    const work = trace.filter((m) => m[0] === 'worker').map((m) => m[2].split(' ').slice(1).map(Number));
    const busy = work.reduce((a, [s, e]) => a + e - s, 0);
    const lastEnd = work.length ? Math.max(...work.map((w) => w[1])) - t0 : NaN;
    return {
      ms: t1 - t0,
      tiles: visible.length,
      keys: visible,
      missed,
      busy,
      lastEnd,
      renders: work.length,
      errors: t.errors.slice(0, 3),
      zoom: map.getZoom(),
    };
  }, action);

const med = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? s[s.length >> 1] : Number.NaN;
};

/** Distinct values on the slider's grid, none equal to the one before (golden-ratio walk over the range). */
function valuesFor(s, count) {
  const n = Math.max(1, Math.round((s.max - s.min) / s.step));
  const decimals = Math.max(0, -Math.floor(Math.log10(s.step) + 1e-9));
  const out = [];
  let prev = s.value;
  for (let i = 0; out.length < count; i++) {
    let k = Math.round(((0.1 + i * 0.6180339887) % 1) * n);
    let v = s.min + k * s.step;
    if (Math.abs(v - prev) < s.step / 2) {
      k = k < n ? k + 1 : k - 1;
      v = s.min + k * s.step;
    }
    out.push(v.toFixed(decimals));
    prev = v;
  }
  return out;
}

const rows = [];

/**
 * BENCH_PREVIEW_PROFILE: the CPU profiler started in every worker of the browser (the page's render
 * workers and MapLibre's), through the DevTools protocol on DEBUG_PORT (playwright's own pipe has
 * no worker sessions); stop() writes their profiles.
 */
async function startProfiles() {
  const { ws: WebSocket } = createRequire(import.meta.url)('playwright-core/lib/utilsBundle');
  const { webSocketDebuggerUrl } = await (await fetch(`http://127.0.0.1:${DEBUG_PORT}/json/version`)).json();
  const sock = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    sock.on('open', resolve);
    sock.on('error', reject);
  });
  let id = 0;
  const waiting = new Map();
  sock.on('message', (d) => {
    const m = JSON.parse(d.toString());
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
  const send = (method, params = {}, sessionId = undefined) =>
    new Promise((resolve) => {
      waiting.set(++id, resolve);
      sock.send(JSON.stringify({ id, method, params, sessionId }));
    });
  const { result } = await send('Target.getTargets');
  const sessions = [];
  for (const t of result.targetInfos.filter((t) => t.type === 'worker')) {
    const { sessionId } = (await send('Target.attachToTarget', { targetId: t.targetId, flatten: true })).result;
    await send('Profiler.enable', {}, sessionId);
    await send('Profiler.setSamplingInterval', { interval: 200 }, sessionId);
    await send('Profiler.start', {}, sessionId);
    sessions.push(sessionId);
  }
  return {
    async stop(name) {
      mkdirSync(PROFILE, { recursive: true });
      for (const [k, sessionId] of sessions.entries()) {
        const { result: r } = await send('Profiler.stop', {}, sessionId);
        writeFileSync(path.join(PROFILE, `${name}-${k}.cpuprofile`), JSON.stringify(r.profile));
      }
      sock.close();
    },
  };
}

async function run(style, { nodeCache }) {
  const server = await serve({ style: style.file, port: 0, host: '127.0.0.1', workers: 0, backend: 'cpu', log: () => undefined });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    const workers = process.env.BENCH_PREVIEW_WORKERS ? `&workers=${process.env.BENCH_PREVIEW_WORKERS}` : '';
    await page.goto(`${server.url}#backend=cpu${workers}${nodeCache ? '' : '&nodecache=0'}${style.view ? `&${style.view}` : ''}`);
    await settle(page);
    const status = await page.locator('#status').textContent();
    if (!/CPU/.test(status ?? '')) throw new Error(`${style.name}: the preview is not on the CPU worker path: ${status}`);
    const label = nodeCache ? '(node cache)' : '(no node cache)';
    for (const slider of await slidersOf(page)) {
      if (paramOnly && !paramOnly.test(slider.name)) continue;
      const values = valuesFor(slider, CHANGES + 2);
      const times = [];
      const phases = [];
      for (let i = 0; i < 2; i++) await timed(page, { name: slider.name, value: values[i] }); // warm-up
      const profiles = PROFILE ? await startProfiles() : undefined;
      for (let i = 0; i < CHANGES; i++) {
        const r = await timed(page, { name: slider.name, value: values[i + 2] });
        if (r.missed.length) throw new Error(`${style.name}: change ${i} of ${slider.name}: visible tiles not updated: ${r.missed.join(', ')}`);
        if (r.errors.length) throw new Error(`${style.name}: change ${i} of ${slider.name}: tiles failed: ${r.errors.join('; ')}`);
        times.push(r.ms);
        phases.push(r);
      }
      await profiles?.stop(`${style.name}-${slider.name}`);
      const m = (k) => med(phases.map((p) => p[k]));
      const tiles = phases.at(-1).tiles;
      const row = {
        style: style.name,
        param: slider.name,
        median_ms: +med(times).toFixed(1),
        max_ms: +Math.max(...times).toFixed(1),
        tiles,
        node_cache: nodeCache,
        zoom: +phases.at(-1).zoom.toFixed(2),
        worker_busy_ms: +m('busy').toFixed(1),
        renders: m('renders'),
        last_worker_end_ms: +m('lastEnd').toFixed(1),
        keys: phases.at(-1).keys,
      };
      if (nodeCache) rows.push(row);
      record(
        `P preview ${style.name} ${slider.name}`,
        `tilegraph cpu worker ${label}`,
        '1280x800',
        times,
        `${tiles} tiles of 256 px at zoom ${row.zoom}, all updated; MAX ${row.max_ms} ms; ${CHANGES} changes; medians: worker busy ${row.worker_busy_ms} ms over ${row.renders} renders, last worker end ${row.last_worker_end_ms} ms`,
      );
    }
    if (errors.length) console.log(`!!! ${style.name}: page errors: ${errors.join('; ')}`);
  } finally {
    await page.close();
    await server.close(0);
  }
}

try {
  for (const style of galleryStyles(tmp, styleOnly)) {
    await run(style, { nodeCache: true });
    if (noCache?.test(style.name)) await run(style, { nodeCache: false });
  }
} finally {
  await context.close().catch(() => undefined);
  rmSync(tmp, { recursive: true, force: true });
}
mkdirSync(OUT, { recursive: true });
const file = path.join(OUT, 'preview.json');
if ((styleOnly || paramOnly) && existsSync(file)) {
  // A filtered run replaces only the rows it measured.
  const measured = new Set(rows.map((r) => `${r.style}\u0000${r.param}`));
  const kept = JSON.parse(readFileSync(file, 'utf8')).filter((r) => !measured.has(`${r.style}\u0000${r.param}`));
  rows.unshift(...kept);
}
writeFileSync(file, `${JSON.stringify(rows, null, 1)}\n`);
console.log(`wrote ${path.relative(ROOT, file)} (${rows.length} rows)`);
