// circles: analytic disk coverage, as the CPU kernel (src/ops/circles/cpu.ts): with d the distance
// from the pixel centre, outer = clamp(R - d + 0.5, 0, 1) for R = radius + stroke width,
// inner = clamp(r - d + 0.5, 0, 1); the fill paints `inner`, the ring `outer - inner`, composited
// source-over per circle in input order. Each pixel visits the circles of its 16 px screen bin.
// With aa > 0 (blur, MapLibre's profile): MapLibre's smoothstep edges (plan.ts smoothWeights).
//!uniform size: vec2u, bins: u32

struct Circle {
  // cx, cy (canvas pixels), r, stroke width
  geom: vec4f,
  fill: vec4f,
  stroke: vec4f,
  // aa (edge width as a fraction of the outer radius; 0: area coverage), unused x3
  extra: vec4f,
}

//!bind u: uniform, dst: rgba16float, circles: array<Circle>
//!include bins

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  let bin = binRange(g.xy);
  let px = f32(g.x) + 0.5;
  let py = f32(g.y) + 0.5;
  var d = vec4f(0.0);
  for (var k = bin.x; k < bin.y; k++) {
    let c = circles[items[k]];
    let dx = px - c.geom.x;
    let dy = py - c.geom.y;
    let dist = sqrt(dx * dx + dy * dy);
    let R = c.geom.z + c.geom.w;
    var inner: f32;
    var ring: f32;
    let aa = c.extra.x;
    if (aa > 0.0) {
      if (dist >= R) {
        continue;
      }
      let t = dist / R;
      let o = smoothstep(0.0, 1.0, (1.0 - t) / aa);
      var ct = 0.0;
      if (c.geom.w >= 0.01) {
        ct = smoothstep(0.0, 1.0, (t - c.geom.z / R + aa) / aa);
      }
      inner = o * (1.0 - ct);
      ring = o * ct;
    } else {
      let co = R - dist + 0.5;
      if (co <= 0.0) {
        continue;
      }
      let outer = min(co, 1.0);
      inner = clamp(c.geom.z - dist + 0.5, 0.0, 1.0);
      ring = outer - inner;
    }
    let paint = c.fill * inner + c.stroke * ring;
    d = paint + d * (1.0 - paint.a);
  }
  return d;
}
