// Preview latency: a slider change on the preview page -> every visible tile of a 1280x800 view
// of the bundled example re-rendered and shown. Headless Chromium (the system's /usr/bin/chromium
// through playwright-core; never a downloaded browser), CPU backend in the page's render worker(s).
// Per change: from the slider's `input` event to MapLibre's first `idle` after every tile it shows
// got the new value's image (the worker renders, the 8-bit conversion, the ImageBitmap, the
// transfer, MapLibre's texture uploads and its repaint). "Every tile": the page records the tiles
// of each in-place update (`lastUpdate`) and the run fails when a visible tile is not among them.
// Median and max over BENCH_PREVIEW_CHANGES (20) changes per slider, and where the time went
// (medians): the render workers' busy time summed over tiles, the last worker's end, and the page
// after it (hand-over, upload, repaint). BENCH_PREVIEW_WORKERS sets the page's render workers.
// Rows: with the workers' node cache (what the page ships: a change re-runs only the nodes that
// read the param) and without it (the page opened with `#nodecache=0`, so every change renders
// whole tiles).
// Needs `npm run build` first. Skipped (with a line saying so) when chromium is absent.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { record } from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const CHANGES = Number(process.env.BENCH_PREVIEW_CHANGES || 20);
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
if (only && !only.test('P preview')) process.exit(0);
if (!existsSync(CHROMIUM)) {
  console.log(`!!! bench/preview.mjs: no chromium at ${CHROMIUM}; no preview rows`);
  process.exit(0);
}
const { chromium } = await import('playwright-core');
const { serve } = await import(path.join(ROOT, 'dist/hosts/server/index.js'));

const VIEW = { width: 1280, height: 800 };
const server = await serve({
  style: path.join(ROOT, 'examples/world/style.json'),
  port: 0,
  host: '127.0.0.1',
  workers: 0,
  backend: 'cpu',
  log: () => undefined,
});
const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-bench-chromium-'));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
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
    return { ms: t1 - t0, tiles: visible.length, missed, busy, lastEnd, renders: work.length };
  }, action);

const med = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? s[s.length >> 1] : NaN;
};

async function run(label, { noNodeCache }) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const workers = process.env.BENCH_PREVIEW_WORKERS ? `&workers=${process.env.BENCH_PREVIEW_WORKERS}` : '';
  // `#nodecache=0`: the page's workers keep no node results (every change renders whole tiles).
  await page.goto(`${server.url}#backend=cpu${workers}${noNodeCache ? '&nodecache=0' : ''}`);
  await settle(page);
  const status = await page.locator('#status').textContent();
  if (!/CPU/.test(status ?? '')) throw new Error(`the preview is not on the CPU worker path: ${status}`);
  // Distinct values on the sliders' grids (0.01 and 0.1), none repeated: no change is a pure cache hit.
  const sliders = [
    ['border-width', (i) => (0.3 + 3.6 * ((i * 0.618) % 1)).toFixed(2), 'border width (stroke + blend re-run)'],
    ['shadow', (i) => (1 + 8 * ((i * 0.618) % 1)).toFixed(1), 'shadow sigma (blur and everything after it re-run)'],
  ];
  for (const [param, valueAt, what] of sliders) {
    const times = [];
    const phases = [];
    let tiles = 0;
    for (let i = 0; i < 2; i++) await timed(page, { name: param, value: valueAt(CHANGES + i) }); // warm-up
    for (let i = 0; i < CHANGES; i++) {
      const r = await timed(page, { name: param, value: valueAt(i) });
      if (r.missed.length) throw new Error(`change ${i} of ${param}: visible tiles not updated: ${r.missed.join(', ')}`);
      times.push(r.ms);
      phases.push(r);
      tiles = r.tiles;
    }
    const m = (k) => med(phases.map((p) => p[k])).toFixed(1);
    record(
      'P preview slider -> all tiles',
      `tilegraph cpu worker ${label}`,
      '1280x800',
      times,
      `${what}; ${tiles} tiles of 256 px, all updated; MAX ${Math.max(...times).toFixed(1)} ms; ${CHANGES} changes; medians: worker busy ${m('busy')} ms over ${m('renders')} renders, last worker end ${m('lastEnd')} ms, idle ${m('ms')} ms`,
    );
  }
  if (errors.length) console.log(`!!! page errors: ${errors.join('; ')}`);
  await page.close();
}

try {
  await run('(node cache)', { noNodeCache: false });
  await run('(no node cache)', { noNodeCache: true });
} finally {
  await context.close().catch(() => undefined);
  await server.close(0);
  rmSync(userDataDir, { recursive: true, force: true });
}
