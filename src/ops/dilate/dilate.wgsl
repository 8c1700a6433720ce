// dilate / erode: one pass of the separable square max (min), as src/ops/dilate/morph.ts computes
// it: output pixel p takes the op of source pixels p + i * stride along the axis, i in 0 .. taps - 1
// (one pass of 2r + 1 taps, or a doubling step of 2 taps: src/ops/dilate/gpu.ts).
//!uniform size: vec2u, axis: u32, taps: u32, stride: u32, is_max: u32, src: View

//!include filter-pass

fn pixel(g: vec3u) -> vec4f {
  let p = vec2i(g.xy);
  let step = select(vec2i(0, 1), vec2i(1, 0), u.axis == 0u) * i32(u.stride);
  var acc = loadRGBA(src, u.src, p);
  for (var i = 1u; i < u.taps; i++) {
    let v = loadRGBA(src, u.src, p + i32(i) * step);
    acc = select(min(acc, v), max(acc, v), u.is_max != 0u);
  }
  return acc;
}
