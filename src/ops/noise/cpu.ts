// noise on the CPU: fBm of value or simplex noise over the canvas's sampling plan (plan.ts:
// periodic across the antimeridian). `noiseReference` evaluates every pixel, octave and channel
// on its own with plan.ts's functions; `noise`, which the op runs, computes the same values bit
// for bit (noise.test.ts compares them) with the work that pixels, rows and channels share done
// once:
// - octave by octave, the fBm sum kept in a Float64 accumulator and added in the reference's order
//   (octave 0 first), so the f32 results are identical;
// - value noise: the fades once per column and row; per lattice line (a row of lattice points),
//   each lattice point hashed once, not four hashes per pixel;
// - simplex: the simplex geometry (skew, the corners, their falloffs) once per pixel for all
//   channels; each corner's gradient index read from a table of the canvas's lattice box, filled
//   as corners are first met (one hash per lattice point and channel, not one per pixel and corner).
import { acquire } from '../../backends/cpu/pool.js';
import { noiseNative } from './native.js';
import { noiseWasm } from './wasm.js';
import {
  CHANNELS,
  ENTRY,
  F3,
  G3,
  GX,
  GY,
  GZ,
  SIMPLEX_GAIN,
  fade,
  hash32,
  latticeHash3,
  octaveLattice,
  octaveSeed,
  simplexNoise,
  unit,
  valueColumns,
  valueNoise,
  type NoisePlan,
} from './plan.js';

// Kept on purpose beside noise(): the plain kernel, the oracle the fast octaves are tested against
// bit for bit (issue 25: the TypeScript kernel stays the reference).
/**
 * w x h values of `channels` (1: a field; 3: RGB of an opaque raster, RGBA out; 2: R and G of a
 * raster whose readers read no B, which is left +0): every sample on its own.
 */
export function noiseReference(p: NoisePlan, seed: number, raster: boolean, channels = raster ? CHANNELS : 1): Float32Array {
  const { width: w, height: h, octaves: n, cells, cols, rows } = p;
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
      if (raster && channels < CHANNELS) out[q + 2] = 0;
      if (raster) out[q + 3] = 1;
    }
  }
  return out;
}

// Scratch reused across calls (one kernel runs at a time).
let accBuf = new Float64Array(0);
let tableBuf = new Int8Array(0);
const scratch = (n: number): Float64Array => (accBuf.length >= n ? accBuf : (accBuf = new Float64Array(n)));
const table = (n: number): Int8Array => {
  if (tableBuf.length < n) tableBuf = new Int8Array(n);
  const t = tableBuf.subarray(0, n);
  t.fill(-1);
  return t;
};
const GXa = Float64Array.from(GX);
const GYa = Float64Array.from(GY);
const GZa = Float64Array.from(GZ);

/**
 * The op's kernel: a host's native octaves (native.ts: the Node host's AVX-512 addon) where one is
 * bound, else the WebAssembly octaves (wasm.ts) where WebAssembly runs, else noiseTs. All give
 * noiseReference's values bit for bit (noise.test.ts) at every pixel `demand` holds (runs of
 * pixels: row, first column, count; OpContext.demand): the native and WebAssembly simplex octaves
 * compute only those and leave the others +0, every other kernel computes every pixel.
 */
export function noise(p: NoisePlan, seed: number, raster: boolean, channels = raster ? CHANNELS : 1, demand?: Int32Array): Float32Array {
  return noiseNative(p, seed, raster, channels, demand) ?? noiseWasm(p, seed, raster, channels, demand) ?? noiseTs(p, seed, raster, channels);
}

/** The same values as noiseReference, bit for bit, sharing work between pixels, rows and channels. */
export function noiseTs(p: NoisePlan, seed: number, raster: boolean, channels = raster ? CHANNELS : 1): Float32Array {
  const { width: w, height: h, octaves: n } = p;
  const acc = scratch(w * h * channels);
  const cellsF = new Float32Array(p.cells.buffer, p.cells.byteOffset, p.cells.length);
  for (let o = 0; o < n; o++) {
    const weight = cellsF[o * 4 + 3]!;
    const seeds = Array.from({ length: channels }, (_, c) => octaveSeed(seed, c, o));
    if (p.kind === 'simplex') simplexOctave(p, o, seeds, weight, acc, o === 0);
    else valueOctave(p, o, seeds, weight, acc, o === 0);
  }
  const stride = raster ? 4 : 1;
  const out = acquire(w * h * stride, false);
  const m = w * h;
  if (raster && channels === 2)
    for (let q = 0, a = 0; q < m; q++, a += 2) {
      out[q * 4] = acc[a]!;
      out[q * 4 + 1] = acc[a + 1]!;
      out[q * 4 + 2] = 0;
      out[q * 4 + 3] = 1;
    }
  else if (raster)
    for (let q = 0, a = 0; q < m; q++, a += 3) {
      out[q * 4] = acc[a]!;
      out[q * 4 + 1] = acc[a + 1]!;
      out[q * 4 + 2] = acc[a + 2]!;
      out[q * 4 + 3] = 1;
    }
  else for (let q = 0; q < m; q++) out[q] = acc[q]!;
  return out;
}

/** One octave of value noise added to `acc` (pixel-major, `seeds.length` channels). */
function valueOctave(p: NoisePlan, o: number, seeds: number[], weight: number, acc: Float64Array, first: boolean): void {
  const { width: w, height: h, rows } = p;
  const rowsF = new Float32Array(rows.buffer, rows.byteOffset, rows.length);
  const channels = seeds.length;
  const { a, b, sx, cellX } = valueColumns(p, o);
  const nc = cellX.length;
  // Two lattice lines (their values per slot and channel), kept while consecutive rows read them.
  let lineA = new Float64Array(nc * channels);
  let lineB = new Float64Array(nc * channels);
  let yA = -1;
  let yB = -1;
  const fill = (line: Float64Array, iy: number) => {
    for (let c = 0; c < channels; c++) {
      const hy = hash32((iy ^ seeds[c]!) >>> 0);
      for (let s = 0; s < nc; s++) line[s * channels + c] = unit(hash32((cellX[s]! ^ hy) >>> 0));
    }
  };
  for (let j = 0; j < h; j++) {
    const r = (o * h + j) * ENTRY;
    const iy0 = rows[r]!;
    const iy1 = rows[r + 1]!;
    const sy = fade(rowsF[r + 2]!);
    // Line iy0 into A and iy1 into B, reusing what the last rows filled.
    if (yA !== iy0) {
      if (yB === iy0) {
        const t = lineA;
        lineA = lineB;
        lineB = t;
        yA = iy0;
        yB = -1;
      } else {
        fill(lineA, iy0);
        yA = iy0;
      }
    }
    if (yB !== iy1) {
      fill(lineB, iy1);
      yB = iy1;
    }
    let q = j * w * channels;
    for (let i = 0; i < w; i++) {
      const ai = a[i]! * channels;
      const bi = b[i]! * channels;
      const fx = sx[i]!;
      for (let c = 0; c < channels; c++, q++) {
        const v00 = lineA[ai + c]!;
        const v10 = lineA[bi + c]!;
        const v01 = lineB[ai + c]!;
        const v11 = lineB[bi + c]!;
        const top = v00 + (v10 - v00) * fx;
        const bottom = v01 + (v11 - v01) * fx;
        const v = weight * (top + (bottom - top) * sy);
        acc[q] = first ? 0 + v : acc[q]! + v;
      }
    }
  }
}

/** One octave of simplex noise added to `acc` (pixel-major, `seeds.length` channels). */
function simplexOctave(p: NoisePlan, o: number, seeds: number[], weight: number, acc: Float64Array, first: boolean): void {
  const { width: w, height: h, cells } = p;
  const channels = seeds.length;
  const cx = cells[o * 4]!;
  const cy = cells[o * 4 + 1]!;
  const cz = cells[o * 4 + 2]!;
  const { X, Y, Z, i0, j0, k0, nx, ny, nz } = octaveLattice(p, o);
  const boxSize = nx * ny * nz;
  const half = SIMPLEX_GAIN / 2;
  if (boxSize * channels > Math.max(1 << 16, 4 * w * h * channels)) {
    // A box much larger than the canvas (very fine noise): every sample on its own.
    for (let j = 0, q = 0; j < h; j++)
      for (let i = 0; i < w; i++)
        for (let c = 0; c < channels; c++, q++) {
          const v = weight * simplexNoise(X[i]!, Y[j]!, Z[i]!, cx, cy, cz, seeds[c]!);
          acc[q] = first ? 0 + v : acc[q]! + v;
        }
    return;
  }
  // Each corner's gradient index per channel, hashed when a corner first meets its lattice point.
  const grads = table(boxSize * channels);
  const sI = ny * nz * channels;
  const sJ = nz * channels;
  const sK = channels;
  /** Gradient index of channel c at table offset idx (lattice point li, lj, lk). */
  const grad = (idx: number, li: number, lj: number, lk: number, c: number): number => {
    let g = grads[idx + c]!;
    if (g < 0) grads[idx + c] = g = latticeHash3((cx + li) >>> 0, (cy + lj) >>> 0, (cz + lk) >>> 0, seeds[c]!) % 12;
    return g;
  };
  const G2 = 2 * G3;
  const G3x3 = 3 * G3;
  const ns = new Float64Array(channels);
  for (let j = 0; j < h; j++) {
    const py = Y[j]!;
    let q = j * w * channels;
    for (let i = 0; i < w; i++) {
      const px = X[i]!;
      const pz = Z[i]!;
      // simplexNoise (plan.ts), its arithmetic in the same order.
      const s = (px + py + pz) * F3;
      const si = Math.floor(px + s),
        sj = Math.floor(py + s),
        sk = Math.floor(pz + s);
      const t = (si + sj + sk) * G3;
      const x0 = px - (si - t),
        y0 = py - (sj - t),
        z0 = pz - (sk - t);
      let i1: number, j1: number, k1: number, i2: number, j2: number, k2: number;
      if (x0 >= y0) {
        if (y0 >= z0) (i1 = 1), (j1 = 0), (k1 = 0), (i2 = 1), (j2 = 1), (k2 = 0);
        else if (x0 >= z0) (i1 = 1), (j1 = 0), (k1 = 0), (i2 = 1), (j2 = 0), (k2 = 1);
        else (i1 = 0), (j1 = 0), (k1 = 1), (i2 = 1), (j2 = 0), (k2 = 1);
      } else if (y0 < z0) (i1 = 0), (j1 = 0), (k1 = 1), (i2 = 0), (j2 = 1), (k2 = 1);
      else if (x0 < z0) (i1 = 0), (j1 = 1), (k1 = 0), (i2 = 0), (j2 = 1), (k2 = 1);
      else (i1 = 0), (j1 = 1), (k1 = 0), (i2 = 1), (j2 = 1), (k2 = 0);
      const base = (si - i0) * sI + (sj - j0) * sJ + (sk - k0) * sK;
      for (let c = 0; c < channels; c++) ns[c] = 0;
      // The four corners: the falloff once, the gradient per channel (a corner out of reach adds 0).
      const t0 = 0.5 - x0 * x0 - y0 * y0 - z0 * z0;
      if (t0 >= 0) {
        const f = t0 * t0 * (t0 * t0);
        for (let c = 0; c < channels; c++) {
          const g = grad(base, si, sj, sk, c);
          ns[c] = ns[c]! + f * (GXa[g]! * x0 + GYa[g]! * y0 + GZa[g]! * z0);
        }
      }
      const x1 = x0 - i1 + G3,
        y1 = y0 - j1 + G3,
        z1 = z0 - k1 + G3;
      const t1 = 0.5 - x1 * x1 - y1 * y1 - z1 * z1;
      if (t1 >= 0) {
        const f = t1 * t1 * (t1 * t1);
        const idx = base + i1 * sI + j1 * sJ + k1 * sK;
        for (let c = 0; c < channels; c++) {
          const g = grad(idx, si + i1, sj + j1, sk + k1, c);
          ns[c] = ns[c]! + f * (GXa[g]! * x1 + GYa[g]! * y1 + GZa[g]! * z1);
        }
      }
      const x2 = x0 - i2 + G2,
        y2 = y0 - j2 + G2,
        z2 = z0 - k2 + G2;
      const t2 = 0.5 - x2 * x2 - y2 * y2 - z2 * z2;
      if (t2 >= 0) {
        const f = t2 * t2 * (t2 * t2);
        const idx = base + i2 * sI + j2 * sJ + k2 * sK;
        for (let c = 0; c < channels; c++) {
          const g = grad(idx, si + i2, sj + j2, sk + k2, c);
          ns[c] = ns[c]! + f * (GXa[g]! * x2 + GYa[g]! * y2 + GZa[g]! * z2);
        }
      }
      const x3 = x0 - 1 + G3x3,
        y3 = y0 - 1 + G3x3,
        z3 = z0 - 1 + G3x3;
      const t3 = 0.5 - x3 * x3 - y3 * y3 - z3 * z3;
      if (t3 >= 0) {
        const f = t3 * t3 * (t3 * t3);
        const idx = base + sI + sJ + sK;
        for (let c = 0; c < channels; c++) {
          const g = grad(idx, si + 1, sj + 1, sk + 1, c);
          ns[c] = ns[c]! + f * (GXa[g]! * x3 + GYa[g]! * y3 + GZa[g]! * z3);
        }
      }
      for (let c = 0; c < channels; c++, q++) {
        const v0 = 0.5 + half * ns[c]!;
        const v = weight * (v0 < 0 ? 0 : v0 > 1 ? 1 : v0);
        acc[q] = first ? 0 + v : acc[q]! + v;
      }
    }
  }
}
