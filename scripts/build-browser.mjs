// Builds the browser binding and the preview page into dist/browser/ with esbuild:
//   tilegraph.js          the binding (ESM): Renderer.create({ style, baseUrl }), see docs/browser.md
//   tilegraph-worker.js   its render worker (loaded beside tilegraph.js)
//   preview.js, index.html, preview.css, vendor/maplibre-gl.*   the preview page served at /
// Files are written to a temporary directory and renamed into place, so a server reading
// dist/browser never sees a half-written file (tests may build while another build runs).
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src/hosts/browser');
const MAPLIBRE = path.join(ROOT, 'node_modules/maplibre-gl/dist');

/**
 * The WebAssembly builds of Clipper2 (clipper2-wasm: buffer, feature-boolean, text halos), HarfBuzz
 * (harfbuzzjs: text shaping) and woff2 (wawoff2: WOFF2 fonts) reach for Node's `module`, `fs` and
 * `path` only when they run in Node: leave those to the runtime, which never reaches them in a
 * browser. The clipper and harfbuzz .wasm files are fetched beside the chunk that holds them
 * (`new URL(..., import.meta.url)`), so they are copied into the bundle's directory (wawoff2
 * carries its own inline).
 */
const nodeOnlyExternal = {
  name: 'node-only-external',
  setup(b) {
    b.onResolve({ filter: /^(module|fs|path)$/ }, (a) => ({ path: a.path, external: true }));
  },
};
const WASM = [
  [path.join(ROOT, 'node_modules/clipper2-wasm/dist/es/clipper2z.wasm'), 'clipper2z.wasm'],
  [path.join(ROOT, 'node_modules/harfbuzzjs/dist/harfbuzz.wasm'), 'harfbuzz.wasm'],
];

/** MapLibre stays its own module (vendor/), so it finds its worker script beside itself. */
const maplibreExternal = {
  name: 'maplibre-external',
  setup(b) {
    b.onResolve({ filter: /^maplibre-gl$/ }, () => ({ path: './vendor/maplibre-gl.mjs', external: true }));
  },
};

function listFiles(dir, base = dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? listFiles(p, base) : [path.relative(base, p)];
  });
}

export async function buildBrowser({ outDir = path.join(ROOT, 'dist/browser'), minify = true } = {}) {
  const tmp = `${outDir}.tmp-${process.pid}-${Date.now()}`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    await build({
      entryPoints: {
        tilegraph: path.join(SRC, 'index.ts'),
        'tilegraph-worker': path.join(SRC, 'worker.ts'),
        preview: path.join(SRC, 'preview/app.ts'),
      },
      outdir: tmp,
      bundle: true,
      splitting: true, // the page, the binding and the worker share one chunk of core code
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      chunkNames: 'chunk-[hash]',
      sourcemap: true,
      minify,
      legalComments: 'linked',
      plugins: [maplibreExternal, nodeOnlyExternal],
      logLevel: 'warning',
    });
    mkdirSync(path.join(tmp, 'vendor'), { recursive: true });
    for (const [from, to] of WASM) if (existsSync(from)) copyFileSync(from, path.join(tmp, to));
    copyFileSync(path.join(SRC, 'preview/index.html'), path.join(tmp, 'index.html'));
    copyFileSync(path.join(SRC, 'preview/preview.css'), path.join(tmp, 'preview.css'));
    for (const f of ['maplibre-gl.mjs', 'maplibre-gl-worker.mjs', 'maplibre-gl.css']) copyFileSync(path.join(MAPLIBRE, f), path.join(tmp, 'vendor', f));
    copyFileSync(path.join(ROOT, 'node_modules/maplibre-gl/LICENSE.txt'), path.join(tmp, 'vendor', 'maplibre-gl.LICENSE.txt'));

    const files = listFiles(tmp);
    for (const f of files) {
      mkdirSync(path.dirname(path.join(outDir, f)), { recursive: true });
      renameSync(path.join(tmp, f), path.join(outDir, f));
    }
    // Drop chunks of earlier builds (tsc also writes into dist/browser: leave its files alone).
    const keep = new Set(files);
    for (const f of readdirSync(outDir)) if (/^chunk-.*\.js(\.map)?$/.test(f) && !keep.has(f)) rmSync(path.join(outDir, f), { force: true });
    return { outDir, files };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { outDir, files } = await buildBrowser();
  console.log(`browser bundle: ${files.length} files in ${path.relative(ROOT, outDir)}/`);
}
