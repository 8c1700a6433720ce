// fill-pattern (sprite): coverage alpha (drawn as fill-solid draws, src/ops/fill-pattern/gpu.ts)
// times the sprite sampled with wrapping at (cols[x], v0 + y inv) (patternPhase: the columns go
// round the world a whole number of times), times opacity.
struct U {
  size: vec2u,
  cov: View,
  v0: f32,
  inv: f32,
  opacity: f32,
  sw: i32,
  sh: i32,
}

@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var cov_tex: texture_2d<f32>;
@group(0) @binding(2) var<storage, read> sprite: array<vec4f>;
@group(0) @binding(3) var<storage, read> cols: array<f32>;
@group(0) @binding(4) var dst: texture_storage_2d<rgba16float, write>;

//!include sprite-sample

fn sampleSprite(sw: i32, sh: i32, u: f32, v: f32, wrap: bool) -> vec4f {
  let t = spriteTaps(sw, sh, u, v, wrap);
  return sprite[t.idx.x] * t.w.x + sprite[t.idx.y] * t.w.y + sprite[t.idx.z] * t.w.z + sprite[t.idx.w] * t.w.w;
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  if (any(gid.xy >= u.size)) {
    return;
  }
  let p = vec2i(gid.xy);
  let c = loadRGBA(cov_tex, u.cov, p).a * u.opacity;
  var v = vec4f(0.0);
  if (c > 0.0) {
    v = sampleSprite(u.sw, u.sh, cols[p.x], u.v0 + f32(p.y) * u.inv, true) * c;
  }
  textureStore(dst, gid.xy, v);
}
