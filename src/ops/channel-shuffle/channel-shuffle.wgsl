// channel-shuffle (cpu.ts): on straight sRGB, output channel k takes input channel sources[k]
// (0..3: r, g, b, a) or a constant (4: 0, 5: 1), premultiplied by the new alpha.
//!uniform size: vec2u, src: View, sr: u32, sg: u32, sb: u32, sa: u32

//!include filter-pass

fn pixel(g: vec3u) -> vec4f {
  let c = loadRGBA(src, u.src, vec2i(g.xy));
  var s = array<f32, 6>(0.0, 0.0, 0.0, c.a, 0.0, 1.0);
  if (c.a > 0.0) {
    s[0] = min(c.r / c.a, 1.0);
    s[1] = min(c.g / c.a, 1.0);
    s[2] = min(c.b / c.a, 1.0);
  }
  let a = s[u.sa];
  return vec4f(s[u.sr] * a, s[u.sg] * a, s[u.sb] * a, a);
}
