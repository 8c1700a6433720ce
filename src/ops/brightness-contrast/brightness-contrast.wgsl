// brightness-contrast (cpu.ts): on straight sRGB, out = clamp((c - 0.5) * slope + add, 0, 1) with
// add = 0.5 + brightness; alpha unchanged, transparent pixels stay transparent.
//!uniform size: vec2u, src: View, slope: f32, add: f32

//!include filter-pass

fn pixel(g: vec3u) -> vec4f {
  let c = loadRGBA(src, u.src, vec2i(g.xy));
  if (!(c.a > 0.0)) {
    return vec4f(0.0);
  }
  let v = clamp((c.rgb / c.a - 0.5) * u.slope + u.add, vec3f(0.0), vec3f(1.0));
  return vec4f(v * c.a, c.a);
}
