// noise, field output: the fBm of noise-lib.wgsl (src/ops/noise/plan.ts) into an r32float field.
//!include noise-lib

//!bind dst: r32float

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  return vec4f(fbm(g.xy, 0u), 0.0, 0.0, 0.0);
}
