// edge-detect: Sobel magnitude of each premultiplied channel times strength, clamped to [0, 1];
// alpha raised to the largest colour channel (src/ops/edge-detect/cpu.ts). The source view has a
// 1 px margin: output pixel p is centred on source pixel p + 1.
struct U {
  size: vec2u,
  strength: f32,
  src: View,
}

@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var src: texture_2d<f32>;
@group(0) @binding(2) var dst: texture_storage_2d<rgba16float, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g.xy >= u.size)) {
    return;
  }
  let c = vec2i(g.xy) + vec2i(1, 1);
  let a0 = loadRGBA(src, u.src, c + vec2i(-1, -1));
  let a1 = loadRGBA(src, u.src, c + vec2i(0, -1));
  let a2 = loadRGBA(src, u.src, c + vec2i(1, -1));
  let a3 = loadRGBA(src, u.src, c + vec2i(-1, 0));
  let a5 = loadRGBA(src, u.src, c + vec2i(1, 0));
  let a6 = loadRGBA(src, u.src, c + vec2i(-1, 1));
  let a7 = loadRGBA(src, u.src, c + vec2i(0, 1));
  let a8 = loadRGBA(src, u.src, c + vec2i(1, 1));
  let gx = a2 + 2.0 * a5 + a8 - (a0 + 2.0 * a3 + a6);
  let gy = a6 + 2.0 * a7 + a8 - (a0 + 2.0 * a1 + a2);
  let v = min(sqrt(gx * gx + gy * gy) * u.strength, vec4f(1.0));
  textureStore(dst, g.xy, vec4f(v.rgb, max(v.a, max(v.r, max(v.g, v.b)))));
}
