// noise on the CPU (the reference): fBm of value or simplex noise over the canvas's sampling plan
// (plan.ts: periodic across the antimeridian).
import { acquire } from '../../backends/cpu/pool.js';
import { CHANNELS, ENTRY, octaveSeed, simplexNoise, valueNoise, type NoisePlan } from './plan.js';

/** w x h values of `channels` (1: a field; 3: RGB of an opaque raster, RGBA out). */
export function noise(p: NoisePlan, seed: number, raster: boolean): Float32Array {
  const { width: w, height: h, octaves: n, cells, cols, rows } = p;
  const channels = raster ? CHANNELS : 1;
  const stride = raster ? 4 : 1;
  const out = acquire(w * h * stride, false);
  const cellsF = new Float32Array(cells.buffer, cells.byteOffset, cells.length);
  const colsF = new Float32Array(cols.buffer, cols.byteOffset, cols.length);
  const rowsF = new Float32Array(rows.buffer, rows.byteOffset, rows.length);
  const seeds = Array.from({ length: n }, (_, o) => Array.from({ length: channels }, (_, c) => octaveSeed(seed, c, o)));
  const simplex = p.kind === 'simplex';
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      const q = (j * w + i) * stride;
      for (let c = 0; c < channels; c++) {
        let v = 0;
        for (let o = 0; o < n; o++) {
          const k = (o * w + i) * ENTRY;
          const r = (o * h + j) * ENTRY;
          const s = seeds[o]![c]!;
          v +=
            cellsF[o * 4 + 3]! *
            (simplex
              ? simplexNoise(colsF[k]!, rowsF[r]!, colsF[k + 1]!, cells[o * 4]!, cells[o * 4 + 1]!, cells[o * 4 + 2]!, s)
              : valueNoise(cols[k]!, cols[k + 1]!, colsF[k + 2]!, rows[r]!, rows[r + 1]!, rowsF[r + 2]!, s));
        }
        out[q + c] = v;
      }
      if (raster) out[q + 3] = 1;
    }
  }
  return out;
}
