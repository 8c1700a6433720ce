// Blur kernel timing and accuracy, short (about 15 s): blurFast (the op's kernel) on a 512 x 512
// tile of seeded noise plus sharp shapes, median of 15 runs per sigma, and its largest error
// against blurExact (the truncated Gaussian), in 1/255 units. Needs `npm run build` first.
// Usage: node bench/blur.mjs [size]
import { blurExact, blurFast } from '../dist/ops/blur/cpu.js';
import { decimationFactor, kernelRadius } from '../dist/ops/blur/plan.js';
import { bench, median } from './lib.mjs';

const size = Number(process.argv[2] ?? 512);

function image(sw, sh) {
  let s = 12345;
  const rnd = () => (s = (s * 1664525 + 1013904223) >>> 0) / 4294967296;
  const d = new Float32Array(sw * sh * 4);
  for (let y = 0; y < sh; y++) {
    for (let x = 0; x < sw; x++) {
      // Noise on the left half, a disk and stripes on the right: both error regimes.
      const a = x < sw / 2 ? rnd() : (x - 0.75 * sw) ** 2 + (y - sh / 2) ** 2 < (sh / 5) ** 2 || y % 23 < 3 ? 1 : 0;
      d.set([a * rnd(), a * 0.5, a * 0.25, a], (y * sw + x) * 4);
    }
  }
  return d;
}

console.log(`blur of a ${size} x ${size} RGBA float tile (pad ceil(3 sigma) each side)`);
for (const sigma of [2, 4, 8, 16, 32]) {
  const pad = kernelRadius(sigma);
  const sw = size + 2 * pad;
  const src = image(sw, sw);
  const times = await bench(() => blurFast(src, sw, sw, pad, pad, size, size, sigma), { warmup: 3, minRuns: 15, minTimeS: 0, maxRuns: 15 });
  const fast = blurFast(src, sw, sw, pad, pad, size, size, sigma);
  const exact = blurExact(src, sw, sw, pad, pad, size, size, sigma);
  let err = 0;
  for (let i = 0; i < fast.length; i++) err = Math.max(err, Math.abs(fast[i] - exact[i]));
  const k = decimationFactor(sigma);
  console.log(
    `  sigma ${String(sigma).padStart(2)}  ${k === 1 ? 'exact   ' : `k = ${String(k).padEnd(4)}`}  median ${median(times).toFixed(2).padStart(7)} ms  min ${Math.min(
      ...times,
    )
      .toFixed(2)
      .padStart(7)} ms  max error ${(err * 255).toFixed(3)}/255`,
  );
}
