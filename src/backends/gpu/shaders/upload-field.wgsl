// A CPU scalar field (f32 rows) into an r32float texture.
struct U {
  size: vec2u,
}

@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> src: array<f32>;
@group(0) @binding(2) var dst: texture_storage_2d<r32float, write>;

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  return vec4f(src[g.y * u.size.x + g.x], 0.0, 0.0, 0.0);
}
