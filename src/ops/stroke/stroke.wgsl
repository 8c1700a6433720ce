// stroke: per pixel, the dabs of its 16 px bin in paint order (src/ops/stroke/gpu.ts). Within a
// feature the strongest dab wins (maximum alpha); each feature's winner composites source-over
// when the next feature starts, as drawDabs (src/ops/stroke/cpu.ts). Round dabs follow
// roundProfile (plan.ts); image tips are sampled bilinearly over the dab's square.
//!uniform size: vec2u, bins: u32, round: u32, tinted: u32, tipW: i32, tipH: i32, hardness: f32, aa: f32, tipSide: f32

struct Dab {
  // a dab: cx, cy (canvas pixels), radius, strength; a run: ax, ay (canvas pixels), ux, uy
  geom: vec4f,
  paint: vec4f,
  // a run: d0, spacing, last index, radius (dab j at a + u (d0 + j spacing))
  run: vec4f,
  // x: 1 for a run; y: a run's strength
  extra: vec4f,
}

//!bind u: uniform, dst: rgba16float, dabs: array<Dab>, groups: array<u32>, sprite: array<vec4f>
//!include bins

//!include sprite-sample

fn roundProfile(d: f32, r: f32) -> f32 {
  var edge: f32;
  if (u.aa > 0.0) {
    edge = clamp((r - d) / u.aa + 0.5, 0.0, 1.0);
  } else {
    edge = select(0.0, 1.0, d <= r);
  }
  if (u.hardness >= 1.0) {
    return edge;
  }
  return min(edge, clamp((r - d) / ((1.0 - u.hardness) * r), 0.0, 1.0));
}

//!include pixel-main

fn pixel(gid: vec3u) -> vec4f {
  let bin = binRange(gid.xy);
  let px = f32(gid.x) + 0.5;
  let py = f32(gid.y) + 0.5;
  var acc = vec4f(0.0);
  var best = vec4f(0.0);
  var cur = 0xffffffffu;
  for (var k = bin.x; k < bin.y; k++) {
    let i = items[k];
    let g = groups[i];
    if (g != cur) {
      acc = best + acc * (1.0 - best.a);
      best = vec4f(0.0);
      cur = g;
    }
    let d = dabs[i];
    var dx = px - d.geom.x;
    var dy = py - d.geom.y;
    var v: vec4f;
    if (d.extra.x > 0.5) {
      // A run of alike round dabs: the nearest one (projection onto the segment, clamped), as drawDabs' drawRun.
      let k = clamp(round((dx * d.geom.z + dy * d.geom.w - d.run.x) / d.run.y), 0.0, d.run.z);
      let t = d.run.x + k * d.run.y;
      dx = dx - d.geom.z * t;
      dy = dy - d.geom.w * t;
      v = d.paint * (roundProfile(sqrt(dx * dx + dy * dy), d.run.w) * d.extra.y);
    } else if (u.round == 1u) {
      v = d.paint * (roundProfile(sqrt(dx * dx + dy * dy), d.geom.z) * d.geom.w);
    } else {
      let kk = 2.0 * d.geom.z / u.tipSide;
      let t = sampleSprite(u.tipW, u.tipH, dx / kk + f32(u.tipW) * 0.5, dy / kk + f32(u.tipH) * 0.5, false);
      if (u.tinted == 1u) {
        v = d.paint * (t.a * d.geom.w);
      } else {
        v = t * d.geom.w;
      }
    }
    if (v.a > best.a) {
      best = v;
    }
  }
  return best + acc * (1.0 - best.a);
}
