// circle, kind raster (cpu.ts): pixel colour = color x clamp((radius - d) * inv_soft, 0, 1), d the
// distance of the pixel's centre from `centre` (canvas pixels).
//!uniform size: vec2u, centre: vec2f, color: vec4f, radius: f32, inv_soft: f32

//!bind u: uniform, dst: rgba16float

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  let d = length(vec2f(g.xy) + 0.5 - u.centre);
  return u.color * clamp((u.radius - d) * u.inv_soft, 0.0, 1.0);
}
