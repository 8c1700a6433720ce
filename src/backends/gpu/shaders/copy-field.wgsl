// A scalar-field view materialised into a texture of its own size (zeros outside its valid rect).
struct U {
  size: vec2u,
  src: View,
}

@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var src: texture_2d<f32>;
@group(0) @binding(2) var dst: texture_storage_2d<r32float, write>;

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  return vec4f(loadR(src, u.src, vec2i(g.xy)), 0.0, 0.0, 0.0);
}
