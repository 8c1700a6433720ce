// solid: every pixel of the canvas takes one premultiplied colour.
struct U {
  size: vec2u,
  color: vec4f,
}

@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var dst: texture_storage_2d<rgba16float, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g.xy >= u.size)) {
    return;
  }
  textureStore(dst, g.xy, u.color);
}
