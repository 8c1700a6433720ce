// threshold (cpu.ts): t(v) = clamp((v - level) / softness + 0.5, 0, 1), or v > level when
// softness is 0. luma = 0: v = alpha, the alpha becomes t, the straight colour is kept.
// luma = 1: v = Rec. 709 luma of the straight colour, the colour becomes grey t, alpha kept.
//!uniform size: vec2u, src: View, level: f32, softness: f32, luma: u32

//!include filter-pass

fn step_at(v: f32) -> f32 {
  if (u.softness > 0.0) {
    return clamp((v - u.level) / u.softness + 0.5, 0.0, 1.0);
  }
  return select(0.0, 1.0, v > u.level);
}

fn pixel(g: vec3u) -> vec4f {
  let c = loadRGBA(src, u.src, vec2i(g.xy));
  var straight = vec3f(0.0);
  if (c.a > 0.0) {
    straight = min(c.rgb / c.a, vec3f(1.0));
  }
  if (u.luma != 0u) {
    let t = step_at(dot(straight, vec3f(0.2126, 0.7152, 0.0722))) * c.a;
    return vec4f(t, t, t, c.a);
  } else {
    let t = step_at(c.a);
    return vec4f(straight * t, t);
  }
}
