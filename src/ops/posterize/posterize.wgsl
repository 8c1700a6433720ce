// posterize (plan.ts, cpu.ts): each straight channel c becomes floor(c steps + 0.5) / steps (not
// round(): WGSL rounds a half to even), alpha kept, transparent pixels stay transparent.
//!uniform size: vec2u, src: View, steps: f32

//!include filter-pass

fn pixel(g: vec3u) -> vec4f {
  let c = loadRGBA(src, u.src, vec2i(g.xy));
  if (!(c.a > 0.0)) {
    return vec4f(0.0);
  }
  let v = floor(min(c.rgb * (u.steps / c.a), vec3f(u.steps)) + 0.5) / u.steps;
  return vec4f(v * c.a, c.a);
}
