// posterize (plan.ts, cpu.ts): each straight channel c becomes floor(c steps + 0.5) / steps (not
// round(): WGSL rounds a half to even), alpha kept, transparent pixels stay transparent.
struct U {
  size: vec2u,
  src: View,
  steps: f32,
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
  let v = floor(min(c.rgb * (u.steps / c.a), vec3f(u.steps)) + 0.5) / u.steps;
  textureStore(dst, g.xy, vec4f(v * c.a, c.a));
}
