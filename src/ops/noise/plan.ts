// What both noise kernels share. Noise is anchored to world pixels at the tile zoom and is
// periodic across the antimeridian: world pixel x and x + W (W = tileSize 2^z, the world's width)
// give the same value, at every zoom, so the tiles x = 2^z - 1 and x = 0 continue each other.
//
// - value: the lattice is snapped per zoom to a whole number of cells around the world,
//   P = max(1, round(W / scale-px)) for the first octave (x 2^octave after), spacing W / P in x and
//   y; the cell index wraps modulo P. Where W / scale-px is already whole nothing moves; otherwise
//   the feature size differs from scale-px by at most half a cell around the whole world.
// - simplex: 3-D simplex noise sampled on a cylinder: world x is an angle, and pixel (x, y) reads
//   the noise at (R cos θ, (y + 0.5) s, R sin θ), θ = 2π (x mod W + 0.5) / W, s = 2^octave /
//   scale-px, R = W s / 2π, so one pixel moves s lattice units along the circle as along y: the
//   feature size is scale-px exactly, with no snapping.
//
// This plan computes, per canvas in float64, everything that depends on position: per octave an
// origin lattice cell (u32) and per column and per row of the canvas a small local coordinate
// (or, for value noise, the wrapped cell indices and the fraction), so a kernel only does f32
// arithmetic on small numbers and integer hashing of u32 cells (which wraps alike on both backends).
import type { Canvas } from '../../types.js';
import type { OpContext } from '../types.js';
import { RenderError } from '../../errors.js';

export const MAX_OCTAVES = 12;
/** Output channels of a raster noise (R, G, B, each its own seed); a field uses channel 0. */
export const CHANNELS = 3;

export type NoiseKind = 'value' | 'simplex';

/** Chris Wellons' lowbias32 integer hash (u32 in, u32 out); the WGSL twin is in noise-lib.wgsl. */
export function hash32(v: number): number {
  let x = v >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Hash of value-noise lattice point (ix, iy) (u32s) under a per-octave seed. */
function latticeHash(ix: number, iy: number, seed: number): number {
  return hash32((ix ^ hash32((iy ^ seed) >>> 0)) >>> 0);
}

/** Hash of simplex lattice point (ix, iy, iz) (u32s) under a per-octave seed. */
export function latticeHash3(ix: number, iy: number, iz: number, seed: number): number {
  return hash32((ix ^ hash32((iy ^ hash32((iz ^ seed) >>> 0)) >>> 0)) >>> 0);
}

/** The seed of one channel's octave: decorrelated from every other channel and octave. */
export function octaveSeed(seed: number, channel: number, octave: number): number {
  return hash32((seed >>> 0) ^ Math.imul(channel * 16 + octave + 1, 0x9e3779b9));
}

/** 3-D simplex skew and unskew factors. */
export const F3 = 1 / 3;
export const G3 = 1 / 6;
/**
 * Scale of the summed corner contributions (radius² 0.5 kernels, the 12 cube-edge gradients) onto
 * [-0.5, 0.5]: the largest |sum| over 4 x 10^6 random points was 0.0130 = 1 / 76.9, so nothing
 * clamps in practice (the result is clamped to [0, 1] anyway). The standard deviation comes out
 * 0.19 of [0, 1] (the 2-D simplex noise used before: 0.22).
 */
export const SIMPLEX_GAIN = 76;

/** Words per column and per row entry of the plan's tables (u32, with f32 values bit-cast). */
export const ENTRY = 4;

/**
 * The sampling plan of one canvas. `cells`: per octave (cx, cy, cz, weight as f32 bits).
 * `cols` / `rows`: per octave, per column / row of the canvas, ENTRY words (index (o n + i) ENTRY):
 *   value:   cols (ix, ix + 1 wrapped, fx as f32), rows (iy, iy + 1, fy as f32): the lattice cells
 *            either side of the pixel centre (u32) and where it sits between them;
 *   simplex: cols (X, Z as f32), rows (Y as f32): the pixel centre's point on the cylinder
 *            relative to the unskewed lattice point of the octave's origin cell (cx, cy, cz).
 */
export interface NoisePlan {
  kind: NoiseKind;
  octaves: number;
  width: number;
  height: number;
  cells: Uint32Array;
  cols: Uint32Array;
  rows: Uint32Array;
}

/**
 * An integer (|v| < 2^53) as its u32 residue: ToUint32 (ECMA-262 7.1.7) is the integer modulo
 * 2^32 for any finite number, and 0 for NaN, as ((v % 2^32) + 2^32) % 2^32 was; one instruction.
 */
const u32 = (v: number): number => v >>> 0;

/** Lattice cells once around the world for the first octave of value noise (snapped, at least 1). */
export function valuePeriod(worldWidth: number, scalePx: number): number {
  return Math.max(1, Math.round(worldWidth / scalePx));
}

/**
 * The sampling plan of `canvas`. Simplex coordinates are f32 offsets from an origin lattice cell,
 * so their rounding depends on where that cell is: `origin` (world pixel, default the canvas's
 * first pixel) is the pixel whose cell anchors them. A render whose canvas is smaller than the
 * plan's margin gives (src/graph/margins.ts) anchors at the plan's canvas (OpContext.planCanvas):
 * the same values, bit for bit, as over the larger canvas.
 */
export function planNoise(canvas: Canvas, scalePx: number, count: number, kind: NoiseKind, origin: { x0: number; y0: number } = canvas): NoisePlan {
  const n = Math.max(1, Math.min(MAX_OCTAVES, Math.round(count)));
  const { width, height, x0, y0 } = canvas;
  const W = canvas.tileSize * 2 ** canvas.z;
  const cells = new Uint32Array(n * 4);
  const cellsF = new Float32Array(cells.buffer);
  const cols = new Uint32Array(n * width * ENTRY);
  const colsF = new Float32Array(cols.buffer);
  const rows = new Uint32Array(n * height * ENTRY);
  const rowsF = new Float32Array(rows.buffer);
  let total = 0;
  for (let o = 0; o < n; o++) total += 0.5 ** o;
  // World x of column i, wrapped into [0, W).
  const wrapped = (i: number) => {
    const x = x0 + i;
    return x - Math.floor(x / W) * W;
  };
  const dx = origin.x0 - x0;
  // The angle of column i's centre around the world (simplex noise's cylinder).
  const angle = (i: number) => (2 * Math.PI * (wrapped(i) + 0.5)) / W;
  let trig: { cos: Float64Array; sin: Float64Array } | undefined;
  for (let o = 0; o < n; o++) {
    cellsF[o * 4 + 3] = 0.5 ** o / total;
    if (kind === 'value') {
      const P = valuePeriod(W, scalePx) * 2 ** o;
      const step = P / W;
      for (let i = 0; i < width; i++) {
        const u = (wrapped(i) + 0.5) * step;
        const ix = Math.min(P - 1, Math.floor(u));
        const k = (o * width + i) * ENTRY;
        cols[k] = u32(ix);
        cols[k + 1] = u32(ix + 1 === P ? 0 : ix + 1);
        colsF[k + 2] = u - ix;
      }
      for (let j = 0; j < height; j++) {
        const v = (y0 + j + 0.5) * step;
        const iy = Math.floor(v);
        const k = (o * height + j) * ENTRY;
        rows[k] = u32(iy);
        rows[k + 1] = u32(iy + 1);
        rowsF[k + 2] = v - iy;
      }
    } else {
      const step = 2 ** o / scalePx;
      const R = (W * step) / (2 * Math.PI);
      // Every octave reads the same angles: their cosines and sines are taken once (angles()).
      const { cos, sin } = (trig ??= angles(width, angle));
      // The origin cell: the skewed lattice cell of the origin pixel's centre.
      const t0 = angle(dx);
      const ox = R * Math.cos(t0);
      const oz = R * Math.sin(t0);
      const oy = (origin.y0 + 0.5) * step;
      const s = (ox + oy + oz) * F3;
      const cx = Math.floor(ox + s),
        cy = Math.floor(oy + s),
        cz = Math.floor(oz + s);
      const t = (cx + cy + cz) * G3;
      const lx = cx - t,
        ly = cy - t,
        lz = cz - t;
      cells[o * 4] = u32(cx);
      cells[o * 4 + 1] = u32(cy);
      cells[o * 4 + 2] = u32(cz);
      for (let i = 0; i < width; i++) {
        const k = (o * width + i) * ENTRY;
        colsF[k] = R * cos[i]! - lx;
        colsF[k + 1] = R * sin[i]! - lz;
      }
      for (let j = 0; j < height; j++) rowsF[(o * height + j) * ENTRY] = (y0 + j + 0.5) * step - ly;
    }
  }
  return { kind, octaves: n, width, height, cells, cols, rows };
}

/** Per column of a simplex plan, the cosine and sine of its centre's angle around the world (`angle`). */
function angles(width: number, angle: (i: number) => number): { cos: Float64Array; sin: Float64Array } {
  const cos = new Float64Array(width);
  const sin = new Float64Array(width);
  for (let i = 0; i < width; i++) {
    const t = angle(i);
    cos[i] = Math.cos(t);
    sin[i] = Math.sin(t);
  }
  return { cos, sin };
}

/** The quintic fade of value noise (6t^5 - 15t^4 + 10t^3). */
export const fade = (t: number) => t * t * t * (t * (t * 6 - 15) + 10);
/** A lattice hash as a value in [0, 1). */
export const unit = (h: number) => (h >>> 8) / 16777216;

/** Value noise in [0, 1): cells ix0/ix1 x iy0/iy1 (u32), the pixel at fraction (fx, fy) between them. */
export function valueNoise(ix0: number, ix1: number, fx: number, iy0: number, iy1: number, fy: number, seed: number): number {
  const sx = fade(fx),
    sy = fade(fy);
  const v00 = unit(latticeHash(ix0, iy0, seed)),
    v10 = unit(latticeHash(ix1, iy0, seed));
  const v01 = unit(latticeHash(ix0, iy1, seed)),
    v11 = unit(latticeHash(ix1, iy1, seed));
  const a = v00 + (v10 - v00) * sx;
  const b = v01 + (v11 - v01) * sx;
  return a + (b - a) * sy;
}

// The 12 gradients of 3-D simplex noise: the midpoints of a cube's edges (Perlin, Gustavson).
export const GX = [1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0];
export const GY = [1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1];
export const GZ = [0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1];

function corner(x: number, y: number, z: number, ix: number, iy: number, iz: number, seed: number): number {
  const t = 0.5 - x * x - y * y - z * z;
  if (t < 0) return 0;
  const g = latticeHash3(ix, iy, iz, seed) % 12;
  const t2 = t * t;
  return t2 * t2 * (GX[g]! * x + GY[g]! * y + GZ[g]! * z);
}

/**
 * 3-D simplex noise (Gustavson's formulation, kernel radius² 0.5 so it is continuous) mapped to
 * [0, 1]: local position (px, py, pz) relative to the unskewed lattice point of skewed cell
 * (cx, cy, cz) (u32s).
 */
export function simplexNoise(px: number, py: number, pz: number, cx: number, cy: number, cz: number, seed: number): number {
  const s = (px + py + pz) * F3;
  const i = Math.floor(px + s),
    j = Math.floor(py + s),
    k = Math.floor(pz + s);
  const t = (i + j + k) * G3;
  const x0 = px - (i - t),
    y0 = py - (j - t),
    z0 = pz - (k - t);
  // The simplex holding the point: the order of its coordinates within the skewed cube.
  let i1: number, j1: number, k1: number, i2: number, j2: number, k2: number;
  if (x0 >= y0) {
    if (y0 >= z0) [i1, j1, k1, i2, j2, k2] = [1, 0, 0, 1, 1, 0];
    else if (x0 >= z0) [i1, j1, k1, i2, j2, k2] = [1, 0, 0, 1, 0, 1];
    else [i1, j1, k1, i2, j2, k2] = [0, 0, 1, 1, 0, 1];
  } else if (y0 < z0) [i1, j1, k1, i2, j2, k2] = [0, 0, 1, 0, 1, 1];
  else if (x0 < z0) [i1, j1, k1, i2, j2, k2] = [0, 1, 0, 0, 1, 1];
  else [i1, j1, k1, i2, j2, k2] = [0, 1, 0, 1, 1, 0];
  const ix = (cx + i) >>> 0,
    iy = (cy + j) >>> 0,
    iz = (cz + k) >>> 0;
  const n =
    corner(x0, y0, z0, ix, iy, iz, seed) +
    corner(x0 - i1 + G3, y0 - j1 + G3, z0 - k1 + G3, (ix + i1) >>> 0, (iy + j1) >>> 0, (iz + k1) >>> 0, seed) +
    corner(x0 - i2 + 2 * G3, y0 - j2 + 2 * G3, z0 - k2 + 2 * G3, (ix + i2) >>> 0, (iy + j2) >>> 0, (iz + k2) >>> 0, seed) +
    corner(x0 - 1 + 3 * G3, y0 - 1 + 3 * G3, z0 - 1 + 3 * G3, (ix + 1) >>> 0, (iy + 1) >>> 0, (iz + 1) >>> 0, seed);
  const v = 0.5 + (SIMPLEX_GAIN / 2) * n;
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

/**
 * The lattice columns octave o of value noise touches, each once (`cellX`, u32): column i reads
 * slots a[i] and b[i] at fade sx[i].
 */
export function valueColumns(p: NoisePlan, o: number): { a: Int32Array; b: Int32Array; sx: Float64Array; cellX: number[] } {
  const { width: w, cols } = p;
  const colsF = new Float32Array(cols.buffer, cols.byteOffset, cols.length);
  const slotOf = new Map<number, number>();
  const cellX: number[] = [];
  const slot = (ix: number) => {
    let s = slotOf.get(ix);
    if (s === undefined) {
      s = cellX.length;
      slotOf.set(ix, s);
      cellX.push(ix);
    }
    return s;
  };
  const a = new Int32Array(w);
  const b = new Int32Array(w);
  const sx = new Float64Array(w);
  for (let i = 0; i < w; i++) {
    const k = (o * w + i) * ENTRY;
    a[i] = slot(cols[k]!);
    b[i] = slot(cols[k + 1]!);
    sx[i] = fade(colsF[k + 2]!);
  }
  return { a, b, sx, cellX };
}

/**
 * The sample coordinates of octave o (X, Z per column, Y per row, from the plan's tables) and the
 * lattice box [i0, i0 + nx) x [j0, j0 + ny) x [k0, k0 + nz) their simplex corners can reach.
 */
export function octaveLattice(p: NoisePlan, o: number) {
  const { width: w, height: h, cols, rows } = p;
  const colsF = new Float32Array(cols.buffer, cols.byteOffset, cols.length);
  const rowsF = new Float32Array(rows.buffer, rows.byteOffset, rows.length);
  const X = new Float64Array(w);
  const Z = new Float64Array(w);
  const Y = new Float64Array(h);
  let xMin = Infinity,
    xMax = -Infinity,
    zMin = Infinity,
    zMax = -Infinity,
    yMin = Infinity,
    yMax = -Infinity;
  for (let i = 0; i < w; i++) {
    const k = (o * w + i) * ENTRY;
    X[i] = colsF[k]!;
    Z[i] = colsF[k + 1]!;
    xMin = Math.min(xMin, X[i]!);
    xMax = Math.max(xMax, X[i]!);
    zMin = Math.min(zMin, Z[i]!);
    zMax = Math.max(zMax, Z[i]!);
  }
  for (let j = 0; j < h; j++) {
    Y[j] = rowsF[(o * h + j) * ENTRY]!;
    yMin = Math.min(yMin, Y[j]!);
    yMax = Math.max(yMax, Y[j]!);
  }
  // The lattice box the corners can reach: floor(coordinate + skew), the skew at most a third of
  // the coordinate sum, one more for the far corners and one either side for rounding.
  const sMin = (xMin + yMin + zMin) * F3;
  const sMax = (xMax + yMax + zMax) * F3;
  const i0 = Math.floor(xMin + sMin) - 1;
  const j0 = Math.floor(yMin + sMin) - 1;
  const k0 = Math.floor(zMin + sMin) - 1;
  const nx = Math.floor(xMax + sMax) + 3 - i0;
  const ny = Math.floor(yMax + sMax) + 3 - j0;
  const nz = Math.floor(zMax + sMax) + 3 - k0;
  return { X, Y, Z, i0, j0, k0, nx, ny, nz };
}

/** The node's sampling plan, seed and output (read once per render by either kernel). */
export function noiseInputs(ctx: OpContext): { plan: NoisePlan; seed: number; raster: boolean } {
  const kind: NoiseKind = ctx.node.kind === 'simplex' ? 'simplex' : 'value';
  const scale = ctx.num('scale-px');
  if (!(scale > 0)) throw new RenderError(`node '${ctx.id}' field 'scale-px' is ${scale}; it must be > 0`);
  const count = typeof ctx.node.octaves === 'number' ? ctx.node.octaves : 1;
  const seed = typeof ctx.node.seed === 'number' ? ctx.node.seed : 0;
  return { plan: planNoise(ctx.canvas, scale, count, kind, ctx.planCanvas), seed, raster: ctx.node.output === 'raster' };
}
