// Shared by fill-solid and stroke-solid: draws a ShapeList with the scanline kernel
// (src/shaders/fill-solid.wgsl), one invocation per canvas row.
import type { GpuImage } from './image.js';
import type { ShapeList } from './shapes.js';
import { Uniforms } from './uniforms.js';
import type { GpuEncoder } from './encoder.js';

export function drawShapes(g: GpuEncoder, shapes: ShapeList, width: number, height: number, antialias: boolean, shader = 'fill-solid'): GpuImage {
  const out = g.output('raster', width, height);
  const { rowStart, rowEdges } = shapes.rowIndex();
  const u = new Uniforms().vec2u(width, height).u32s(antialias ? 1 : 0);
  g.dispatch(shader, [
    g.uniform(u),
    g.view(out),
    g.storage(shapes.edges.subarray(0, Math.max(4, shapes.edgeCount * 4))),
    g.storage(shapes.colors.subarray(0, Math.max(4, shapes.count * 4))),
    g.storage(shapes.edgeShape.subarray(0, Math.max(1, shapes.edgeCount))),
    g.storage(rowStart),
    g.storage(rowEdges),
    g.scratch(height * (width + 2) * 4),
    g.scratch(width * height * 16),
  ], [Math.ceil(height / 64)]);
  return out;
}
