// A CPU raster (f32 RGBA rows) into an rgba16float texture.
struct U {
  size: vec2u,
}

@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> src: array<vec4f>;
@group(0) @binding(2) var dst: texture_storage_2d<rgba16float, write>;

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  return src[g.y * u.size.x + g.x];
}
