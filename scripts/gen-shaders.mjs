// Writes src/backends/gpu/shaders/index.ts: every WGSL file as a string, so the core can use its
// shaders without a file system (Node, browsers, bundlers alike). The shaders are the backend's own
// (src/backends/gpu/shaders/*.wgsl: common, copy, upload) and each op's (src/ops/<op>/*.wgsl); a
// shader's name is its file name without .wgsl. `//!include name` pulls in another shader's text
// (shared WGSL lives once); a file whose first line is `//!part` is only included, never a shader
// of its own (pixel-main, filter-pass: the bindings and entry point most passes share).
//
// A shader says what it binds once, in two lines the encoder reads too (SHADER_LAYOUTS):
//   //!uniform size: vec2u, src: View, steps: f32
//   //!bind u: uniform, src: texture, palette: array<vec4f>, dst: rgba16float
// `//!uniform` becomes `struct U` (one field per name, in that order); `g.uniforms(shader,
// values)` packs it by these names. `//!bind` becomes the bind group 0 declarations, numbered in
// that order (a second `//!bind`, say after a shared part's, goes on numbering); `g.dispatch2d(shader, { u, src, palette, dst }, ...)` binds by these names. Kinds:
// `uniform` (var<uniform> U), `texture` (texture_2d<f32>), `rgba16float` / `r32float` (a write-only
// storage texture), `array<T>` (read-only storage), `read_write array<T>` (read-write storage).
// Run by
// `npm run build`, `npm run typecheck` and before the tests (tests/helpers/generate.mjs); the
// output is not committed (.gitignore): it is built from the .wgsl files.
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SHADER_DIR = path.join(ROOT, 'src/backends/gpu/shaders');
export const OPS_DIR = path.join(ROOT, 'src/ops');

/** Every .wgsl file: the backend's shaders, then each op folder's, as [name, path]. */
export function shaderFiles(shaderDir = SHADER_DIR, opsDir = OPS_DIR) {
  const list = (dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.wgsl'))
      .map((f) => [f.slice(0, -5), path.join(dir, f)]);
  const ops = readdirSync(opsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => list(path.join(opsDir, d.name)));
  const all = [...list(shaderDir), ...ops].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (let i = 1; i < all.length; i++) if (all[i][0] === all[i - 1][0]) throw new Error(`two shaders named ${all[i][0]}: ${all[i - 1][1]} and ${all[i][1]}`);
  return all;
}

/** `name: type, name: type` -> [[name, type], ...]; commas inside <...> stay in the type. */
function parseFields(list, where) {
  const fields = [];
  for (const part of list.split(/,(?![^<]*>)/)) {
    const m = /^\s*([A-Za-z_]\w*)\s*:\s*(.+?)\s*$/.exec(part);
    if (!m) throw new Error(`${where}: cannot read "${part.trim()}" (want name: type)`);
    fields.push([m[1], m[2]]);
  }
  return fields;
}

const BINDING_KINDS = {
  uniform: (name) => `var<uniform> ${name}: U;`,
  texture: (name) => `var ${name}: texture_2d<f32>;`,
  rgba16float: (name) => `var ${name}: texture_storage_2d<rgba16float, write>;`,
  r32float: (name) => `var ${name}: texture_storage_2d<r32float, write>;`,
};

function bindingDecl(name, kind, where) {
  if (BINDING_KINDS[kind]) return BINDING_KINDS[kind](name);
  const m = /^(read_write\s+)?(array<.+>)$/.exec(kind);
  if (!m) throw new Error(`${where}: binding ${name} has an unknown kind "${kind}"`);
  return `var<storage, ${m[1] ? 'read_write' : 'read'}> ${name}: ${m[2]};`;
}

/**
 * A shader's text with its `//!uniform` and `//!bind` lines written out as WGSL, and its layout:
 * the uniform fields and the binding names in binding order (undefined without the lines).
 */
export function expandInterface(name, text) {
  let uniform;
  let bind;
  const out = text.replace(/^\/\/!(uniform|bind) (.*)$/gm, (_, what, list) => {
    const where = `${name}.wgsl //!${what}`;
    const fields = parseFields(list, where);
    if (what === 'uniform') {
      if (uniform) throw new Error(`${where}: a second //!uniform`);
      uniform = fields;
      return ['struct U {', ...fields.map(([f, t]) => `  ${f}: ${t},`), '}'].join('\n');
    }
    // A later //!bind line goes on numbering (a shared part binds the first ones, the shader the rest).
    const first = bind?.length ?? 0;
    bind = [...(bind ?? []), ...fields.map(([f]) => f)];
    return fields.map(([f, kind], i) => `@group(0) @binding(${first + i}) ${bindingDecl(f, kind, where)}`).join('\n');
  });
  if (uniform && !bind?.length) throw new Error(`${name}.wgsl: a //!uniform without a //!bind`);
  return { text: out, layout: bind ? { uniform: uniform ?? [], bind } : undefined };
}

/** The text of the generated module. */
export function generate(shaderDir = SHADER_DIR, opsDir = OPS_DIR) {
  const raw = Object.fromEntries(shaderFiles(shaderDir, opsDir).map(([name, file]) => [name, readFileSync(file, 'utf8')]));
  const expand = (name, seen = []) => {
    if (seen.includes(name)) throw new Error(`shader include cycle: ${[...seen, name].join(' -> ')}`);
    if (raw[name] === undefined) throw new Error(`shader include: no ${name}.wgsl`);
    return raw[name].replace(/^\/\/!part\n/, '').replace(/^\/\/!include ([\w-]+)\s*$/gm, (_, inc) => expand(inc, [...seen, name]));
  };
  // A part (first line `//!part`: pixel-main, filter-pass) is WGSL to include, not a shader of its own.
  const shaders = Object.keys(raw)
    .filter((name) => !raw[name].startsWith('//!part\n'))
    .map((name) => [name, expandInterface(name, expand(name))]);
  return [
    '// Generated by scripts/gen-shaders.mjs from src/backends/gpu/shaders/*.wgsl and src/ops/*/*.wgsl. Not committed; do not edit: edit the .wgsl and rebuild.',
    "import type { ShaderLayout } from '../layout.js';",
    '',
    '/** WGSL source by shader name (the file name without .wgsl). `common` is prepended to every shader. */',
    'export const SHADERS: Readonly<Record<string, string>> = {',
    ...shaders.map(([name, { text }]) => `  ${JSON.stringify(name)}: ${JSON.stringify(text)},`),
    '};',
    '',
    '/** What each shader declaring `//!uniform` / `//!bind` binds: its uniform fields and its bindings in order. */',
    'export const SHADER_LAYOUTS: Readonly<Record<string, ShaderLayout>> = {',
    ...shaders.filter(([, { layout }]) => layout).map(([name, { layout }]) => `  ${JSON.stringify(name)}: ${JSON.stringify(layout)},`),
    '};',
    '',
  ].join('\n');
}

/** Write the module when its text changed, through a renamed temporary file (a test run reading it never sees half). */
export function writeGenerated() {
  const out = path.join(SHADER_DIR, 'index.ts');
  const text = generate();
  const old = existsSync(out) ? readFileSync(out, 'utf8') : '';
  if (old === text) return;
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, out);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) writeGenerated();
