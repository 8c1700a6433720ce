// fill-pattern (raster): coverage alpha (src/ops/fill-pattern/gpu.ts) times the pattern raster's
// pixel, times opacity.
//!uniform size: vec2u, cov: View, pat: View, opacity: f32

//!bind u: uniform, cov_tex: texture, pat_tex: texture, dst: rgba16float

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  if (any(gid.xy >= u.size)) {
    return;
  }
  let p = vec2i(gid.xy);
  let c = loadRGBA(cov_tex, u.cov, p).a * u.opacity;
  textureStore(dst, gid.xy, loadRGBA(pat_tex, u.pat, p) * c);
}
