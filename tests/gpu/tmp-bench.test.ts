import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openStyle } from '../../src/node/index.js';
import { CpuBackend } from '../../src/index.js';
import { gpu } from './harness.js';
test('bench', async () => {
  const g = (await gpu())!;
  for (const name of ['source-mvt-street', 'heatmap-over-countries', 'blur-shapes', 'seam-dem-contours']) {
    const dir = path.resolve('golden', name);
    const c = JSON.parse(readFileSync(path.join(dir, 'case.json'), 'utf8'));
    const r = await openStyle(path.join(dir, 'style.json'), { allowOutside: true });
    const ts = c.tileSize ?? 256;
    const win = c.window ? { ...c.window, tileSize: ts } : (() => { const [z, x, y] = c.tile.split('/').map(Number); return { z, x0: x * ts, y0: y * ts, width: ts, height: ts, tileSize: ts }; })();
    const p = r.params(c.params ?? {});
    const res: string[] = [];
    for (const [n, b] of [['cpu', new CpuBackend()], ['gpu', g]] as const) {
      const t: number[] = []; let stats;
      for (let i = 0; i < 6; i++) { const t0 = performance.now(); stats = (await r.renderWindow(win, p, { backend: b })).stats; t.push(performance.now() - t0); }
      t.sort((a, b) => a - b);
      res.push(`${n} ${t[3]!.toFixed(0)}ms ${JSON.stringify(stats)}`);
    }
    console.log(name, win.width + 'x' + win.height, res.join(' | '));
  }
});
