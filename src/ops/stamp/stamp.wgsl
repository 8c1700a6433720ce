// stamp: per pixel, the stamps of its 16 px bin in order (src/ops/stamp/gpu.ts): the pixel centre
// mapped into the sprite (inverse rotation, then 1 / scale), sampled bilinearly, times the
// opacity, composited source-over, as drawStamps (src/ops/stamp/index.ts).
//!uniform size: vec2u, bins: u32, sw: i32, sh: i32

struct Stamp {
  // cx, cy (canvas pixels), 1 / scale, opacity
  geom: vec4f,
  // cos, sin of the rotation
  rot: vec4f,
}

//!bind u: uniform, dst: rgba16float, stamps: array<Stamp>, sprite: array<vec4f>
//!include bins

//!include sprite-sample

//!include pixel-main

fn pixel(gid: vec3u) -> vec4f {
  let bin = binRange(gid.xy);
  let px = f32(gid.x) + 0.5;
  let py = f32(gid.y) + 0.5;
  var d = vec4f(0.0);
  for (var k = bin.x; k < bin.y; k++) {
    let s = stamps[items[k]];
    let dx = px - s.geom.x;
    let dy = py - s.geom.y;
    let uu = (s.rot.x * dx + s.rot.y * dy) * s.geom.z + f32(u.sw) * 0.5;
    let vv = (-s.rot.y * dx + s.rot.x * dy) * s.geom.z + f32(u.sh) * 0.5;
    let t = sampleSprite(u.sw, u.sh, uu, vv, false) * s.geom.w;
    d = t + d * (1.0 - t.a);
  }
  return d;
}
