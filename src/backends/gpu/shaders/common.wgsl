// Prepended to every shader. A View is how a pass sees an input texture: view pixel p reads
// texel p + off, and 0 outside the valid rect [lo, hi) (the CPU crop's rule). size = view size.
struct View {
  off: vec2i,
  lo: vec2i,
  hi: vec2i,
  size: vec2i,
}

fn inView(v: View, p: vec2i) -> bool {
  let q = p + v.off;
  return all(q >= v.lo) && all(q < v.hi);
}

fn loadRGBA(t: texture_2d<f32>, v: View, p: vec2i) -> vec4f {
  let q = p + v.off;
  if (any(q < v.lo) || any(q >= v.hi)) {
    return vec4f(0.0);
  }
  return textureLoad(t, q, 0);
}

fn loadR(t: texture_2d<f32>, v: View, p: vec2i) -> f32 {
  let q = p + v.off;
  if (any(q < v.lo) || any(q >= v.hi)) {
    return 0.0;
  }
  return textureLoad(t, q, 0).r;
}

// NaN by the bits: compilers may assume no NaN and fold `v != v` away (SwiftShader does).
fn is_nan(v: f32) -> bool {
  let b = bitcast<u32>(v);
  return (b & 0x7f800000u) == 0x7f800000u && (b & 0x007fffffu) != 0u;
}
