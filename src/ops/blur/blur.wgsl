// blur: every stage of src/ops/blur/cpu.ts (the exact separable Gaussian, and the fast path's tent
// decimation, block-grid Gaussian and quadratic B-spline upsampling) is a 1-D weighted sum
// along one axis. The CPU builds each stage's taps (source index and weight per output index,
// zero-outside taps dropped, clamped taps repeated) and this pass applies them in the same order.
//!uniform size: vec2u, axis: u32, src: View

// spans: per output index along the axis, first tap and tap count.
//!bind u: uniform, src: texture, dst: rgba16float, spans: array<vec2u>, index: array<u32>, weight: array<f32>

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  let horizontal = u.axis == 0u;
  let span = spans[select(g.y, g.x, horizontal)];
  var acc = vec4f(0.0);
  for (var t = span.x; t < span.x + span.y; t++) {
    let i = i32(index[t]);
    let q = select(vec2i(i32(g.x), i), vec2i(i, i32(g.y)), horizontal);
    acc += weight[t] * loadRGBA(src, u.src, q);
  }
  return acc;
}
