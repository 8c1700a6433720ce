// fill-pattern (raster): coverage alpha (src/ops/fill-pattern/gpu.ts) times the pattern raster's
// pixel, times opacity.
//!uniform size: vec2u, cov: View, pat: View, opacity: f32

//!bind u: uniform, cov_tex: texture, pat_tex: texture, dst: rgba16float

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  let p = vec2i(g.xy);
  return loadRGBA(pat_tex, u.pat, p) * (loadRGBA(cov_tex, u.cov, p).a * u.opacity);
}
