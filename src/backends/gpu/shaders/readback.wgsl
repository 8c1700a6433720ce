// A raster view as f32 RGBA in a storage buffer, row after row, for the readback: the GPU widens
// the f16 texels exactly (every f16 is an f32), so the CPU maps plain floats instead of decoding
// halves one by one. Zeros outside the view's valid rect, as the CPU crop has them.
//!uniform size: vec2u, src: View

//!bind u: uniform, src: texture, dst: read_write array<vec4f>

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g.xy >= u.size)) {
    return;
  }
  dst[g.y * u.size.x + g.x] = loadRGBA(src, u.src, vec2i(g.xy));
}
