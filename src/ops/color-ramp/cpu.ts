import { luminance, type ColorSpace } from '../../backends/cpu/color.js';
import { newRaster, newRasterUninit } from '../../backends/cpu/raster.js';
import type { Raster, ScalarField } from '../../types.js';
import type { OpContext } from '../types.js';
import { resolveStops, stopTables, exprTable, makeSampler, isOpaque, type RampTable, type Stop } from './plan.js';
import { rampFieldSimd } from './simd.js';

/** The color-ramp op's CPU kernel. */
export function colorRampCpu(ctx: OpContext): Raster {
  const input = ctx.input<'scalar-field' | 'raster'>('field') as ScalarField | Raster;
  const opacity = Math.min(1, Math.max(0, ctx.num('opacity')));
  const ramp = ctx.expr('ramp-expr');
  const lut = ramp
    ? exprTable(ramp, ctx.zoom, ctx.node['ramp-sampling'] === 'texture')
    : cachedStopTables(resolveStops(ctx), (ctx.node.space as ColorSpace | undefined) ?? 'rgb');
  const n = input.width * input.height;
  if (input.kind === 'scalar-field' && !lut.premultiplied) {
    const out = newRasterUninit(input.width, input.height); // rampField writes every pixel
    // The WebAssembly SIMD kernel (simd.ts: rampField's arithmetic, the same bits), else TypeScript.
    if (rampFieldSimd(input.data, n, lut, opacity, out.data)) return out;
    if (opacity === 1 && isOpaque(lut)) rampFieldOpaque(input.data, n, lut, out.data);
    else rampField(input.data, n, lut, opacity, out.data);
    return out;
  }
  const out = newRaster(input.width, input.height);
  const o = out.data;
  const sample = makeSampler(lut);
  const rgba = new Float64Array(4);
  const src = input.data;
  const isRaster = input.kind === 'raster';
  for (let i = 0; i < n; i++) {
    let t: number;
    let cover = opacity;
    if (isRaster) {
      // A raster maps by the luminance of its straight colour; its alpha stays the coverage.
      const a = src[i * 4 + 3]!;
      if (!(a > 0)) continue;
      t = luminance(src[i * 4]!, src[i * 4 + 1]!, src[i * 4 + 2]!) / a;
      cover *= Math.min(a, 1);
    } else {
      t = src[i]!;
    }
    if (Number.isNaN(t)) continue;
    sample(t, rgba);
    const a = rgba[3]! * cover;
    o[i * 4] = rgba[0]! * a;
    o[i * 4 + 1] = rgba[1]! * a;
    o[i * 4 + 2] = rgba[2]! * a;
    o[i * 4 + 3] = a;
  }
  return out;
}

/** Baked stop tables of recent ramps (a table is read-only once built): a render re-bakes none. */
const TABLES = new Map<string, RampTable>();
const MAX_TABLES = 32;

function cachedStopTables(stops: Stop[], space: ColorSpace): RampTable {
  let key = space;
  for (const s of stops) key += `|${s.value},${s.color.join(',')}`;
  let t = TABLES.get(key);
  if (!t) {
    t = stopTables(stops, space);
    if (TABLES.size >= MAX_TABLES) TABLES.delete(TABLES.keys().next().value!);
    TABLES.set(key, t);
  }
  return t;
}

/**
 * rampField for opaque stops at opacity 1: alpha is exactly 1 (1 + f (1 - 1)) and premultiplying
 * by it changes nothing, so the colour is written as interpolated: the same pixels, bit for bit.
 */
export function rampFieldOpaque(src: Float32Array, n: number, lut: RampTable, o: Float32Array): void {
  const { size, values, table, ends } = lut;
  const last = values.length - 1;
  const lo = values[0]!;
  const hi = values[last]!;
  const scale = new Float64Array(last);
  for (let s = 0; s < last; s++) scale[s] = (size - 1) / (values[s + 1]! - values[s]!);
  const top = size - 2;
  let s = last - 1;
  let vs = values[s]!,
    ve = values[s + 1]!,
    sc = scale[s]!,
    base = s * size;
  for (let i = 0, q = 0; i < n; i++, q += 4) {
    const t = src[i]!;
    if (!(t >= vs && t < ve)) {
      if (t !== t) {
        o[q] = o[q + 1] = o[q + 2] = o[q + 3] = 0; // NaN: no data
        continue;
      }
      if (t < lo || t >= hi) {
        const e = t < lo ? 0 : 4;
        o[q] = ends[e]!;
        o[q + 1] = ends[e + 1]!;
        o[q + 2] = ends[e + 2]!;
        o[q + 3] = 1;
        continue;
      }
      s = last - 1;
      while (values[s]! > t) s--;
      vs = values[s]!;
      ve = values[s + 1]!;
      sc = scale[s]!;
      base = s * size;
    }
    const p = (t - vs) * sc; // >= 0 and <= size - 1 (+ rounding): p | 0 is floor(p)
    let j = p | 0;
    if (j > top) j = top;
    const f = p - j;
    const e = (base + j) << 2;
    const t0 = table[e]!,
      t1 = table[e + 1]!,
      t2 = table[e + 2]!;
    o[q] = t0 + f * (table[e + 4]! - t0);
    o[q + 1] = t1 + f * (table[e + 5]! - t1);
    o[q + 2] = t2 + f * (table[e + 6]! - t2);
    o[q + 3] = 1;
  }
}

/**
 * The common case (a scalar field through stops) as one loop: makeSampler's lookup written out
 * inline (the same segment and table entries; the division by the segment's width is a product
 * with its precomputed reciprocal times size - 1), without a call and a scratch array per pixel;
 * a pixel whose field value has the bits of the one before copies its colour.
 * The segment of the previous pixel is tried first: neighbours mostly share one. Its own
 * function: V8 optimises a small loop function as a unit.
 */
export function rampField(src: Float32Array, n: number, lut: RampTable, opacity: number, o: Float32Array): void {
  const { size, values, table, ends } = lut;
  const last = values.length - 1;
  const lo = values[0]!;
  const hi = values[last]!;
  const scale = new Float64Array(last);
  for (let s = 0; s < last; s++) scale[s] = (size - 1) / (values[s + 1]! - values[s]!);
  const top = size - 2;
  let s = last - 1;
  let vs = values[s]!,
    ve = values[s + 1]!,
    sc = scale[s]!,
    base = s * size;
  // A run of pixels with the same bits (a heat field's zeros: a third of a heatmap tile) copies
  // the pixel before: the same t gives the same colour.
  const bits = new Int32Array(src.buffer, src.byteOffset, n);
  let prev = 0;
  for (let i = 0, q = 0; i < n; i++, q += 4) {
    const t = src[i]!;
    if (i > 0 && bits[i] === prev) {
      o[q] = o[q - 4]!;
      o[q + 1] = o[q - 3]!;
      o[q + 2] = o[q - 2]!;
      o[q + 3] = o[q - 1]!;
      continue;
    }
    prev = bits[i]!;
    if (!(t >= vs && t < ve)) {
      if (t !== t) {
        o[q] = o[q + 1] = o[q + 2] = o[q + 3] = 0; // NaN: no data
        continue;
      }
      if (t < lo || t >= hi) {
        const e = t < lo ? 0 : 4;
        const a = ends[e + 3]! * opacity;
        o[q] = ends[e]! * a;
        o[q + 1] = ends[e + 1]! * a;
        o[q + 2] = ends[e + 2]! * a;
        o[q + 3] = a;
        continue;
      }
      // The highest s with values[s] <= t (makeSampler's search).
      s = last - 1;
      while (values[s]! > t) s--;
      vs = values[s]!;
      ve = values[s + 1]!;
      sc = scale[s]!;
      base = s * size;
    }
    const p = (t - vs) * sc;
    let j = Math.floor(p);
    if (j > top) j = top;
    const f = p - j;
    const e = (base + j) * 4;
    const t0 = table[e]!,
      t1 = table[e + 1]!,
      t2 = table[e + 2]!,
      t3 = table[e + 3]!;
    const r = t0 + f * (table[e + 4]! - t0);
    const g = t1 + f * (table[e + 5]! - t1);
    const b = t2 + f * (table[e + 6]! - t2);
    const a = (t3 + f * (table[e + 7]! - t3)) * opacity;
    o[q] = r * a;
    o[q + 1] = g * a;
    o[q + 2] = b * a;
    o[q + 3] = a;
  }
}

/** rampField without the runs: the plain loop, the tests' reference for rampField (bit for bit). */
export function rampFieldReference(src: Float32Array, n: number, lut: RampTable, opacity: number, o: Float32Array): void {
  const { size, values, table, ends } = lut;
  const last = values.length - 1;
  const lo = values[0]!;
  const hi = values[last]!;
  const scale = new Float64Array(last);
  for (let s = 0; s < last; s++) scale[s] = (size - 1) / (values[s + 1]! - values[s]!);
  const top = size - 2;
  let s = last - 1;
  let vs = values[s]!,
    ve = values[s + 1]!,
    sc = scale[s]!,
    base = s * size;
  for (let i = 0, q = 0; i < n; i++, q += 4) {
    const t = src[i]!;
    if (!(t >= vs && t < ve)) {
      if (t !== t) {
        o[q] = o[q + 1] = o[q + 2] = o[q + 3] = 0; // NaN: no data
        continue;
      }
      if (t < lo || t >= hi) {
        const e = t < lo ? 0 : 4;
        const a = ends[e + 3]! * opacity;
        o[q] = ends[e]! * a;
        o[q + 1] = ends[e + 1]! * a;
        o[q + 2] = ends[e + 2]! * a;
        o[q + 3] = a;
        continue;
      }
      // The highest s with values[s] <= t (makeSampler's search).
      s = last - 1;
      while (values[s]! > t) s--;
      vs = values[s]!;
      ve = values[s + 1]!;
      sc = scale[s]!;
      base = s * size;
    }
    const p = (t - vs) * sc;
    let j = Math.floor(p);
    if (j > top) j = top;
    const f = p - j;
    const e = (base + j) * 4;
    const t0 = table[e]!,
      t1 = table[e + 1]!,
      t2 = table[e + 2]!,
      t3 = table[e + 3]!;
    const r = t0 + f * (table[e + 4]! - t0);
    const g = t1 + f * (table[e + 5]! - t1);
    const b = t2 + f * (table[e + 6]! - t2);
    const a = (t3 + f * (table[e + 7]! - t3)) * opacity;
    o[q] = r * a;
    o[q + 1] = g * a;
    o[q + 2] = b * a;
    o[q + 3] = a;
  }
}
