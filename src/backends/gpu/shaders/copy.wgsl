// A raster view materialised into a texture of its own size (zeros outside its valid rect).
struct U {
  size: vec2u,
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
  textureStore(dst, g.xy, loadRGBA(src, u.src, vec2i(g.xy)));
}
