// Seam sweep over the gallery: each bundled example's bench tiles (bench/gallery.mjs) rendered alone
// and as the middle of a 3x3-tile window (no tile edge there), on the CPU backend, at 256 px and as
// 512 px tiles of the next zoom. A tile that does not equal its window's middle does not continue
// its neighbours the way the window does: the worst channel difference and where it is, and how
// many channels differ by more than 2/255. A report, not a test: docs/testing.md ("The gallery's
// seams") says what the last sweep found and why.
//
// Usage: npm run build && node scripts/seam-sweep.mjs [style regex] [--tiles 6] [--sizes 256,512]
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : fallback;
};
const K = Math.max(1, Math.min(120, Number(flag('--tiles', '6'))));
const sizes = flag('--sizes', '256,512')
  .split(',')
  .map(Number)
  .filter((s) => s === 256 || s === 512);
const only = new RegExp(args[0] ?? '.');

const { galleryStyles, tileSet } = await import(path.join(ROOT, 'bench/gallery.mjs'));
const { CpuBackend, tileWindow } = await import(path.join(ROOT, 'dist/index.js'));
const { loadStyleFile } = await import(path.join(ROOT, 'dist/hosts/node/style-file.js'));
const backend = new CpuBackend();

for (const st of galleryStyles(mkdtempSync(path.join(os.tmpdir(), 'seam-sweep-')), only)) {
  const { tiles } = await tileSet(st.file);
  const { renderer } = await loadStyleFile(st.file);
  const params = renderer.params({});
  for (const S of sizes) {
    let worst = 0;
    let where = '-';
    let over = 0;
    const step = Math.max(1, Math.floor(tiles.length / K));
    for (let i = 0, n = 0; i < tiles.length && n < K; i += step, n++) {
      const [z0, x0, y0] = tiles[i];
      // 512 px: the tile of the next zoom at the same corner (the same map area per pixel as 256 px).
      const [z, x, y] = S === 512 ? [z0 + 1, 2 * x0, 2 * y0] : [z0, x0, y0];
      const tile = (await renderer.renderWindow(tileWindow({ z, x, y }, S), params, { backend })).raster.data.slice();
      const big = (await renderer.renderWindow({ z, x0: (x - 1) * S, y0: (y - 1) * S, width: 3 * S, height: 3 * S, tileSize: S }, params, { backend })).raster
        .data;
      for (let py = 0; py < S; py++)
        for (let px = 0; px < S; px++)
          for (let c = 0; c < 4; c++) {
            const d = Math.abs(tile[(py * S + px) * 4 + c] - big[((py + S) * 3 * S + px + S) * 4 + c]);
            if (d > 2 / 255) over++;
            if (d > worst) {
              worst = d;
              where = `${z}/${x}/${y} pixel ${px},${py}`;
            }
          }
    }
    console.log(`${st.name} @${S} px: worst ${worst.toFixed(3)} at ${where}; ${over} channels differ by more than 2/255 over ${K} tiles`);
  }
}
