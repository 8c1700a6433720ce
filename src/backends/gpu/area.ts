// Shared by fill-solid and stroke-solid: draws ShapeTriangles with exact-area coverage. Per run
// of shapes (one run unless their slots outgrow SLOT_BYTES): a render pass accumulates each
// (bin, shape) pair's coverage (shaders/coverage.wgsl), then a compute pass composites the
// shapes of every pixel's bin in paint order (src/ops/fill-solid/fill-solid.wgsl).
import type { GpuImage } from './image.js';
import type { ShapeTriangles } from './triangles.js';
import { TRI_FLOATS } from './triangles.js';
import type { GpuEncoder } from './encoder.js';

/** Bytes of one (bin, shape) slot: 16 x 16 i32 cells. */
const SLOT = 1024;
/** Slot buffer of one run (a shape alone may need more: up to 4 bytes per canvas pixel). */
const SLOT_BYTES = 64 << 20;
/** Vertices drawn per triangle: its grown hexagon as 4 triangles. */
const VERTICES = 12;

/** `slotBytes`: the slot buffer of one run (tests make it small to force several runs). */
export function drawShapes(g: GpuEncoder, shapes: ShapeTriangles, antialias: boolean, slotBytes = SLOT_BYTES): GpuImage {
  const { width: W, height: H, cols } = shapes;
  const out = g.output('raster', W, H);
  const maxBytes = Math.min(g.device.limits.maxStorageBufferBindingSize, Math.max(slotBytes, SLOT));
  const runs = shapes.chunks(Math.floor(maxBytes / SLOT));
  const tris = g.storage(shapes.tris.subarray(0, Math.max(TRI_FLOATS, shapes.count * TRI_FLOATS)));
  const colors = g.storage(shapes.colors.subarray(0, Math.max(4, shapes.shapes * 4)));
  const carry = g.scratch(runs.length > 1 ? W * H * 16 : 16);
  runs.forEach(([first, end], r) => {
    const { starts, items } = shapes.bins(first, end);
    const flags = (antialias ? 1 : 0) | (r === 0 ? 2 : 0) | (r === runs.length - 1 ? 4 : 0);
    // One uniform block serves both passes: coverage.wgsl and fill-solid.wgsl declare the same `//!uniform`.
    const u = g.uniforms('coverage', { size: [W, H], cols, flags });
    const bins = { starts: g.storage(starts), items: g.storage(items) };
    const slots = g.scratch(Math.max(4, items.length * SLOT));
    const t0 = shapes.shapeTri[first]!;
    const t1 = shapes.shapeTri[end]!;
    g.draw('coverage', { u, tris, ...bins, cov: slots }, out, (t1 - t0) * VERTICES, t0 * VERTICES);
    g.dispatch('fill-solid', { u, dst: g.view(out), colors, ...bins, cov: slots, col: carry }, [Math.ceil(cols / 4), Math.ceil(H / 16)]);
  });
  return out;
}
