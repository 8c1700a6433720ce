// solid: every pixel of the canvas takes one premultiplied colour.
struct U {
  size: vec2u,
  color: vec4f,
}

@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var dst: texture_storage_2d<rgba16float, write>;

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  return u.color;
}
