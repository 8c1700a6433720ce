// The README's small style is a real, complete style: it loads, builds and renders.
import { readFileSync } from 'node:fs';
import { Renderer } from '../../src/index.js';
import { NodeLoader } from '../../src/hosts/node/loader.js';

test("the README's complete small style renders a tile", async () => {
  const readme = readFileSync('README.md', 'utf8');
  const block = /## A complete small style\n\n```json\n([\s\S]*?)\n```/.exec(readme);
  expect(block).not.toBeNull();
  const r = Renderer.create(block![1]!, { loader: new NodeLoader({ baseDir: process.cwd() }) });
  const raster = await r.renderTile({ z: 1, x: 1, y: 0 }, r.params({ land: '#e0d8c0' }));
  // Europe at z1: land pixels (opaque, the land colour) and sea pixels both occur.
  let land = 0;
  let sea = 0;
  for (let i = 0; i < raster.data.length; i += 4) {
    const [cr, cg, cb] = [raster.data[i]!, raster.data[i + 1]!, raster.data[i + 2]!].map((v) => Math.round(v * 255));
    if (cr === 0xe0 && cg === 0xd8 && cb === 0xc0) land++;
    else if (cb! > cr!) sea++;
  }
  expect(land).toBeGreaterThan(1000);
  expect(sea).toBeGreaterThan(1000);
});
