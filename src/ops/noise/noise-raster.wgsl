// noise, raster output: the fBm of noise-lib.wgsl per channel (seeds of channels 0, 1, 2) into
// an opaque rgba16float raster.
//!include noise-lib

@group(0) @binding(5) var dst: texture_storage_2d<rgba16float, write>;

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  return vec4f(fbm(g.xy, 0u), fbm(g.xy, 1u), fbm(g.xy, 2u), 1.0);
}
