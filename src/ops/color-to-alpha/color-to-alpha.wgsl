// color-to-alpha (cpu.ts): d = Chebyshev distance of the straight colour to the key; the pixel
// (premultiplied) is scaled by f = clamp((d - threshold) / softness, 0, 1), or d > threshold
// when softness is 0.
//!uniform size: vec2u, src: View, key: vec4f, threshold: f32, softness: f32

//!include filter-pass

fn pixel(g: vec3u) -> vec4f {
  let c = loadRGBA(src, u.src, vec2i(g.xy));
  var f = 0.0;
  if (c.a > 0.0) {
    let e = abs(c.rgb / c.a - u.key.rgb);
    let d = max(e.r, max(e.g, e.b));
    if (u.softness > 0.0) {
      f = clamp((d - u.threshold) / u.softness, 0.0, 1.0);
    } else {
      f = select(0.0, 1.0, d > u.threshold);
    }
  }
  return c * f;
}
