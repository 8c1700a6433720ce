// A CPU scalar field (f32 rows) into an r32float texture.
//!uniform size: vec2u

//!bind u: uniform, src: array<f32>, dst: r32float

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  return vec4f(src[g.y * u.size.x + g.x], 0.0, 0.0, 0.0);
}
