// noise's octaves through a host's native kernels (src/util/native-kernels.ts; the Node host's
// native/kernels.c with AVX-512): the same values as noiseReference bit for bit (noise.test.ts),
// where one is bound and the canvas is within the WebAssembly kernel's bounds; else null and
// cpu.ts's next kernel runs.
import { acquire, release } from '../../backends/cpu/pool.js';
import { nativeKernels, type NativeNoise } from '../../util/native-kernels.js';
import { type NoisePlan, octaveSeed } from './plan.js';
import { NOISE_WASM_MAX_PIXELS, NOISE_WASM_MAX_WIDTH } from './wasm.js';

// The f64 sums, reused across calls (one kernel runs at a time per thread) up to ACC_KEEP doubles
// (a 512 px tile with its margins, three channels); a larger canvas's (at most NOISE_WASM_MAX_PIXELS
// x 3 doubles, 48 MiB) is dropped after its call.
const ACC_KEEP = 2 ** 21;
let accBuf = new Float64Array(0);

/**
 * noiseReference's values, bit for bit, or null (no kernels bound, a canvas over the WebAssembly
 * kernel's bounds, or a very fine simplex noise). `demand` (simplex only): the runs of pixels to
 * compute (row, first column, count), the others +0 (0 in R and G of a raster, A 1).
 */
export function noiseNative(
  p: NoisePlan,
  seed: number,
  raster: boolean,
  channels: number,
  demand?: Int32Array,
  kernel?: NativeNoise,
  generic = false,
): Float32Array | null {
  const fn = kernel ?? nativeKernels()?.noise;
  const { width: w, height: h, octaves: n } = p;
  if (!fn || w * h > NOISE_WASM_MAX_PIXELS || w > NOISE_WASM_MAX_WIDTH) return null;
  const m = w * h;
  const acc = accBuf.length >= m * channels ? accBuf : new Float64Array(m * channels);
  if (acc.length <= ACC_KEEP) accBuf = acc;
  const seeds = new Uint32Array(n * channels);
  for (let o = 0; o < n; o++) for (let c = 0; c < channels; c++) seeds[o * channels + c] = octaveSeed(seed, c, o);
  const out = acquire(m * (raster ? 4 : 1), false);
  const simplex = p.kind === 'simplex';
  const ok = fn(simplex ? 1 : 0, p.cells, p.cols, p.rows, w, h, n, seeds, channels, raster ? 1 : 0, (simplex && demand) || null, acc, out, generic ? 1 : 0);
  if (ok) return out;
  release(out);
  return null;
}
