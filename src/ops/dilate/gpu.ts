// dilate (and erode) on the GPU: one pass per axis, each a (2r + 1)-tap max (min) over a view
// cropped so that output pixel x reads source pixels x .. x + 2r (dilate.wgsl; erode.wgsl
// includes it). Exact on f16 values, so the passes equal the CPU's vHGW result.
import { MAX_RADIUS, radiusOf, type MorphMode } from './morph.js';
import type { GpuImage } from '../../backends/gpu/image.js';
import { Uniforms } from '../../backends/gpu/uniforms.js';
import type { GpuEncoder, GpuOp } from '../../backends/gpu/encoder.js';

export function morphGpu(shader: string, mode: MorphMode): GpuOp {
  return {
    encode(g, ctx) {
      const pad = Math.min(MAX_RADIUS, Math.round(ctx.bound('radius-px')));
      const r = radiusOf(ctx);
      const src = g.input(ctx, 'input');
      const { width: w, height: h } = ctx.canvas;
      if (r === 0) return src.crop(pad, pad, w, h);
      const rows = pass(g, shader, src.crop(pad - r, pad - r, w + 2 * r, h + 2 * r), 0, r, mode, w, h + 2 * r);
      return pass(g, shader, rows, 1, r, mode, w, h);
    },
  };
}

function pass(g: GpuEncoder, shader: string, src: GpuImage, axis: 0 | 1, r: number, mode: MorphMode, width: number, height: number): GpuImage {
  const out = g.output('raster', width, height);
  const u = new Uniforms().vec2u(width, height).u32s(axis, r, mode === 'max' ? 1 : 0).view(src);
  g.dispatch2d(shader, [g.uniform(u), g.view(src), g.view(out)], width, height);
  return out;
}

export const gpu = morphGpu('dilate', 'max');
