// The GPU bench bundle's CLI part (scripts/gpu-bundle.mjs buildApp: esbuild of dist/'s CLI, its
// render worker and the bench into single files): the bundled CLI renders the same tile as the
// normal CLI, in-process and through its bundled worker pool. Witness: both PNGs decoded by
// sharp (libvips), pixel for pixel. The whole archive (Node, Dawn, libvips, Vulkan loader) is
// `npm run gpu-bundle`, too slow for the suite; its run.sh is exercised by hand (docs/gpu.md).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { requireBuild, ROOT, CLI } from '../server/fixtures.js';
import { readPng } from './helpers.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function node(script: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { cwd: ROOT, env: { ...process.env, TILEGRAPH_BACKEND: 'cpu' }, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

let dir: string;
let app: string;
beforeAll(async () => {
  requireBuild();
  dir = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-gpu-bundle-'));
  app = path.join(dir, 'app');
  const { buildApp } = (await import(path.join(ROOT, 'scripts/gpu-bundle.mjs'))) as { buildApp: (d: string) => Promise<string> };
  await buildApp(app);
  // The archive carries sharp and webgpu in app/node_modules; here the project's own serve.
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(app, 'node_modules'));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const style = () => path.join(ROOT, 'examples/world/style.json');

test('the bundled CLI reports the package version', async () => {
  const r = await node(path.join(app, 'tilegraph.js'), ['--version']);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
});

test('a tile rendered by the bundled CLI equals the normal CLI render', async () => {
  const a = path.join(dir, 'bundled.png');
  const b = path.join(dir, 'normal.png');
  const [ra, rb] = await Promise.all([
    node(path.join(app, 'tilegraph.js'), ['tile', '--style', style(), '--tile', '2/2/1', '--out', a, '--backend', 'cpu']),
    node(CLI, ['tile', '--style', style(), '--tile', '2/2/1', '--out', b, '--backend', 'cpu']),
  ]);
  expect(ra).toMatchObject({ code: 0, stderr: '' });
  expect(rb).toMatchObject({ code: 0, stderr: '' });
  const [x, y] = await Promise.all([readPng(readFileSync(a)), readPng(readFileSync(b))]);
  expect([x.width, x.height]).toEqual([256, 256]);
  expect(Buffer.from(x.data).equals(Buffer.from(y.data))).toBe(true);
  // Not a blank tile: land and sea both present.
  expect(new Set(Array.from({ length: 256 }, (_, i) => x.data[i * 1024 + 512]!)).size).toBeGreaterThan(1);
});

test("the bundled CLI's tiles export runs its bundled render workers and writes the same tile", async () => {
  const out = path.join(dir, 'pyramid');
  // 85 tiles (zooms 0-3): at least 64, so the CPU export uses the worker pool (render-worker.js beside tilegraph.js).
  const r = await node(path.join(app, 'tilegraph.js'), [
    'tiles',
    '--style',
    style(),
    '--max-zoom',
    '3',
    '--out',
    out,
    '--backend',
    'cpu',
    '--concurrency',
    '2',
    '--progress',
    'none',
  ]);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  const normal = path.join(dir, 'normal-2-2-1.png');
  expect((await node(CLI, ['tile', '--style', style(), '--tile', '2/2/1', '--out', normal, '--backend', 'cpu'])).code).toBe(0);
  const [x, y] = await Promise.all([readPng(readFileSync(path.join(out, '2/2/1.png'))), readPng(readFileSync(normal))]);
  expect(Buffer.from(x.data).equals(Buffer.from(y.data))).toBe(true);
});
