// Builds dist/native/deflate.node: the PNG encoder's deflate (native/deflate.c, a Node-API addon over
// the vendored libdeflate in native/libdeflate), with the system's C compiler straight against the
// headers of the Node that runs this script (<prefix>/include/node): no node-gyp, no download.
// Run by `npm run build` (so by `npm install`) and before the tests (tests/helpers/generate.mjs).
// It never fails the build: without a C compiler, Node's headers or on Windows it prints one line
// and the Node host deflates with node:zlib (src/hosts/node/deflate.ts). Up to date (newer than
// every source) means nothing to do. Env: CC (the compiler; else cc, gcc or clang).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NATIVE = path.join(ROOT, 'native');
export const ADDON = path.join(ROOT, 'dist/native/deflate.node');

/** The C files of the addon: ours and libdeflate's compressor (zlib format; no decompressor). */
function sources() {
  const lib = path.join(NATIVE, 'libdeflate/lib');
  const c = ['adler32.c', 'deflate_compress.c', 'utils.c', 'zlib_compress.c', 'x86/cpu_features.c', 'arm/cpu_features.c'];
  return [path.join(NATIVE, 'deflate.c'), ...c.map((f) => path.join(lib, f))];
}

/** Every file the addon is built from (the C files and the headers), for the up-to-date test. */
function inputs() {
  return readdirSync(NATIVE, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && /\.[ch]$/.test(d.name))
    .map((d) => path.join(d.parentPath ?? d.path, d.name));
}

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

/** Builds the addon if it is missing or older than its sources; the line to print, or undefined when up to date. */
export function buildNative({ force = false } = {}) {
  if (process.platform === 'win32') return 'tilegraph: deflate addon not built on Windows: PNG tiles deflate with node:zlib';
  const include = path.join(path.dirname(process.execPath), '..', 'include', 'node');
  if (!existsSync(path.join(include, 'node_api.h')))
    return `tilegraph: deflate addon not built: no Node headers at ${include}: PNG tiles deflate with node:zlib`;
  if (!force && existsSync(ADDON)) {
    const built = statSync(ADDON).mtimeMs;
    if (inputs().every((f) => statSync(f).mtimeMs <= built)) return undefined;
  }
  const cc = compilers()[0];
  if (!cc) return 'tilegraph: deflate addon not built: no C compiler (cc, gcc or clang): PNG tiles deflate with node:zlib';
  mkdirSync(path.dirname(ADDON), { recursive: true });
  const tmp = ADDON.replace(/\.node$/, `.${process.pid}.tmp.node`);
  const args = [
    '-O2',
    '-fPIC',
    '-shared',
    '-fvisibility=hidden',
    '-std=gnu99',
    `-I${include}`,
    `-I${NATIVE}`,
    ...sources(),
    ...(process.platform === 'darwin' ? ['-undefined', 'dynamic_lookup'] : []),
    '-o',
    tmp,
  ];
  try {
    execFileSync(cc, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    createRequire(import.meta.url)(tmp); // it loads here, or it is not kept
    renameSync(tmp, ADDON); // a running server keeps the file it loaded
  } catch (e) {
    rmSync(tmp, { force: true });
    const why = String(e?.stderr ?? e?.message ?? e)
      .trim()
      .split('\n')
      .slice(-3)
      .join(' | ');
    return `tilegraph: deflate addon not built (${cc} failed: ${why}): PNG tiles deflate with node:zlib`;
  }
  return `tilegraph: built ${path.relative(ROOT, ADDON)} (libdeflate, ${cc})`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const line = buildNative({ force: process.argv.includes('--force') });
  if (line) console.log(line);
}
