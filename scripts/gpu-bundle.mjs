// npm run gpu-bundle: out/gpu-bundle.tar.xz, a self-contained GPU bench for a bare Linux x64 GPU
// machine (issue 24, docs/gpu.md "The GPU bench bundle"): a Node binary, the CLI and the bench
// bundled by esbuild, the native modules (Dawn's dawn.node, sharp + libvips), the Vulkan loader,
// the bench styles with their data, and run.sh. Nothing is fetched when it runs.
//
// `buildApp(dir)` is the esbuild step alone (tests/cli/gpu-bundle.test.ts runs it); run as a
// script it builds the whole archive from dist/ (npm run build first; the npm script does).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { heatmapStyle } from '../bench/lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAX_BYTES = 50 * 2 ** 20;
const WORLD_BBOX = [-180, -85.0511287798066, 180, 85.0511287798066];

/** Modules the bundle loads from app/node_modules (native code), not bundled. */
export const EXTERNAL = ['sharp', 'webgpu'];

/** The CLI reads its version from the package.json three levels above dist/hosts/cli/main.js; the bundle keeps one beside it. */
const VERSION_READ = "new URL('../../../package.json', import.meta.url)";

/**
 * The esbuild step: dist/'s CLI (tilegraph.js), its render worker (render-worker.js, which the
 * CPU pool loads from beside the module that starts it) and the bench (bench.js) as three ESM
 * files in `dir`, with package.json (type module, version) and clipper2's wasm. `sharp` and
 * `webgpu` stay external: the caller provides `dir`/node_modules.
 */
export async function buildApp(dir, { bench = true } = {}) {
  const esbuild = await import('esbuild');
  mkdirSync(dir, { recursive: true });
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const versionPlugin = {
    name: 'bundle-version',
    setup(build) {
      build.onLoad({ filter: /hosts[\\/]cli[\\/]main\.js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes(VERSION_READ)) throw new Error(`${args.path} no longer reads ${VERSION_READ}; update scripts/gpu-bundle.mjs`);
        return { contents: text.replace(VERSION_READ, "new URL('./package.json', import.meta.url)"), loader: 'js' };
      });
    },
  };
  const entryPoints = {
    tilegraph: path.join(ROOT, 'dist/hosts/cli/main.js'),
    'render-worker': path.join(ROOT, 'dist/hosts/node/render-worker.js'),
  };
  if (bench) entryPoints.bench = path.join(ROOT, 'bench/gpu/bench.mjs');
  for (const f of Object.values(entryPoints)) if (!existsSync(f)) throw new Error(`${path.relative(ROOT, f)} is missing: run npm run build first`);
  await esbuild.build({
    entryPoints,
    outdir: dir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    // CommonJS dependencies (express, ajv...) call require() and may read __dirname / __filename
    // (free variables only: yargs's ESM shim declares its own __dirname).
    banner: {
      js: [
        "import { createRequire as __tgRequire } from 'node:module';",
        "import { fileURLToPath as __tgPath } from 'node:url';",
        'const require = __tgRequire(import.meta.url);',
        'const __tg_filename = __tgPath(import.meta.url);',
        "const __tg_dirname = __tg_filename.slice(0, __tg_filename.lastIndexOf('/'));",
      ].join('\n'),
    },
    define: { __dirname: '__tg_dirname', __filename: '__tg_filename' },
    plugins: [versionPlugin],
    logLevel: 'warning',
    legalComments: 'none',
  });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'tilegraph-gpu-bundle', version: pkg.version, private: true, type: 'module' }, null, 1) + '\n',
  );
  // clipper2-wasm finds its wasm beside the module that loads it (import.meta.url).
  const clipper = path.dirname(createRequire(path.join(ROOT, 'package.json')).resolve('clipper2-wasm/dist/es/clipper2z.js'));
  copyFileSync(path.join(clipper, 'clipper2z.wasm'), path.join(dir, 'clipper2z.wasm'));
  // harfbuzzjs (the text op) finds harfbuzz.wasm beside the module that loads it (import.meta.url).
  const harfbuzz = path.join(path.dirname(createRequire(path.join(ROOT, 'package.json')).resolve('harfbuzzjs')), 'harfbuzz.wasm');
  if (!existsSync(harfbuzz)) throw new Error(`${harfbuzz} is missing (npm install)`);
  copyFileSync(harfbuzz, path.join(dir, 'harfbuzz.wasm'));
  // sql.js (MBTiles output) reads its wasm from __dirname, which the banner makes this folder.
  try {
    const sql = path.dirname(createRequire(path.join(ROOT, 'package.json')).resolve('sql.js'));
    if (existsSync(path.join(sql, 'sql-wasm.wasm'))) copyFileSync(path.join(sql, 'sql-wasm.wasm'), path.join(dir, 'sql-wasm.wasm'));
  } catch {
    // no sql.js installed: .mbtiles output is not in the bundle
  }
  return dir;
}

/** Copy an installed package (and, recursively, what it depends on) into `nm`, as Node would resolve it from `from`. */
function copyPackage(name, from, nm, seen = new Set()) {
  if (seen.has(name)) return;
  seen.add(name);
  // Where Node would find it from `from` (package.json itself may be hidden by "exports").
  const dirs = createRequire(path.join(from, 'noop.js')).resolve.paths(name) ?? [];
  const pkgJson = dirs.map((d) => path.join(d, name, 'package.json')).find((f) => existsSync(f));
  if (!pkgJson) throw new Error(`package ${name} is not installed (looked from ${from})`);
  const src = path.dirname(pkgJson);
  const pkg = JSON.parse(readFileSync(pkgJson, 'utf8'));
  cpSync(src, path.join(nm, name), { recursive: true, dereference: true });
  for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
    try {
      copyPackage(dep, src, nm, seen);
    } catch {
      // an optional dependency of another platform
    }
  }
}

/** sharp (+ @img/sharp-linux-x64, libvips) and webgpu (linux-x64 dawn.node only) under `nm`. */
function copyNativeModules(nm) {
  copyPackage('sharp', ROOT, nm);
  for (const p of ['@img/sharp-linux-x64', '@img/sharp-libvips-linux-x64']) {
    if (!existsSync(path.join(nm, p))) copyPackage(p, path.join(ROOT, 'node_modules/sharp'), nm);
  }
  // Platforms other than Linux x64 are not needed.
  for (const p of ['@img/sharp-libvips-dev', '@img/sharp-wasm32']) rmSync(path.join(nm, p), { recursive: true, force: true });
  rmSync(path.join(nm, 'sharp/src'), { recursive: true, force: true });
  const webgpu = path.join(ROOT, 'node_modules/webgpu');
  if (!existsSync(path.join(webgpu, 'dist/linux-x64/dawn.node'))) throw new Error('node_modules/webgpu/dist/linux-x64/dawn.node is missing (npm install)');
  mkdirSync(path.join(nm, 'webgpu/dist/linux-x64'), { recursive: true });
  for (const f of ['index.js', 'package.json', 'LICENSE.md']) copyFileSync(path.join(webgpu, f), path.join(nm, 'webgpu', f));
  copyFileSync(path.join(webgpu, 'dist/linux-x64/dawn.node'), path.join(nm, 'webgpu/dist/linux-x64/dawn.node'));
}

/**
 * The text op's default fonts (DEFAULT_FONT: `npm:` refs the Node loader resolves in the app's
 * node_modules) under `nm`: each font file with its package's package.json and licence files,
 * not the whole packages (dejavu-fonts-ttf alone is 12 MB).
 */
async function copyDefaultFonts(nm) {
  const { DEFAULT_FONT } = await import(path.join(ROOT, 'dist/ops/text/fonts.js'));
  const out = [];
  for (const ref of DEFAULT_FONT) {
    const m = /^npm:((?:@[^/]+\/)?[^/@][^/]*)\/(.+)$/.exec(ref);
    if (!m) throw new Error(`default font '${ref}' is not an npm: reference`);
    const [, pkg, file] = m;
    const src = path.join(ROOT, 'node_modules', pkg);
    if (!existsSync(path.join(src, file))) throw new Error(`the default font ${ref} is not installed (npm install)`);
    mkdirSync(path.dirname(path.join(nm, pkg, file)), { recursive: true });
    copyFileSync(path.join(src, file), path.join(nm, pkg, file));
    for (const f of readdirSync(src))
      if (/^(package\.json|licen[cs]e|copying|authors)/i.test(f)) cpSync(path.join(src, f), path.join(nm, pkg, f), { recursive: true });
    out.push(`${pkg}/${file}`);
  }
  return out;
}

/** Tile z/x/y's north-west corner as [lng, lat]. */
function corner(z, x, y) {
  const n = 2 ** z;
  return [(x / n) * 360 - 180, (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / n))) * 180) / Math.PI];
}

/** [west, south, east, north] of the tiles x0..x1, y0..y1 at zoom z. */
function tileBlock(z, x0, y0, x1, y1) {
  const [w, n] = corner(z, x0, y0);
  const [e, s] = corner(z, x1 + 1, y1 + 1);
  return [w, s, e, n];
}

/** A box a little inside another (a tile-aligned edge must not reach the next tile's row or column). */
function inset(b, f = 1e-4) {
  const dx = (b[2] - b[0]) * f;
  const dy = (b[3] - b[1]) * f;
  return [b[0] + dx, b[1] + dy, b[2] - dx, b[3] - dy];
}

/** A zoom ladder: [min, min], [min, min+1], ... [min, max]. The bench climbs it while its time budget lasts. */
const ladder = (min, max) => Array.from({ length: max - min + 1 }, (_, i) => [min, min + i]);

/**
 * The bench styles and their data under `dir` (each style's files inside its own folder, so
 * nothing reads outside a style's directory), and bench.json describing them.
 */
export function writeBenchStyles(dir, { fixtures = path.resolve(ROOT, '../shared/fixtures') } = {}) {
  const req = createRequire(path.join(ROOT, 'package.json'));
  const countries = req.resolve('world-atlas/countries-110m.json');
  const readJson = (f) => JSON.parse(readFileSync(path.join(ROOT, f), 'utf8'));
  const put = (name, doc, files = {}) => {
    const d = path.join(dir, name);
    mkdirSync(d, { recursive: true });
    for (const [to, from] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(d, to)), { recursive: true });
      copyFileSync(from, path.join(d, to));
    }
    writeFileSync(path.join(d, 'style.json'), JSON.stringify(doc, null, 1) + '\n');
    return `${name}/style.json`;
  };
  const worldData = (doc) => {
    for (const s of Object.values(doc.sources)) if (s.data === 'npm:world-atlas/countries-110m.json') s.data = 'countries-110m.json';
    delete doc.$schema;
    return doc;
  };
  const styles = [];
  styles.push({
    name: 'world',
    about: 'examples/world: countries fill, blurred coastal shadow, borders (256 px)',
    file: put('world', worldData(readJson('examples/world/style.json')), { 'countries-110m.json': countries }),
    tileSize: 256,
    bbox: WORLD_BBOX,
    ladder: ladder(0, 7),
    serve: { zooms: [4, 5] },
  });
  styles.push({
    name: 'heatmap',
    about: 'bench heatmap: 3,000 seeded points, density + colour ramp over a solid (256 px)',
    file: put('heatmap', heatmapStyle()),
    tileSize: 256,
    bbox: WORLD_BBOX,
    ladder: ladder(0, 7),
    serve: { zooms: [4, 5] },
  });
  // Chicago lakefront, Mapbox Streets v7 (4 tiles at z13) from @mapbox/mvt-fixtures or ../shared/fixtures.
  const chicagoTiles = ['13-2101-3044', '13-2101-3045', '13-2102-3044', '13-2102-3045'];
  const chicagoDir = [path.join(ROOT, 'node_modules/@mapbox/mvt-fixtures/real-world/chicago'), path.join(fixtures, 'mvt/mvt-fixtures-chicago')].find((d) =>
    existsSync(path.join(d, `${chicagoTiles[0]}.mvt`)),
  );
  if (!chicagoDir) throw new Error('no Chicago MVT tiles (@mapbox/mvt-fixtures or ../shared/fixtures/mvt/mvt-fixtures-chicago)');
  const chicago = readJson('golden/source-mvt-npm-chicago/style.json');
  const chicagoBounds = tileBlock(13, 2101, 3044, 2102, 3045);
  chicago.sources.streets.tiles = ['tiles/{z}-{x}-{y}.mvt'];
  chicago.sources.streets.bounds = chicagoBounds;
  styles.push({
    name: 'chicago',
    about: 'golden source-mvt-npm-chicago: Mapbox Streets landuse, water, roads, POIs (512 px, over-zoomed from z13)',
    file: put('chicago', chicago, Object.fromEntries(chicagoTiles.map((t) => [`tiles/${t}.mvt`, path.join(chicagoDir, `${t}.mvt`)]))),
    tileSize: 512,
    bbox: inset(chicagoBounds),
    ladder: ladder(13, 18),
    serve: { zooms: [14, 15, 16] },
  });
  // Terrain: examples/terrain on the fixtures' Terrain-RGB block (6 tiles of 512 px at z10, Tyrol).
  const demDir = path.join(fixtures, 'dem/terrain-rgb/maplibre-terrain-shading-512');
  const demTiles = ['10-543-357', '10-543-358', '10-544-357', '10-544-358', '10-545-357', '10-545-358'];
  if (!demTiles.every((t) => existsSync(path.join(demDir, `${t}.png`)))) throw new Error(`the Terrain-RGB fixtures are missing (${demDir})`);
  const terrain = readJson('examples/terrain/style.json');
  delete terrain.$schema;
  const demBounds = tileBlock(10, 543, 357, 545, 358);
  terrain.sources.terrain = {
    type: 'dem',
    tiles: ['dem/{z}-{x}-{y}.png'],
    encoding: 'mapbox',
    tileSize: 512,
    minzoom: 10,
    maxzoom: 10,
    bounds: demBounds,
    attribution: 'MapLibre test fixtures (Terrain-RGB)',
  };
  styles.push({
    name: 'terrain',
    about: 'examples/terrain on a Terrain-RGB block: colour relief, hillshade, contours, wobble noise, paper grain (512 px)',
    file: put('terrain', terrain, Object.fromEntries(demTiles.map((t) => [`dem/${t}.png`, path.join(demDir, `${t}.png`)]))),
    tileSize: 512,
    bbox: inset(demBounds),
    ladder: ladder(10, 14),
    serve: { zooms: [11, 12] },
  });
  styles.push({
    name: 'watercolor',
    about: 'examples/watercolor: noise, displacement, blurs, brushed borders (256 px)',
    file: put('watercolor', worldData(readJson('examples/watercolor/style.json')), { 'countries-110m.json': countries }),
    tileSize: 256,
    bbox: WORLD_BBOX,
    ladder: ladder(0, 7),
    serve: { zooms: [4, 5] },
  });
  writeFileSync(path.join(dir, 'bench.json'), JSON.stringify({ styles }, null, 1) + '\n');
  return styles;
}

/** The Vulkan loader (libvulkan.so.1, Debian's libvulkan1) into `lib`: the system's copy of the installed package. */
function copyVulkanLoader(lib) {
  const candidates = ['/usr/lib/x86_64-linux-gnu/libvulkan.so.1', '/lib/x86_64-linux-gnu/libvulkan.so.1'];
  const found = candidates.find((f) => existsSync(f));
  if (!found) throw new Error('no libvulkan.so.1 here: apt-get install libvulkan1 (the bundle carries a copy)');
  copyFileSync(realpathSync(found), path.join(lib, 'libvulkan.so.1'));
  let version = '';
  try {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format syntax
    version = execFileSync('dpkg-query', ['-W', '-f=${Version}', 'libvulkan1'], { encoding: 'utf8' });
  } catch {}
  return `libvulkan1 ${version || '(version unknown)'} from ${realpathSync(found)}`;
}

/** Debian's libglvnd packages (GL/EGL dispatch) that NVIDIA's Vulkan driver needs, and the Vulkan loader's. */
export const GL_DEBS = ['libglvnd0', 'libegl1', 'libgl1', 'libglx0', 'libgles2', 'libopengl0', 'libvulkan1'];

/**
 * The .debs of GL_DEBS into `stage`/debs (run.sh unpacks them into / as root on a host that lacks
 * libglvnd) and their libraries into `stage`/lib/glvnd (its LD_LIBRARY_PATH fallback). Found in
 * $TILEGRAPH_GL_DEBS, .gl/ or out/gpu-debs/, else fetched there with `apt-get download`.
 */
function glDebs(stage) {
  const cache = path.join(ROOT, 'out/gpu-debs');
  const dirs = [process.env.TILEGRAPH_GL_DEBS, path.join(ROOT, '.gl'), cache].filter((d) => d && existsSync(d));
  const find = (pkg) => {
    for (const d of dirs) {
      const f = readdirSync(d)
        .filter((n) => n.startsWith(`${pkg}_`) && n.endsWith('_amd64.deb'))
        .sort()
        .pop();
      if (f) return path.join(d, f);
    }
    return undefined;
  };
  const missing = GL_DEBS.filter((p) => !find(p));
  if (missing.length) {
    mkdirSync(cache, { recursive: true });
    if (!dirs.includes(cache)) dirs.push(cache);
    try {
      run('apt-get', ['download', ...missing.map((p) => `${p}:amd64`)], { cwd: cache, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      throw new Error(
        `cannot get the .debs of ${missing.join(', ')} (apt-get download: ${String(e.message).split('\n')[0]}); put them in .gl/ or set TILEGRAPH_GL_DEBS`,
      );
    }
  }
  const debs = path.join(stage, 'debs');
  mkdirSync(debs, { recursive: true });
  const glvnd = path.join(stage, 'lib/glvnd');
  mkdirSync(glvnd, { recursive: true });
  const tmp = path.join(stage, '.debx');
  const names = [];
  for (const pkg of GL_DEBS) {
    const f = find(pkg);
    if (!f) throw new Error(`no .deb of ${pkg} after apt-get download`);
    copyFileSync(f, path.join(debs, path.basename(f)));
    names.push(path.basename(f, '_amd64.deb'));
    if (pkg === 'libvulkan1') continue; // lib/libvulkan.so.1 is the loader already
    rmSync(tmp, { recursive: true, force: true });
    run('dpkg-deb', ['-x', f, tmp]);
    const libdir = path.join(tmp, 'usr/lib/x86_64-linux-gnu');
    for (const n of readdirSync(libdir)) cpSync(path.join(libdir, n), path.join(glvnd, n), { verbatimSymlinks: true });
  }
  rmSync(tmp, { recursive: true, force: true });
  return `libglvnd (debs/, lib/glvnd): ${names.join(' ')}`;
}

function run(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', ...opts });
}

async function main() {
  const t0 = Date.now();
  const outDir = path.join(ROOT, 'out');
  const stage = path.join(outDir, 'gpu-bundle');
  const archive = path.join(outDir, 'gpu-bundle.tar.xz');
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error('the GPU bundle is built on Linux x64 (it carries this machine’s Node and native modules)');
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  const app = path.join(stage, 'app');
  await buildApp(app);
  copyNativeModules(path.join(app, 'node_modules'));
  await copyDefaultFonts(path.join(app, 'node_modules'));
  // Node: this machine's binary (the official glibc build), stripped of its debug symbols.
  mkdirSync(path.join(stage, 'bin'));
  const node = path.join(stage, 'bin/node');
  copyFileSync(process.execPath, node);
  try {
    run('strip', ['--strip-debug', node]);
  } catch {
    console.log('gpu-bundle: strip failed or is missing; the Node binary is carried unstripped');
  }
  chmodSync(node, 0o755);
  const lib = path.join(stage, 'lib');
  mkdirSync(path.join(lib, 'fallback'), { recursive: true });
  const vulkan = copyVulkanLoader(lib);
  const gl = glDebs(stage);
  // libstdc++ and libgcc_s for a host whose own are older than Node and Dawn need (run.sh adds them only then).
  for (const f of ['libstdc++.so.6', 'libgcc_s.so.1']) {
    const p = ['/usr/lib/x86_64-linux-gnu', '/lib/x86_64-linux-gnu'].map((d) => path.join(d, f)).find((x) => existsSync(x));
    if (p) copyFileSync(realpathSync(p), path.join(lib, 'fallback', f));
  }
  writeBenchStyles(path.join(stage, 'styles'));
  copyFileSync(path.join(ROOT, 'bench/gpu/run.sh'), path.join(stage, 'run.sh'));
  chmodSync(path.join(stage, 'run.sh'), 0o755);
  const commit = (() => {
    try {
      return run('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']).trim();
    } catch {
      return 'unknown';
    }
  })();
  writeFileSync(
    path.join(stage, 'BUNDLE.txt'),
    [
      `tilegraph GPU bench bundle (issue 24; docs/gpu.md)`,
      `built ${new Date().toISOString()} from commit ${commit}`,
      `node ${process.version} (${process.execPath}), webgpu ${JSON.parse(readFileSync(path.join(app, 'node_modules/webgpu/package.json'), 'utf8')).version}, sharp ${JSON.parse(readFileSync(path.join(app, 'node_modules/sharp/package.json'), 'utf8')).version}`,
      vulkan,
      gl,
      'run: bash run.sh [--quick] [--out DIR]',
      '',
    ].join('\n'),
  );
  rmSync(archive, { force: true });
  // xz with every core; -6 keeps the archive near 40 MiB (the Node binary is most of it).
  execFileSync('bash', ['-c', 'set -o pipefail; tar -C "$1" -cf - . | xz -T0 -6 > "$2"', 'tar', stage, archive], { stdio: 'inherit' });
  const bytes = statSync(archive).size;
  console.log(
    `gpu-bundle: ${path.relative(ROOT, archive)} ${(bytes / 2 ** 20).toFixed(1)} MiB (limit ${MAX_BYTES / 2 ** 20} MiB), ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
  if (bytes > MAX_BYTES) throw new Error(`the bundle is ${(bytes / 2 ** 20).toFixed(1)} MiB, over ${MAX_BYTES / 2 ** 20} MiB`);
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`gpu-bundle: ${e.message}`);
    process.exit(1);
  });
}
