// blur: every stage of src/ops/blur/cpu.ts (the exact separable Gaussian, and the fast path's tent
// decimation, block-grid Gaussian and quadratic B-spline upsampling) is a 1-D weighted sum
// along one axis. The CPU builds each stage's taps (source index and weight per output index,
// zero-outside taps dropped, clamped taps repeated) and this pass applies them in the same order.
struct U {
  size: vec2u,
  axis: u32,
  src: View,
}

@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var src: texture_2d<f32>;
@group(0) @binding(2) var dst: texture_storage_2d<rgba16float, write>;
// Per output index along the axis: first tap, tap count.
@group(0) @binding(3) var<storage, read> spans: array<vec2u>;
@group(0) @binding(4) var<storage, read> index: array<u32>;
@group(0) @binding(5) var<storage, read> weight: array<f32>;

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
