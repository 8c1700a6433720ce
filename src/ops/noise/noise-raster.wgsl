// noise, raster output: the fBm of noise-lib.wgsl per channel (seeds of channels 0, 1, 2) into
// an opaque rgba16float raster.
//!include noise-lib

//!bind dst: rgba16float

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  return vec4f(fbm(g.xy, 0u), fbm(g.xy, 1u), fbm(g.xy, 2u), 1.0);
}
