// dilate (and erode) on the GPU: separable, one axis after the other, on a view cropped so that
// output pixel x reads source pixels x .. x + 2r (dilate.wgsl; erode.wgsl includes it). A short
// window (2r + 1 <= 16) is one pass of 2r + 1 taps; a longer one is van Herk's doubling, two taps
// a pass: M_2k[x] = op(M_k[x], M_k[x + k]), then M_L[x] = op(M_k[x], M_k[x + L - k]) with k the
// largest power of two <= L, so r = 256 costs 10 passes of 2 taps instead of one of 513. Max and
// min are exact on f16 values, so every variant equals the CPU's vHGW result.
import { MAX_RADIUS, radiusOf, type MorphMode } from './morph.js';
import type { GpuImage } from '../../backends/gpu/image.js';
import type { GpuEncoder, GpuOp } from '../../backends/gpu/encoder.js';

/** Longest window done as one pass of taps. */
const MAX_DIRECT_TAPS = 16;

export function morphGpu(shader: string, mode: MorphMode): GpuOp {
  return {
    encode(g, ctx) {
      const pad = Math.min(MAX_RADIUS, Math.round(ctx.bound('radius-px')));
      const r = radiusOf(ctx);
      const src = g.input(ctx, 'input');
      const { width: w, height: h } = ctx.canvas;
      if (r === 0) return src.crop(pad, pad, w, h);
      const rows = axis(g, shader, src.crop(pad - r, pad - r, w + 2 * r, h + 2 * r), 0, 2 * r + 1, w, h + 2 * r, mode);
      return axis(g, shader, rows, 1, 2 * r + 1, h, w, mode);
    },
  };
}

/** Op over windows of `len` samples along `dir`: `out` outputs along it, `across` pixels across. */
function axis(g: GpuEncoder, shader: string, src: GpuImage, dir: 0 | 1, len: number, out: number, across: number, mode: MorphMode): GpuImage {
  const run = (view: GpuImage, taps: number, stride: number, n: number) =>
    pass(g, shader, view, dir, taps, stride, mode, dir === 0 ? n : across, dir === 0 ? across : n);
  if (len <= MAX_DIRECT_TAPS) return run(src, len, 1, out);
  let cur = src;
  let k = 1;
  // M_k is needed at out + len - k positions (the later stages read up to len - k further).
  for (; 2 * k <= len; k *= 2) cur = run(cur, 2, k, out + len - 2 * k);
  return k < len ? run(cur, 2, len - k, out) : cur;
}

function pass(
  g: GpuEncoder,
  shader: string,
  src: GpuImage,
  dir: 0 | 1,
  taps: number,
  stride: number,
  mode: MorphMode,
  width: number,
  height: number,
): GpuImage {
  const out = g.output('raster', width, height);
  const u = g.uniforms(shader, { size: [width, height], axis: dir, taps, stride, is_max: mode === 'max' ? 1 : 0, src });
  g.dispatch2d(shader, { u, src: g.view(src), dst: g.view(out) }, width, height);
  return out;
}

export const gpu = morphGpu('dilate', 'max');
