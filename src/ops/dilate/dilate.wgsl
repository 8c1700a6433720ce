// dilate / erode: one axis of the separable square max (min), as src/ops/dilate/morph.ts.
// Output pixel p reads source pixels p + i * axis_step for i in 0 .. 2r (the CPU's vHGW pass
// computes the same max exactly; here a plain loop: a GPU thread per pixel, r <= 256).
struct U {
  size: vec2u,
  axis: u32,
  r: u32,
  is_max: u32,
  src: View,
}

@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var src: texture_2d<f32>;
@group(0) @binding(2) var dst: texture_storage_2d<rgba16float, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g.xy >= u.size)) {
    return;
  }
  let p = vec2i(g.xy);
  let step = select(vec2i(0, 1), vec2i(1, 0), u.axis == 0u);
  var acc = loadRGBA(src, u.src, p);
  let n = 2u * u.r;
  for (var i = 1u; i <= n; i++) {
    let v = loadRGBA(src, u.src, p + i32(i) * step);
    acc = select(min(acc, v), max(acc, v), u.is_max != 0u);
  }
  textureStore(dst, g.xy, acc);
}
