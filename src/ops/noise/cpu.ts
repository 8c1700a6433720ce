// noise on the CPU (the reference): fBm of value or simplex noise over world pixels (plan.ts).
import { acquire } from '../../backends/cpu/pool.js';
import { CHANNELS, octaveSeed, simplexNoise, valueNoise, type NoiseKind, type Octave } from './plan.js';

/** w x h values of `channels` (1: a field; 3: RGB of an opaque raster, RGBA out). */
export function noise(w: number, h: number, octs: Octave[], kind: NoiseKind, seed: number, raster: boolean): Float32Array {
  const channels = raster ? CHANNELS : 1;
  const stride = raster ? 4 : 1;
  const out = acquire(w * h * stride, false);
  const fn = kind === 'value' ? valueNoise : simplexNoise;
  const seeds = octs.map((_, o) => Array.from({ length: channels }, (_, c) => octaveSeed(seed, c, o)));
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      const p = (j * w + i) * stride;
      for (let c = 0; c < channels; c++) {
        let v = 0;
        for (let o = 0; o < octs.length; o++) {
          const oc = octs[o]!;
          v += oc.weight * fn(oc.rx + i * oc.step, oc.ry + j * oc.step, oc.cx, oc.cy, seeds[o]![c]!);
        }
        out[p + c] = v;
      }
      if (raster) out[p + 3] = 1;
    }
  }
  return out;
}
