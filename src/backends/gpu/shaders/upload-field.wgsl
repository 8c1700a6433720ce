// A CPU scalar field (f32 rows) into an r32float texture.
struct U {
  size: vec2u,
}

@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> src: array<f32>;
@group(0) @binding(2) var dst: texture_storage_2d<r32float, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g.xy >= u.size)) {
    return;
  }
  textureStore(dst, g.xy, vec4f(src[g.y * u.size.x + g.x], 0.0, 0.0, 0.0));
}
