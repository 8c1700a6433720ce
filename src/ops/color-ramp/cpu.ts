import { luminance, type ColorSpace } from '../../backends/cpu/color.js';
import { newRaster, newRasterUninit } from '../../backends/cpu/raster.js';
import type { Raster, ScalarField } from '../../types.js';
import type { OpContext } from '../types.js';
import { resolveStops, stopTables, exprTable, makeSampler, type RampTable } from './plan.js';

/** The color-ramp op's CPU kernel. */
export function colorRampCpu(ctx: OpContext): Raster {
  const input = ctx.input<'scalar-field' | 'raster'>('field') as ScalarField | Raster;
  const opacity = Math.min(1, Math.max(0, ctx.num('opacity')));
  const ramp = ctx.expr('ramp-expr');
  const lut = ramp ? exprTable(ramp, ctx.zoom) : stopTables(resolveStops(ctx), (ctx.node.space as ColorSpace | undefined) ?? 'rgb');
  const n = input.width * input.height;
  if (input.kind === 'scalar-field' && !lut.premultiplied) {
    const out = newRasterUninit(input.width, input.height); // rampField writes every pixel
    rampField(input.data, n, lut, opacity, out.data);
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

/**
 * The common case (a scalar field through stops) as one loop: makeSampler's lookup written out
 * inline, the same arithmetic in the same order (so the same pixels), without a call and a
 * scratch array per pixel. Its own function: V8 optimises a small loop function as a unit.
 */
function rampField(src: Float32Array, n: number, lut: RampTable, opacity: number, o: Float32Array): void {
  const { size, values, table, ends } = lut;
  const last = values.length - 1;
  const lo = values[0]!;
  const hi = values[last]!;
  let s = last - 1; // the segment of the previous pixel: neighbours mostly share one
  for (let i = 0, q = 0; i < n; i++, q += 4) {
    const t = src[i]!;
    if (t !== t) {
      o[q] = o[q + 1] = o[q + 2] = o[q + 3] = 0; // NaN: no data
      continue;
    }
    let r: number, g: number, b: number, a: number;
    if (t < lo || t >= hi) {
      const e = t < lo ? 0 : 4;
      r = ends[e]!;
      g = ends[e + 1]!;
      b = ends[e + 2]!;
      a = ends[e + 3]!;
    } else {
      // The highest s with values[s] <= t (makeSampler's search), unless the previous one holds t.
      if (!(values[s]! <= t && t < values[s + 1]!)) {
        s = last - 1;
        while (values[s]! > t) s--;
      }
      const p = ((t - values[s]!) / (values[s + 1]! - values[s]!)) * (size - 1);
      const j = Math.min(Math.floor(p), size - 2);
      const f = p - j;
      const e = (s * size + j) * 4;
      r = table[e]! + f * (table[e + 4]! - table[e]!);
      g = table[e + 1]! + f * (table[e + 5]! - table[e + 1]!);
      b = table[e + 2]! + f * (table[e + 6]! - table[e + 2]!);
      a = table[e + 3]! + f * (table[e + 7]! - table[e + 3]!);
    }
    a *= opacity;
    o[q] = r * a;
    o[q + 1] = g * a;
    o[q + 2] = b * a;
    o[q + 3] = a;
  }
}
