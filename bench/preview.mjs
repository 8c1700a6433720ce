// Preview latency: a slider change on the preview page -> every visible tile of a 1280x800 view
// of the bundled example re-rendered and shown. Headless Chromium (the system's /usr/bin/chromium
// through playwright-core; never a downloaded browser), CPU backend in the page's render worker(s).
// Per change: from the slider's `input` event to MapLibre's next `idle` with all tiles loaded
// (includes the page's refresh delay, the worker renders, the 8-bit conversion, the transfer and
// MapLibre's upload and repaint). Median and max over BENCH_PREVIEW_CHANGES (20) changes per slider.
// Rows: with the worker's node cache (what the page ships: a change re-runs only the nodes that
// read the param) and without it (the worker bundle served with its NodeCache removed, so every
// change renders whole tiles).
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
 * `idle` after the page re-requested its tiles, and the number of tiles shown.
 */
const timed = (page, action) =>
  page.evaluate(async ({ name, value }) => {
    const t = window.tilegraphPreview;
    const map = t.map;
    const g0 = t.generation;
    const done = new Promise((resolve) => {
      const check = () => {
        // The page bumps its generation when it re-requests the tiles.
        if (t.generation > g0 && map.areTilesLoaded() && !map.isMoving()) {
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
    const cache = map.style?.sourceCaches?.tilegraph ?? map.style?.tileManagers?.tilegraph;
    return { ms: t1 - t0, tiles: cache?.getVisibleCoordinates?.().length ?? NaN };
  }, action);

async function run(label, { noNodeCache }) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  if (noNodeCache) {
    // The worker's engine builds `nodeCache: new NodeCache(bytes)`; serve the chunk without it.
    await page.route(/\/chunk-[\w-]+\.js$/, async (route) => {
      const res = await route.fetch();
      const body = (await res.text()).replace(/nodeCache:new [\w$]+\([\w$]+\)/g, 'nodeCache:void 0');
      await route.fulfill({ response: res, body });
    });
  }
  await page.goto(`${server.url}#backend=cpu`);
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
    let tiles = 0;
    for (let i = 0; i < 2; i++) await timed(page, { name: param, value: valueAt(CHANGES + i) }); // warm-up
    for (let i = 0; i < CHANGES; i++) {
      const r = await timed(page, { name: param, value: valueAt(i) });
      times.push(r.ms);
      tiles = r.tiles;
    }
    record(
      'P preview slider -> all tiles',
      `tilegraph cpu worker ${label}`,
      '1280x800',
      times,
      `${what}; ${tiles} tiles of 256 px; max ${Math.max(...times).toFixed(1)} ms; ${CHANGES} changes`,
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
