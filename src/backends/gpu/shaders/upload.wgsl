// A CPU raster (f32 RGBA rows) into an rgba16float texture.
//!uniform size: vec2u

//!bind u: uniform, src: array<vec4f>, dst: rgba16float

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  return src[g.y * u.size.x + g.x];
}
