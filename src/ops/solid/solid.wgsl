// solid: every pixel of the canvas takes one premultiplied colour.
//!uniform size: vec2u, color: vec4f

//!bind u: uniform, dst: rgba16float

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  return u.color;
}
