// Both backends side by side on the reference styles: median ms per tile and the structural
// counters of one render (passes, submits, readbacks, bytes read back). On SwiftShader (no GPU
// here) the GPU backend is expected to be much slower than the CPU one; the counters show that a
// tile is still one submit and one readback. `node bench/backends.mjs` after `npm run build`.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Renderer, CpuBackend } from '../dist/index.js';
import { NodeLoader, openStyle } from '../dist/hosts/node/index.js';
import { bench, countriesStyle, record } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = process.env.FIXTURES || path.resolve(HERE, '../../shared/fixtures');
if (!process.env.VK_ICD_FILENAMES && existsSync('/usr/lib/chromium/vk_swiftshader_icd.json')) {
  process.env.VK_ICD_FILENAMES = '/usr/lib/chromium/vk_swiftshader_icd.json';
  process.env.XDG_RUNTIME_DIR ??= '/tmp';
}
const { createBackend, closeGpu, gpuAdapterSummary } = await import('../dist/hosts/node/gpu.js');

let gpu;
try {
  gpu = await createBackend('gpu');
} catch (e) {
  console.log(`no GPU adapter: ${e.message}; CPU rows only`);
}
const adapter = gpuAdapterSummary();
const loader = new NodeLoader({ baseDir: HERE, allowOutside: true });
const countries = existsSync(FIXTURES) ? path.join(FIXTURES, 'geojson/ne_110m_admin_0_countries.geojson') : 'npm:world-atlas/countries-110m.json';
const styles = {
  'countries fill+stroke': Renderer.create(countriesStyle(countries), { loader }),
  'blur sigma 16 of a render': Renderer.create(
    {
      output: 'b',
      sources: { c: { type: 'geojson', data: countries } },
      nodes: { f: { op: 'features', source: 'c' }, fill: { op: 'fill-solid', features: '@f', fill: '#10304a' }, b: { op: 'blur', input: '@fill', sigma: 16 } },
    },
    { loader },
  ),
  'world example': await openStyle(path.resolve(HERE, '../examples/world/style.json')),
};

const runs = { warmup: 2, minRuns: 5, minTimeS: 0.5, maxRuns: 40 };
for (const [name, r] of Object.entries(styles)) {
  for (const [label, backend] of [
    ['cpu', new CpuBackend()],
    ['gpu', gpu],
  ]) {
    if (!backend) continue;
    const win = { z: 2, x0: 512, y0: 256, width: 256, height: 256, tileSize: 256 };
    const { stats } = await r.renderWindow(win, undefined, { backend });
    const times = await bench(() => r.renderWindow(win, undefined, { backend }), runs);
    const note =
      `passes ${stats.passes}, submits ${stats.submits}, readbacks ${stats.readbacks}, ${stats.bytesReadBack} B read back` +
      (label === 'gpu' && adapter ? ` (${adapter.description}${adapter.fallback ? ', fallback adapter' : ''})` : '');
    record(`B ${name}`, `tilegraph ${label}`, 256, times, note);
  }
}
if (gpu) await closeGpu();
