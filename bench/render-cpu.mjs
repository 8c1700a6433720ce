// CPU time per tile of each bundled example rendered in this one process: the render workers'
// work without HTTP, for A/B comparisons on a loaded machine (process CPU time, not wall time).
// Server mode (default): the example's bench tiles (bench/gallery.mjs tileSet; the tile server
// bench renders the same), CPU backend, no tile cache, after a warm-up pass over the zoom above;
// BENCH_ENCODE=1 adds our PNG encode. Preview mode (BENCH_MODE=preview): per number param, the
// tiles the preview page showed (bench/out/preview.json `keys`, from bench/preview.mjs) rendered
// with the preview worker's node cache, BENCH_CHANGES (6) value changes after 2 warm-up changes:
// CPU ms per change for all its tiles.
// Env: BENCH_STYLES=<regex>, BENCH_PARAMS=<regex>, BENCH_PASSES (2), BENCH_NODES=1 prints CPU per
// node (the render's nodes timed one by one; slower, for finding where the time goes),
// BENCH_NODE_CACHE_MB (256: two workers' 128 MiB) the preview mode's node cache budget.
// Usage: npm run build && node bench/render-cpu.mjs    (node --cpu-prof bench/render-cpu.mjs to profile)
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { galleryStyles, tileSet } from './gallery.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { CpuBackend, releaseRaster, tileWindow } = await import(path.join(ROOT, 'dist/index.js'));
const { loadStyleFile } = await import(path.join(ROOT, 'dist/hosts/node/style-file.js'));
const { encodePngSync } = await import(path.join(ROOT, 'dist/hosts/node/png.js'));
const { DragAwareNodeCache } = await import(path.join(ROOT, 'dist/hosts/browser/engine.js'));
const { Renderer } = await import(path.join(ROOT, 'dist/index.js'));
const { NodeLoader } = await import(path.join(ROOT, 'dist/hosts/node/loader.js'));
/** The page's node cache: 128 MiB in each of its two workers (2 cores), each with half the tiles. */
const NODE_CACHE_BYTES = Number(process.env.BENCH_NODE_CACHE_MB || 256) * 2 ** 20;

const MODE = process.env.BENCH_MODE || 'server';
// The preview worker sizes its canvas arena for its node cache (src/hosts/browser/engine.ts): the same here, before any render.
const { ARENA_BYTES, setArenaBytes } = await import(path.join(ROOT, 'dist/util/wasm-arena.js'));
if (MODE === 'preview' && process.env.BENCH_ARENA !== 'default') setArenaBytes(ARENA_BYTES + NODE_CACHE_BYTES);
const PASSES = Number(process.env.BENCH_PASSES || 2);
const CHANGES = Number(process.env.BENCH_CHANGES || 6);
const ENCODE = process.env.BENCH_ENCODE === '1';
const styleOnly = process.env.BENCH_STYLES ? new RegExp(process.env.BENCH_STYLES) : undefined;
const paramOnly = process.env.BENCH_PARAMS ? new RegExp(process.env.BENCH_PARAMS) : undefined;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-bench-cpu-'));
const backend = new CpuBackend();
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/** BENCH_NODES=1: time every op run of the CPU backend's sessions, by node op name. */
const byOp = new Map();
if (process.env.BENCH_NODES === '1') {
  const begin = backend.begin.bind(backend);
  backend.begin = () => {
    const s = begin();
    const run = s.run.bind(s);
    s.run = async (op, ctx) => {
      const t = cpu();
      try {
        return await run(op, ctx);
      } finally {
        const k = `${ctx.id} (${op.name})`;
        byOp.set(k, (byOp.get(k) ?? 0) + cpu() - t);
      }
    };
    return s;
  };
}
const printNodes = (n) => {
  if (!byOp.size) return;
  const rows = [...byOp].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.BENCH_TOP || 14));
  const all = [...byOp].reduce((s, [, ms]) => s + ms, 0);
  console.log(`    nodes in all: ${(all / n).toFixed(2)} ms per ${MODE === 'server' ? 'tile' : 'change'} (${byOp.size} nodes)`);
  console.log(`    by node (CPU ms per ${MODE === 'server' ? 'tile' : 'change'}): ${rows.map(([k, ms]) => `${k} ${(ms / n).toFixed(2)}`).join(', ')}`);
  byOp.clear();
};

async function serverMode(style) {
  const { tiles, warm, zoom } = await tileSet(style.file);
  const loaded = await loadStyleFile(style.file);
  const params = loaded.renderer.params({});
  const one = async ([z, x, y]) => {
    // As the server's render worker: the raster read where it lies in the canvas arena, then given back.
    const { raster } = await loaded.renderer.renderWindow(tileWindow({ z, x, y }, 256), params, { backend, arenaOutput: true });
    if (ENCODE) encodePngSync(raster);
    releaseRaster(raster);
  };
  for (const t of warm) await one(t);
  byOp.clear();
  const per = [];
  for (let p = 0; p < PASSES; p++) {
    const t0 = cpu();
    for (const t of tiles) await one(t);
    per.push((cpu() - t0) / tiles.length);
  }
  console.log(
    `  ${style.name.padEnd(12)} z${zoom} ${String(tiles.length).padStart(3)} tiles  CPU ${per.map((x) => x.toFixed(2)).join(' / ')} ms per tile${ENCODE ? ' (render + encode)' : ' (render)'}`,
  );
  printNodes(tiles.length * PASSES);
}

async function previewMode(style, shown) {
  const loaded = await loadStyleFile(style.file);
  // The preview worker's renderer (src/hosts/browser/engine.ts): the drag-aware node cache.
  const cache = new DragAwareNodeCache(NODE_CACHE_BYTES);
  const r = Renderer.create(loaded.text, { loader: new NodeLoader({ baseDir: loaded.baseDir }), nodeCache: cache });
  const schema = r.paramsSchema.properties;
  let current = r.params({});
  const renderAll = async (keys, params) => {
    cache.observe(params.toValues());
    for (const [z, x, y] of keys) releaseRaster(await r.renderTile({ z, x, y }, params, { backend }));
  };
  for (const row of shown) {
    if (paramOnly && !paramOnly.test(row.param)) continue;
    const keys = row.keys.map((k) => k.split('/').map(Number));
    const p = schema[row.param];
    await renderAll(keys, current); // the view as the page shows it before the drag
    byOp.clear();
    const times = [];
    for (let i = 0; i < CHANGES + 2; i++) {
      const v = p.minimum + ((p.maximum - p.minimum) * ((3 + i * 7) % 20)) / 20;
      current = r.params({ ...current.strings(), [row.param]: String(v) });
      const t0 = cpu();
      await renderAll(keys, current);
      if (i >= 2) times.push(cpu() - t0);
      else byOp.clear(); // warm-up changes not counted
    }
    times.sort((a, b) => a - b);
    console.log(
      `  ${style.name.padEnd(12)} ${row.param.padEnd(16)} ${String(keys.length).padStart(3)} tiles  CPU per change median ${times[times.length >> 1].toFixed(1)} ms, max ${times.at(-1).toFixed(1)} ms`,
    );
    printNodes(CHANGES);
  }
  const st = cache.stats;
  console.log(`    node cache: ${st.entries} entries, ${(st.bytes / 2 ** 20).toFixed(0)} MiB, hits ${st.hits}, misses ${st.misses}`);
}

try {
  const styles = galleryStyles(tmp, styleOnly);
  if (MODE === 'server') {
    console.log(`CPU per tile in one process (${PASSES} passes after a warm-up pass), load average ${os.loadavg()[0].toFixed(1)}`);
    for (const s of styles) await serverMode(s);
  } else {
    const file = path.join(ROOT, 'bench/out/preview.json');
    if (!existsSync(file)) throw new Error('BENCH_MODE=preview needs bench/out/preview.json from bench/preview.mjs (the tiles each view showed)');
    const rows = JSON.parse(readFileSync(file, 'utf8'));
    console.log(`CPU per slider change in one process (the preview worker's node cache), load average ${os.loadavg()[0].toFixed(1)}`);
    for (const s of styles) {
      const shown = rows.filter((r) => r.style === s.name && r.keys);
      if (shown.length) await previewMode(s, shown);
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
