import { luminance, type ColorSpace } from '../../backends/cpu/color.js';
import { newRaster } from '../../backends/cpu/raster.js';
import type { Raster, ScalarField } from '../../types.js';
import type { OpContext } from '../types.js';
import { resolveStops, stopTables, exprTable, makeSampler } from './plan.js';

/** The color-ramp op's CPU kernel. */
export function colorRampCpu(ctx: OpContext): Raster {
  const input = ctx.input<'scalar-field' | 'raster'>('field') as ScalarField | Raster;
  const opacity = Math.min(1, Math.max(0, ctx.num('opacity')));
  const ramp = ctx.expr('ramp-expr');
  const lut = ramp ? exprTable(ramp, ctx.zoom) : stopTables(resolveStops(ctx), (ctx.node.space as ColorSpace | undefined) ?? 'rgb');
  const out = newRaster(input.width, input.height);
  const o = out.data;
  const n = input.width * input.height;
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
