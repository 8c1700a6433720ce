// fill-solid (and stroke-solid): the composite pass after the coverage pass
// (src/backends/gpu/shaders/coverage.wgsl). Per pixel, the shapes of its 16 px bin in paint
// order: coverage min(1, |winding area|) (nonzero rule; any winding when antialias is off), and
// the shape's premultiplied colour composited source-over, in f32 as the CPU does. One
// invocation per 16 px row of a bin (the bin's shape list is read once). Shapes come in runs
// (area.ts) when their slots would not fit one buffer: then `col` carries the composite from one
// run to the next.
// flags: 1: antialias; 2: the first run (start from transparent); 4: the last run (write dst).
//!uniform size: vec2u, cols: u32, flags: u32

//!bind u: uniform, dst: rgba16float, colors: array<vec4f>, starts: array<u32>, items: array<u32>, cov: array<i32>, col: read_write array<vec4f>

//!include coverage-common

@compute @workgroup_size(4, 16)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let y = g.y;
  if (g.x >= u.cols || y >= u.size.y) {
    return;
  }
  let bin = (y / 16u) * u.cols + g.x;
  let k0 = starts[bin];
  let k1 = starts[bin + 1u];
  let x0 = g.x * 16u;
  let x1 = min(x0 + 16u, u.size.x);
  let row = (y % 16u) * 16u;
  let aa = (u.flags & 1u) != 0u;
  let floor_q = select(0, 2, aa);
  for (var x = x0; x < x1; x++) {
    let i = y * u.size.x + x;
    var c = vec4f(0.0);
    if ((u.flags & 2u) == 0u) {
      c = col[i];
    }
    let cell = row + x - x0;
    for (var k = k0; k < k1; k++) {
      let q = abs(cov[k * 256u + cell]);
      // Up to 2 units (2e-6) is rounding left by cancelled edges, not coverage.
      if (q <= floor_q) {
        continue;
      }
      let a = select(1.0, min(f32(q) / COVERAGE_SCALE, 1.0), aa);
      let p = colors[items[k]];
      c = p * a + c * (1.0 - p.a * a);
    }
    if ((u.flags & 4u) != 0u) {
      textureStore(dst, vec2u(x, y), c);
    } else {
      col[i] = c;
    }
  }
}
