// A real basemap against MapLibre itself (issue 21): the Protomaps basemap style, flavour light
// (protomaps-themes-base 1.3.1: the same project's style for the 2023 schema of the Florence
// archive; @protomaps/basemaps 5.x reads the 2024 schema, whose layer and property names the
// archive lacks), over ../shared/fixtures' Florence PMTiles, rendered by us (CPU backend, 512 px
// tiles: MapLibre's zoom) and by maplibre-gl in headless Chromium (WebGL on SwiftShader), tile by
// tile at z10-15, compared with MapLibre's render-test rule (pixelmatch, threshold 0.1285): the
// differing fraction per tile. Labels are left out of the comparison (MapLibre draws SDF glyphs
// from a glyph server we do not have offline; ours are outline fonts): the label layers are
// rendered by us only, and timed. Then the serving row: uncached tiles per second of the whole
// style (labels included) through Renderer.renderTile at 256 px, the server's default.
//
// Writes bench/out/maplibre-florence.json and bench/out/maplibre-florence/<z>-<x>-<y>.{ours,maplibre}.png.
// Skips itself (exit 0) without the fixture, the style package or chromium.
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { PNG } from 'pngjs';
import pixelmatch from 'pixelmatch';
import { record } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const OUT = path.join(HERE, 'out');
// BENCH_ONLY (npm run bench's row filter) leaves this script out unless it matches 'M maplibre'.
if (process.env.BENCH_ONLY && !new RegExp(process.env.BENCH_ONLY).test('M maplibre')) process.exit(0);
const ARCHIVE = path.resolve(ROOT, '../shared/fixtures/pmtiles/protomaps_vector_ODbL_firenze.pmtiles');
const require = createRequire(import.meta.url);

if (!existsSync(ARCHIVE)) {
  console.log('maplibre: no ../shared/fixtures Florence archive; skipped');
  process.exit(0);
}
let themes;
try {
  themes = require('protomaps-themes-base');
} catch {
  console.log('maplibre: protomaps-themes-base is not installed (npm install); skipped');
  process.exit(0);
}
const { Renderer, toRGBA8 } = await import(path.join(ROOT, 'dist/index.js'));
const { NodeLoader } = await import(path.join(ROOT, 'dist/hosts/node/loader.js'));
const { PmtilesArchive } = await import(path.join(ROOT, 'dist/sources/pmtiles.js'));

const FLAVOUR = 'light';
const CENTRE = [11.2415, 43.7798];
const ZOOMS = [10, 11, 12, 13, 14, 15];
const SIZE = 512;

/** The Protomaps light style over a source `src`, with or without its label layers. */
function basemap(src, labels) {
  const layers = (labels ? themes.default : themes.noLabels)('protomaps', FLAVOUR);
  return { version: 8, name: `Protomaps basemap ${FLAVOUR} (Florence)`, sources: { protomaps: src }, layers };
}

function tileOf(lng, lat, z) {
  const n = 2 ** z;
  const s = Math.sin((lat * Math.PI) / 180);
  return [Math.floor(((lng + 180) / 360) * n), Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n)];
}

function tileCentre(z, x, y) {
  const n = 2 ** z;
  const lng = ((x + 0.5) / n) * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * (y + 0.5)) / n))) * 180) / Math.PI;
  return [lng, lat];
}

/** Two tiles per zoom: the one holding the centre and its east neighbour. */
const TILES = ZOOMS.flatMap((z) => {
  const [x, y] = tileOf(CENTRE[0], CENTRE[1], z);
  return [
    { z, x, y },
    { z, x: x + 1, y },
  ];
});

// Our renders (CPU backend), 512 px tiles at MapLibre's zoom.
const loader = new NodeLoader({ baseDir: ROOT, allowOutside: true });
const ours = Renderer.create(basemap({ type: 'vector', url: `pmtiles://${ARCHIVE}` }, false), { loader });
mkdirSync(path.join(OUT, 'maplibre-florence'), { recursive: true });
const oursPng = new Map();
for (const t of TILES) {
  const r = await ours.renderTile(t, undefined, { tileSize: SIZE });
  const rgba = toRGBA8(r);
  oursPng.set(`${t.z}-${t.x}-${t.y}`, rgba);
  const png = new PNG({ width: SIZE, height: SIZE });
  png.data = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  writeFileSync(path.join(OUT, 'maplibre-florence', `${t.z}-${t.x}-${t.y}.ours.png`), PNG.sync.write(png));
}

// MapLibre in chromium: vector tiles served from the same archive over HTTP.
const archive = new PmtilesArchive(ARCHIVE, loader);
const MLDIST = path.dirname(require.resolve('maplibre-gl/dist/maplibre-gl.css'));
const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  const m = url.pathname.match(/^\/t\/(\d+)\/(\d+)\/(\d+)\.mvt$/);
  try {
    if (m) {
      const bytes = await archive.tile(+m[1], +m[2], +m[3]);
      if (!bytes) {
        res.writeHead(204).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/x-protobuf', 'access-control-allow-origin': '*' }).end(Buffer.from(bytes));
      return;
    }
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
      return;
    }
    const f = path.join(MLDIST, path.basename(url.pathname));
    if (existsSync(f)) {
      res.writeHead(200, { 'content-type': f.endsWith('.css') ? 'text/css' : 'text/javascript' }).end(readFileSync(f));
      return;
    }
    res.writeHead(404).end();
  } catch (e) {
    res.writeHead(500).end(String(e));
  }
});
const PAGE = `<!doctype html><html><head><link rel="stylesheet" href="/maplibre-gl.css">
<style>body{margin:0}#map{width:${SIZE}px;height:${SIZE}px}</style></head><body><div id="map"></div>
<script type="module">
import * as maplibregl from '/maplibre-gl.mjs';
window.render = (style, center, zoom) => new Promise((resolve, reject) => {
  const old = window.mlmap; if (old) old.remove();
  const map = window.mlmap = new maplibregl.Map({ container: 'map', style, center, zoom, interactive: false,
    fadeDuration: 0, attributionControl: false, canvasContextAttributes: { preserveDrawingBuffer: true }, pixelRatio: 1 });
  map.on('error', (e) => reject(String(e.error?.message ?? e)));
  map.once('idle', () => resolve(map.getCanvas().toDataURL('image/png')));
});
window.ready = true;
</script></body></html>`;
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch {
  chromium = undefined;
}
const rows = [];
if (!chromium || !existsSync('/usr/bin/chromium')) console.log('maplibre: no chromium; the comparison is skipped');
else {
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-ml-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--no-first-run'],
    viewport: { width: SIZE, height: SIZE },
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => m.type() === 'error' && console.log(`  chromium: ${m.text()}`));
    page.on('pageerror', (e) => console.log(`  chromium: ${e.message}`));
    await page.goto(base + '/');
    await page.waitForFunction(() => window.ready === true);
    const style = basemap({ type: 'vector', tiles: [`${base}/t/{z}/{x}/{y}.mvt`], maxzoom: 14 }, false);
    console.log('\n== Protomaps light over the Florence archive: ours vs maplibre-gl (labels left out), 512 px, pixelmatch 0.1285');
    for (const t of TILES) {
      const key = `${t.z}-${t.x}-${t.y}`;
      const url = await page.evaluate(([s, c, z]) => window.render(s, c, z), [style, tileCentre(t.z, t.x, t.y), t.z]);
      const png = PNG.sync.read(Buffer.from(url.split(',')[1], 'base64'));
      writeFileSync(path.join(OUT, 'maplibre-florence', `${key}.maplibre.png`), PNG.sync.write(png));
      const a = oursPng.get(key);
      const diff = pixelmatch(Buffer.from(a.buffer, a.byteOffset, a.byteLength), png.data, undefined, SIZE, SIZE, { threshold: 0.1285 });
      // pixelmatch's threshold forgives pale tints (a light grey roof on a light ground): also
      // the share of pixels with a channel more than 16/255 apart.
      let strict = 0;
      for (let i = 0; i < a.length; i += 4) {
        const d = Math.max(Math.abs(a[i] - png.data[i]), Math.abs(a[i + 1] - png.data[i + 1]), Math.abs(a[i + 2] - png.data[i + 2]));
        if (d > 16) strict++;
      }
      const row = { tile: `${t.z}/${t.x}/${t.y}`, differing: diff / (SIZE * SIZE), over16: strict / (SIZE * SIZE) };
      rows.push(row);
      console.log(
        `  ${row.tile.padEnd(14)} pixelmatch ${(row.differing * 100).toFixed(2).padStart(6)} %   channel > 16/255 ${(row.over16 * 100).toFixed(2).padStart(6)} %`,
      );
    }
    const byZoom = ZOOMS.map((z) => {
      const r = rows.filter((x) => x.tile.startsWith(`${z}/`));
      return { z, differing: r.reduce((s, x) => s + x.differing, 0) / r.length, over16: r.reduce((s, x) => s + x.over16, 0) / r.length };
    });
    const all = rows.reduce((s, x) => s + x.differing, 0) / rows.length;
    const all16 = rows.reduce((s, x) => s + x.over16, 0) / rows.length;
    console.log(`  all ${rows.length} tiles: pixelmatch ${(all * 100).toFixed(2)} %, channel > 16/255 ${(all16 * 100).toFixed(2)} % of pixels`);
    writeFileSync(
      path.join(OUT, 'maplibre-florence.json'),
      JSON.stringify({ style: `protomaps-themes-base ${FLAVOUR}, labels left out`, size: SIZE, threshold: 0.1285, tiles: rows, byZoom, all, all16 }, null, 1),
    );
  } finally {
    await context.close().catch(() => undefined);
    rmSync(userDataDir, { recursive: true, force: true });
  }
}
server.close();

// Serving: uncached tiles per second of the whole style (labels too), 256 px tiles z10-15 around the centre.
const full = Renderer.create(basemap({ type: 'vector', url: `pmtiles://${ARCHIVE}` }, true), { loader });
const serveTiles = ZOOMS.flatMap((z) => {
  const [x, y] = tileOf(CENTRE[0], CENTRE[1], z + 1);
  return [0, 1].flatMap((dx) => [0, 1].map((dy) => ({ z: z + 1, x: x + dx, y: y + dy })));
});
await full.renderTile(serveTiles[0]); // fonts and archive header
const times = [];
const t0 = performance.now();
for (const t of serveTiles) {
  const s = performance.now();
  await full.renderTile(t);
  times.push(performance.now() - s);
}
const secs = (performance.now() - t0) / 1000;
record(
  'maplibre-florence-serve',
  'tilegraph cpu (uncached)',
  256,
  times,
  `${(serveTiles.length / secs).toFixed(2)} tiles/s, Protomaps light with labels, z11-16 (shared machine)`,
);
