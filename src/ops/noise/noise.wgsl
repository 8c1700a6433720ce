// noise, field output: the fBm of noise-lib.wgsl (src/ops/noise/plan.ts) into an r32float field.
//!include noise-lib

@group(0) @binding(5) var dst: texture_storage_2d<r32float, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g.xy >= u.size)) {
    return;
  }
  textureStore(dst, g.xy, vec4f(fbm(g.xy, 0u), 0.0, 0.0, 0.0));
}
