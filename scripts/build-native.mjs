// Builds the Node host's two addons with the system's C compiler straight against the headers of
// the Node that runs this script (<prefix>/include/node): no node-gyp, no download.
// - dist/native/deflate.node: the PNG encoder's deflate (native/deflate.c over the vendored
//   libdeflate in native/libdeflate); without it the Node host deflates with node:zlib
//   (src/hosts/node/deflate.ts).
// - dist/native/kernels.node: CPU kernels with 512-bit vectors (native/kernels.c: the noise op's
//   octaves); without it, or on a CPU without AVX-512, they run in WebAssembly
//   (src/hosts/node/kernels.ts).
// Run by `npm run build` (so by `npm install`) and before the tests (tests/helpers/generate.mjs).
// It never fails the build: without a C compiler, Node's headers or on Windows it prints a line
// per addon and the fallbacks run. Up to date (newer than every source) means nothing to do.
// Env: CC (the compiler; else cc, gcc or clang).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NATIVE = path.join(ROOT, 'native');
export const ADDON = path.join(ROOT, 'dist/native/deflate.node');
export const KERNELS_ADDON = path.join(ROOT, 'dist/native/kernels.node');

const LIBDEFLATE = ['adler32.c', 'deflate_compress.c', 'utils.c', 'zlib_compress.c', 'x86/cpu_features.c', 'arm/cpu_features.c'];

/**
 * The addons: their files, C files (sources), every file they are built from (inputs, for the
 * up-to-date test), compiler flags, and what runs without them.
 */
const ADDONS = [
  {
    file: ADDON,
    what: 'deflate addon',
    built: 'libdeflate',
    sources: () => [path.join(NATIVE, 'deflate.c'), ...LIBDEFLATE.map((f) => path.join(NATIVE, 'libdeflate/lib', f))],
    inputs: () =>
      readdirSync(NATIVE, { recursive: true, withFileTypes: true })
        .filter((d) => d.isFile() && /\.[ch]$/.test(d.name) && !/^(kernels\.c|noise-body\.h|pixels\.h|dabs\.h)$/.test(d.name))
        .map((d) => path.join(d.parentPath ?? d.path, d.name)),
    flags: ['-O2'],
    fallback: 'PNG tiles deflate with node:zlib',
  },
  {
    file: KERNELS_ADDON,
    what: 'kernels addon',
    built: 'noise, colour ramp, blends, blur, round dabs and PNG conversion with 512-bit vectors',
    sources: () => [path.join(NATIVE, 'kernels.c')],
    inputs: () => ['kernels.c', 'noise-body.h', 'pixels.h', 'dabs.h'].map((f) => path.join(NATIVE, f)),
    // -ffp-contract=off: no fused multiply-adds, the reference's roundings (native/noise-body.h)
    flags: ['-O3', '-ffp-contract=off', '-Wno-psabi'],
    fallback: 'noise, the colour ramp, the blends, the blur, the round dabs and the PNG conversion run in WebAssembly',
  },
];

function compilers() {
  const list = process.env.CC ? [process.env.CC] : ['cc', 'gcc', 'clang']; // Debian's g++ brings gcc and cc
  return list.filter((cmd) => {
    try {
      execFileSync(cmd, ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
}

/** Builds one addon if it is missing or older than its sources; the line to print, or undefined when up to date. */
function buildOne(addon, force) {
  const { file, what, fallback } = addon;
  if (process.platform === 'win32') return `tilegraph: ${what} not built on Windows: ${fallback}`;
  const include = path.join(path.dirname(process.execPath), '..', 'include', 'node');
  if (!existsSync(path.join(include, 'node_api.h'))) return `tilegraph: ${what} not built: no Node headers at ${include}: ${fallback}`;
  if (!force && existsSync(file)) {
    const built = statSync(file).mtimeMs;
    if (addon.inputs().every((f) => statSync(f).mtimeMs <= built)) return undefined;
  }
  const cc = compilers()[0];
  if (!cc) return `tilegraph: ${what} not built: no C compiler (cc, gcc or clang): ${fallback}`;
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = file.replace(/\.node$/, `.${process.pid}.tmp.node`);
  const args = [
    ...addon.flags,
    '-fPIC',
    '-shared',
    '-fvisibility=hidden',
    '-std=gnu99',
    `-I${include}`,
    `-I${NATIVE}`,
    ...addon.sources(),
    ...(process.platform === 'darwin' ? ['-undefined', 'dynamic_lookup'] : []),
    '-o',
    tmp,
  ];
  try {
    execFileSync(cc, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    createRequire(import.meta.url)(tmp); // it loads here, or it is not kept
    renameSync(tmp, file); // a running server keeps the file it loaded
  } catch (e) {
    rmSync(tmp, { force: true });
    const why = String(e?.stderr ?? e?.message ?? e)
      .trim()
      .split('\n')
      .slice(-3)
      .join(' | ');
    return `tilegraph: ${what} not built (${cc} failed: ${why}): ${fallback}`;
  }
  return `tilegraph: built ${path.relative(ROOT, file)} (${addon.built}, ${cc})`;
}

/** Builds every addon that is missing or out of date; the lines to print, joined (undefined when all are up to date). */
export function buildNative({ force = false } = {}) {
  const lines = ADDONS.map((a) => buildOne(a, force)).filter(Boolean);
  return lines.length ? lines.join('\n') : undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const line = buildNative({ force: process.argv.includes('--force') });
  if (line) console.log(line);
}
