import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openStyle } from '../../src/node/index.js';
import { CpuBackend } from '../../src/index.js';
import { gpu } from './harness.js';
test('timing', async () => {
  const dir = path.resolve('golden/seam-dem-contours');
  const c = JSON.parse(readFileSync(path.join(dir, 'case.json'), 'utf8'));
  const r = await openStyle(path.join(dir, 'style.json'), { allowOutside: true });
  const win = { ...c.window, tileSize: c.tileSize ?? 256 };
  for (const [n, b] of [['cpu', new CpuBackend()], ['gpu', (await gpu())!], ['cpu', new CpuBackend()], ['gpu', (await gpu())!]] as const) {
    const t0 = performance.now();
    const out = await r.renderWindow(win, r.params(c.params ?? {}), { backend: b });
    console.log(n, (performance.now() - t0).toFixed(0), JSON.stringify(out.stats));
  }
});
