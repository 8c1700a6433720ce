// Writes hatch.png, the water hatching of this style: 16 x 16 px, diagonal pencil lines with a
// little grain (deterministic). Run from the repository root: node examples/handdrawn/make-assets.mjs
import sharp from 'sharp';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const N = 16;
let seed = 20261123;
const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
const px = new Uint8Array(N * N * 4);
for (let y = 0; y < N; y++) {
  for (let x = 0; x < N; x++) {
    // Distance to the nearest 45-degree line x - y = 0 (mod 8), wrapping so the tile repeats seamlessly.
    const d = Math.min(((x - y) % 8 + 8) % 8, 8 - (((x - y) % 8 + 8) % 8));
    const a = Math.max(0, 1 - d / 1.2) * (0.55 + 0.45 * rnd());
    px.set([40, 70, 110, Math.round(255 * a)], (y * N + x) * 4);
  }
}
await sharp(Buffer.from(px), { raw: { width: N, height: N, channels: 4 } }).png().toFile(path.join(here, 'hatch.png'));
console.log('wrote', path.join(here, 'hatch.png'));
