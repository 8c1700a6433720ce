// edge-detect: Sobel magnitude of each premultiplied channel times strength, clamped to [0, 1];
// alpha raised to the largest colour channel (src/ops/edge-detect/cpu.ts). The source view has a
// 1 px margin: output pixel p is centred on source pixel p + 1.
//!uniform size: vec2u, strength: f32, src: View

//!include filter-pass

fn pixel(g: vec3u) -> vec4f {
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
  return vec4f(v.rgb, max(v.a, max(v.r, max(v.g, v.b))));
}
