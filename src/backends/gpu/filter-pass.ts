// The GPU side of a one-input pass (a shader that includes filter-pass.wgsl): the op's `input`
// field at the canvas size in, one dispatch, a raster out. `values` are the shader's uniform fields
// beside `size` (the canvas) and `src` (the input's View).
import type { OpContext } from '../../ops/types.js';
import type { GpuEncoder } from './encoder.js';
import type { GpuImage } from './image.js';
import type { UniformValue } from './layout.js';

export function filterPass(g: GpuEncoder, ctx: OpContext, shader: string, values: Readonly<Record<string, UniformValue>>): GpuImage {
  const { width, height } = ctx.canvas;
  const src = g.input(ctx, 'input');
  const out = g.output('raster', width, height);
  const u = g.uniforms(shader, { size: [width, height], src, ...values });
  g.dispatch2d(shader, { u, src: g.view(src), dst: g.view(out) }, width, height);
  return out;
}
