// density: additive truncated-Gaussian splats, as the CPU kernel (src/ops/density/cpu.ts):
// field(i, j) = sum over points of s * exp(-a dx^2) * exp(-a dy^2) where dx^2 + dy^2 <= r^2,
// dx = i + 0.5 - px, a = 4.5 / r^2, s = scale / sqrt(2 pi). Each pixel gathers the points of
// its 16 px screen bin in input order (no atomics: the sum is deterministic).
//!uniform size: vec2u, bins: u32

// points: px, py (canvas pixels), s, r
//!bind u: uniform, dst: r32float, points: array<vec4f>
//!include bins

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  let bin = binRange(g.xy);
  let cx = f32(g.x) + 0.5;
  let cy = f32(g.y) + 0.5;
  var sum = 0.0;
  for (var k = bin.x; k < bin.y; k++) {
    let p = points[items[k]];
    let dx = cx - p.x;
    let dy = cy - p.y;
    let r2 = p.w * p.w;
    if (dx * dx + dy * dy <= r2) {
      let a = 4.5 / r2;
      sum += p.z * exp(-a * dy * dy) * exp(-a * dx * dx);
    }
  }
  return vec4f(sum, 0.0, 0.0, 0.0);
}
