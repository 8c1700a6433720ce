// noise, raster output: the fBm of noise-lib.wgsl per channel (seeds of channels 0, 1, 2) into
// an opaque rgba16float raster.
//!include noise-lib

@group(0) @binding(5) var dst: texture_storage_2d<rgba16float, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g.xy >= u.size)) {
    return;
  }
  textureStore(dst, g.xy, vec4f(fbm(g.xy, 0u), fbm(g.xy, 1u), fbm(g.xy, 2u), 1.0));
}
