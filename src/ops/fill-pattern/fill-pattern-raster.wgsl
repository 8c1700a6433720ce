// fill-pattern (raster): coverage alpha (src/ops/fill-pattern/gpu.ts) times the pattern raster's
// pixel, times opacity.
struct U {
  size: vec2u,
  cov: View,
  pat: View,
  opacity: f32,
}

@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var cov_tex: texture_2d<f32>;
@group(0) @binding(2) var pat_tex: texture_2d<f32>;
@group(0) @binding(3) var dst: texture_storage_2d<rgba16float, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  if (any(gid.xy >= u.size)) {
    return;
  }
  let p = vec2i(gid.xy);
  let c = loadRGBA(cov_tex, u.cov, p).a * u.opacity;
  textureStore(dst, gid.xy, loadRGBA(pat_tex, u.pat, p) * c);
}
