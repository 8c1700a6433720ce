// brightness-contrast (cpu.ts): on straight sRGB, out = clamp((c - 0.5) * slope + add, 0, 1) with
// add = 0.5 + brightness; alpha unchanged, transparent pixels stay transparent.
struct U {
  size: vec2u,
  src: View,
  slope: f32,
  add: f32,
}

@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var src: texture_2d<f32>;
@group(0) @binding(2) var dst: texture_storage_2d<rgba16float, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g.xy >= u.size)) {
    return;
  }
  let c = loadRGBA(src, u.src, vec2i(g.xy));
  if (!(c.a > 0.0)) {
    textureStore(dst, g.xy, vec4f(0.0));
    return;
  }
  let v = clamp((c.rgb / c.a - 0.5) * u.slope + u.add, vec3f(0.0), vec3f(1.0));
  textureStore(dst, g.xy, vec4f(v * c.a, c.a));
}
