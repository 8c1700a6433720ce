// fill-pattern (sprite): coverage alpha (drawn as fill-solid draws, src/ops/fill-pattern/gpu.ts)
// times the sprite sampled with wrapping at (cols[x], v0 + y inv) (patternPhase: the columns go
// round the world a whole number of times), times opacity.
//!uniform size: vec2u, cov: View, v0: f32, inv: f32, opacity: f32, sw: i32, sh: i32

//!bind u: uniform, cov_tex: texture, sprite: array<vec4f>, cols: array<f32>, dst: rgba16float

//!include sprite-sample

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  let p = vec2i(g.xy);
  let c = loadRGBA(cov_tex, u.cov, p).a * u.opacity;
  var v = vec4f(0.0);
  if (c > 0.0) {
    v = sampleSprite(u.sw, u.sh, cols[p.x], u.v0 + f32(p.y) * u.inv, true) * c;
  }
  return v;
}
