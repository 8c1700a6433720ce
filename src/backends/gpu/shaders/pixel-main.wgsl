//!part
// The entry point of a pass that writes one pixel per invocation into `dst` (an rgba16float or
// r32float storage texture): pixel(g) at every g.xy inside u.size. A shader includes it
// (//!include pixel-main) after its bindings, and declares its uniforms (`//!uniform`, first field
// `size: vec2u`, the output's size) and `fn pixel(g: vec3u) -> vec4f`: the output at g.xy.
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g.xy >= u.size)) {
    return;
  }
  textureStore(dst, g.xy, pixel(g));
}
