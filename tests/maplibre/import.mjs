// Copies MapLibre GL JS render tests (and the assets they read) from a clone of its repository:
//   node tests/maplibre/import.mjs <git dir of maplibre-gl-js> <category or category/test>...
// Tests land in tests/maplibre/render-tests/<id>/ (style.json, expected*.png), assets in
// tests/maplibre/assets/ (tiles the templates match, sprites), MapLibre's licence beside them.
// Taken from the coliff/maplibre-gl-js fork (commit 1e2a2ccbb, MapLibre GL JS 5.1, February 2025).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const [gitDir, ...wanted] = process.argv.slice(2);
if (!gitDir || !wanted.length) {
  console.error('usage: node tests/maplibre/import.mjs <git dir> <category>...');
  process.exit(1);
}
const HERE = path.dirname(new URL(import.meta.url).pathname);
const git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 1 << 28 });
const TESTS = 'test/integration/render/tests/';
const ASSETS = 'test/integration/assets/';
const files = git('ls-tree', '-r', '--name-only', 'HEAD').toString().split('\n');
const write = (rel, bytes) => {
  const out = path.join(HERE, rel);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, bytes);
};

const assets = new Set();
const refs = (v, out) => {
  if (typeof v === 'string' && v.startsWith('local://')) out.add(v.slice('local://'.length));
  else if (Array.isArray(v)) v.forEach((x) => refs(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => refs(x, out));
};
let count = 0;
for (const f of files) {
  if (!f.startsWith(TESTS) || !f.endsWith('/style.json')) continue;
  const id = f.slice(TESTS.length, -'/style.json'.length);
  if (!wanted.some((w) => id === w || id.startsWith(w + '/'))) continue;
  const style = git('show', `HEAD:${f}`);
  write(`render-tests/${id}/style.json`, style);
  for (const e of files) if (e.startsWith(`${TESTS}${id}/expected`) && e.endsWith('.png')) write(`render-tests/${id}/${path.basename(e)}`, git('show', `HEAD:${e}`));
  refs(JSON.parse(style.toString()), assets);
  count++;
}
for (const ref of assets) {
  if (ref.includes('{')) {
    // A tile template: every asset file it matches.
    const re = new RegExp('^' + ref.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{(z|x|y)\}/g, '\\d+') + '$');
    for (const f of files) if (f.startsWith(ASSETS) && re.test(f.slice(ASSETS.length))) write(`assets/${f.slice(ASSETS.length)}`, git('show', `HEAD:${f}`));
  } else if (ref.startsWith('sprites/')) {
    for (const suffix of ['.json', '.png', '@2x.json', '@2x.png']) {
      const f = `${ASSETS}${ref}${suffix}`;
      if (files.includes(f)) write(`assets/${ref}${suffix}`, git('show', `HEAD:${f}`));
    }
  } else if (files.includes(ASSETS + ref)) write(`assets/${ref}`, git('show', `HEAD:${ASSETS}${ref}`));
}
write('LICENSE.txt', git('show', 'HEAD:LICENSE.txt'));
console.log(`${count} tests, ${assets.size} asset references`);
