// The GPU side of a pass over screen-binned items (a shader that includes bins.wgsl: circles,
// density, stamp, stroke): the items binned by their pixel boxes (shapes.ts binBoxes), the bin
// columns in the uniforms, `starts` and `items` bound beside the op's own buffers, one dispatch
// writing `out`.
import type { GpuEncoder } from './encoder.js';
import type { GpuImage } from './image.js';
import type { Bindings, UniformValue } from './layout.js';
import { binBoxes } from './shapes.js';

export function binnedPass(
  g: GpuEncoder,
  shader: string,
  out: GpuImage,
  items: { boxes: Float64Array | Float32Array; count: number },
  uniforms: Readonly<Record<string, UniformValue>>,
  buffers: Bindings,
): GpuImage {
  const { width: W, height: H } = out;
  const bins = binBoxes(W, H, items.boxes, items.count);
  const u = g.uniforms(shader, { size: [W, H], bins: bins.cols, ...uniforms });
  g.dispatch2d(shader, { u, dst: g.view(out), ...buffers, starts: g.storage(bins.starts), items: g.storage(bins.items) }, W, H);
  return out;
}
