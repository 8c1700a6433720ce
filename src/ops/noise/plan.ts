// What both noise kernels share. Noise is anchored to world pixels at the tile zoom: lattice
// coordinate u = (world pixel + 0.5) * 2^octave / scale-px. Each octave splits the canvas origin
// (in f64, here) into an integer lattice cell and a small local offset, so a kernel only ever does
// f32-sized arithmetic (local offset + pixel * step) and integer hashing of u32 cell indices (which
// wrap identically on both backends). Neighbouring tiles therefore continue each other.
import type { Canvas } from '../../types.js';
import type { OpContext } from '../types.js';
import { RenderError } from '../../errors.js';

export const MAX_OCTAVES = 12;
/** Output channels of a raster noise (R, G, B, each its own seed); a field uses channel 0. */
export const CHANNELS = 3;

export type NoiseKind = 'value' | 'simplex';

/** Chris Wellons' lowbias32 integer hash (u32 in, u32 out); the WGSL twin is in noise.wgsl. */
export function hash32(v: number): number {
  let x = v >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Hash of lattice point (ix, iy) (u32s) under a per-octave seed. */
function latticeHash(ix: number, iy: number, seed: number): number {
  return hash32((ix ^ hash32((iy ^ seed) >>> 0)) >>> 0);
}

/** The seed of one channel's octave: decorrelated from every other channel and octave. */
export function octaveSeed(seed: number, channel: number, octave: number): number {
  return hash32((seed >>> 0) ^ Math.imul(channel * 16 + octave + 1, 0x9e3779b9));
}

export const F2 = 0.5 * (Math.sqrt(3) - 1);
export const G2 = (3 - Math.sqrt(3)) / 6;

/** One octave over a canvas: lattice units per pixel, weight, and the origin split into cell + offset. */
export interface Octave {
  /** Lattice units per pixel: 2^octave / scale-px. */
  step: number;
  /** Weight 0.5^octave / sum of weights. */
  weight: number;
  /** Integer lattice cell of the origin as u32 (value: floor(u); simplex: skewed floor). */
  cx: number;
  cy: number;
  /** Position of pixel (0, 0)'s centre relative to that cell's lattice point (unskewed), small. */
  rx: number;
  ry: number;
}

export function octaves(canvas: Canvas, scalePx: number, count: number, kind: NoiseKind): Octave[] {
  const n = Math.max(1, Math.min(MAX_OCTAVES, Math.round(count)));
  let total = 0;
  for (let o = 0; o < n; o++) total += 0.5 ** o;
  const out: Octave[] = [];
  for (let o = 0; o < n; o++) {
    const step = 2 ** o / scalePx;
    const ox = (canvas.x0 + 0.5) * step;
    const oy = (canvas.y0 + 0.5) * step;
    let cx: number, cy: number, lx: number, ly: number;
    if (kind === 'value') {
      cx = Math.floor(ox);
      cy = Math.floor(oy);
      lx = cx;
      ly = cy;
    } else {
      const s = (ox + oy) * F2;
      cx = Math.floor(ox + s);
      cy = Math.floor(oy + s);
      const t = (cx + cy) * G2;
      lx = cx - t;
      ly = cy - t;
    }
    out.push({ step, weight: 0.5 ** o / total, cx: cx >>> 0, cy: cy >>> 0, rx: ox - lx, ry: oy - ly });
  }
  return out;
}

const fade = (t: number) => t * t * t * (t * (t * 6 - 15) + 10);
const unit = (h: number) => (h >>> 8) / 16777216;

/** Value noise in [0, 1) at local position (px, py) of an octave whose origin cell is (cx, cy). */
export function valueNoise(px: number, py: number, cx: number, cy: number, seed: number): number {
  const fx = Math.floor(px),
    fy = Math.floor(py);
  const ix = (cx + fx) >>> 0,
    iy = (cy + fy) >>> 0;
  const ix1 = (ix + 1) >>> 0,
    iy1 = (iy + 1) >>> 0;
  const sx = fade(px - fx),
    sy = fade(py - fy);
  const v00 = unit(latticeHash(ix, iy, seed)),
    v10 = unit(latticeHash(ix1, iy, seed));
  const v01 = unit(latticeHash(ix, iy1, seed)),
    v11 = unit(latticeHash(ix1, iy1, seed));
  const a = v00 + (v10 - v00) * sx;
  const b = v01 + (v11 - v01) * sx;
  return a + (b - a) * sy;
}

const GX = [1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0];
const GY = [1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1];

function corner(x: number, y: number, ix: number, iy: number, seed: number): number {
  const t = 0.5 - x * x - y * y;
  if (t < 0) return 0;
  const g = latticeHash(ix, iy, seed) % 12;
  const t2 = t * t;
  return t2 * t2 * (GX[g]! * x + GY[g]! * y);
}

/**
 * 2-D simplex noise (Gustavson's formulation) mapped to [0, 1]: local position (px, py) relative
 * to the lattice point of skewed cell (cx, cy).
 */
export function simplexNoise(px: number, py: number, cx: number, cy: number, seed: number): number {
  const s = (px + py) * F2;
  const i = Math.floor(px + s),
    j = Math.floor(py + s);
  const t = (i + j) * G2;
  const x0 = px - (i - t),
    y0 = py - (j - t);
  const upper = x0 > y0;
  const i1 = upper ? 1 : 0,
    j1 = upper ? 0 : 1;
  const x1 = x0 - i1 + G2,
    y1 = y0 - j1 + G2;
  const x2 = x0 - 1 + 2 * G2,
    y2 = y0 - 1 + 2 * G2;
  const ix = (cx + i) >>> 0,
    iy = (cy + j) >>> 0;
  const n = corner(x0, y0, ix, iy, seed) + corner(x1, y1, (ix + i1) >>> 0, (iy + j1) >>> 0, seed) + corner(x2, y2, (ix + 1) >>> 0, (iy + 1) >>> 0, seed);
  const v = 0.5 + 35 * n;
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

/** The node's octave plan, kind, seed and output (read once per render by either kernel). */
export function noiseInputs(ctx: OpContext): { octs: Octave[]; kind: NoiseKind; seed: number; raster: boolean } {
  const kind: NoiseKind = ctx.node.kind === 'simplex' ? 'simplex' : 'value';
  const scale = ctx.num('scale-px');
  if (!(scale > 0)) throw new RenderError(`node '${ctx.id}' field 'scale-px' is ${scale}; it must be > 0`);
  const count = typeof ctx.node.octaves === 'number' ? ctx.node.octaves : 1;
  const seed = typeof ctx.node.seed === 'number' ? ctx.node.seed : 0;
  return { octs: octaves(ctx.canvas, scale, count, kind), kind, seed, raster: ctx.node.output === 'raster' };
}
