// A scalar-field view materialised into a texture of its own size (zeros outside its valid rect).
//!uniform size: vec2u, src: View

//!bind u: uniform, src: texture, dst: r32float

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  return vec4f(loadR(src, u.src, vec2i(g.xy)), 0.0, 0.0, 0.0);
}
