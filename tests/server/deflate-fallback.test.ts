// The server where the libdeflate addon is not in use (here turned off with TILEGRAPH_DEFLATE=zlib,
// as where it is not built or does not load): one line at start-up says so, GET /metrics names
// node:zlib, and the tiles its worker threads encode with node:zlib decode (libvips, a decoder we
// did not write) to exactly the pixels of the same render in this process.
import path from 'node:path';
import { deflateInfo, usingLibdeflate } from '../../src/hosts/node/deflate.js';
import { loadStyleFile } from '../../src/hosts/node/style-file.js';
import { serve } from '../../src/hosts/server/serve.js';
import { differenceFromRaster } from '../helpers/decode.js';
import { requireBuild, ROOT, WORKER } from './fixtures.js';

// Read when the deflate is first asked for (below), by this thread and by every worker it starts.
process.env.TILEGRAPH_DEFLATE = 'zlib';

test('TILEGRAPH_DEFLATE=zlib: node:zlib, one start-up line, GET /metrics says so, world tiles (indexed and truecolour) decode to the in-process render', async () => {
  requireBuild();
  expect(usingLibdeflate()).toBe(false);
  expect(deflateInfo()).toEqual({ name: 'node:zlib', reason: 'TILEGRAPH_DEFLATE=zlib' });
  const file = path.join(ROOT, 'examples/world/style.json');
  const log: string[] = [];
  const s = await serve({ style: file, port: 0, workers: 1, workerUrl: WORKER, backend: 'cpu', log: (l) => log.push(l) });
  try {
    expect(log.filter((l) => l.includes('deflate'))).toEqual([
      'tilegraph: PNG tiles deflate with node:zlib (about twice the CPU of libdeflate): TILEGRAPH_DEFLATE=zlib',
    ]);
    const metrics = await (await fetch(`${s.url}metrics`)).text();
    expect(metrics).toMatch(/^tilegraph_png_deflate_info\{deflate="node:zlib"\} 1$/m);
    const style = await loadStyleFile(file);
    const forms = new Set<number>();
    for (const [z, x, y] of [
      [4, 8, 5],
      [4, 2, 9],
      [3, 4, 2],
    ] as const) {
      const r = await fetch(`${s.url}tiles/${z}/${x}/${y}.png`);
      expect(r.status).toBe(200);
      const bytes = new Uint8Array(await r.arrayBuffer());
      forms.add(bytes[25]!);
      const raster = await style.renderer.renderTile({ z, x, y }, style.renderer.params({}));
      expect(await differenceFromRaster(bytes, raster)).toBeUndefined();
    }
    expect(forms.size).toBeGreaterThan(1);
  } finally {
    await s.close();
  }
});
