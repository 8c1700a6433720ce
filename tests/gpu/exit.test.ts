// A process that renders on the GPU exits by itself, with or without closeGpu() (no handle of
// Dawn's keeps the event loop alive). The host script is bundled from the sources with esbuild.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { gpuDescribe } from './harness.js';

const ROOT = path.resolve('.');
const OUT = path.join(ROOT, 'node_modules', '.cache', 'tilegraph-tests');

const SCRIPT = `
import { createBackend, closeGpu } from ${JSON.stringify(path.join(ROOT, 'src/hosts/node/gpu.ts'))};
import { Renderer } from ${JSON.stringify(path.join(ROOT, 'src/index.ts'))};
const backend = await createBackend('gpu');
const r = Renderer.create({ output: 'out', nodes: { out: { op: 'solid', color: '#ff8800' } } });
const { raster, stats } = await r.renderWindow({ z: 0, x0: 0, y0: 0, width: 32, height: 32, tileSize: 32 }, r.params(), { backend });
console.log(JSON.stringify({ backend: backend.name, stats, first: Array.from(raster.data.slice(0, 4)) }));
if (process.argv[2] === 'close') await closeGpu();
`;

gpuDescribe('process exit', () => {
  let bundle = '';
  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    const entry = path.join(OUT, 'exit-entry.ts');
    writeFileSync(entry, SCRIPT);
    bundle = path.join(OUT, 'exit-host.mjs');
    await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      outfile: bundle,
      logLevel: 'error',
    });
  });

  for (const mode of ['close', 'no-close']) {
    test(`renders on the GPU and exits on its own (${mode})`, async () => {
      const run = spawnSync(process.execPath, [bundle, mode], { cwd: ROOT, env: process.env, encoding: 'utf8', timeout: 60_000 });
      expect(run.error).toBeUndefined(); // a timeout (a hung event loop) sets error
      expect(run.status).toBe(0);
      const line = run.stdout.trim().split('\n').pop()!;
      const out = JSON.parse(line) as { backend: string; stats: { submits: number; readbacks: number }; first: number[] };
      expect(out.backend).toBe('gpu');
      expect(out.stats.submits).toBe(1);
      expect(out.stats.readbacks).toBe(1);
      expect(out.first[3]).toBe(1);
      expect(out.first[0]).toBe(1);
    });
  }
});
