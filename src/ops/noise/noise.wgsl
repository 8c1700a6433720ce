// noise, field output: the fBm of noise-lib.wgsl (src/ops/noise/plan.ts) into an r32float field.
//!include noise-lib

@group(0) @binding(5) var dst: texture_storage_2d<r32float, write>;

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  return vec4f(fbm(g.xy, 0u), 0.0, 0.0, 0.0);
}
