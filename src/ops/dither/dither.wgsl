// dither, methods ordered and blue-noise (cpu.ts, plan.ts): the straight colour read at 8 bits per
// channel, plus amount x ((rank + 0.5) / size^2 - 1/2) with the rank of the threshold matrix
// (size x size, tiled over world pixels) at the world pixel, clamped to [0, 1], takes the
// nearest palette entry (squared distance in sRGB or in d3-color's CIELAB, D50; ties take the
// first); alpha is preserved. Palette: entries 0..n-1 hold matching coordinates, n..2n-1 colours.
//!uniform size: vec2u, src: View, phase: vec2u, msize: u32, n: u32, lab: u32, amount: f32

//!bind u: uniform, src: texture, palette: array<vec4f>, ranks: array<u32>, dst: rgba16float

// d3-color's Lab (src/backends/cpu/color.ts fromRgb).
const T0 = 4.0 / 29.0;
const T1 = 6.0 / 29.0;
const T2 = 3.0 * T1 * T1;
const T3 = T1 * T1 * T1;

fn rgb2lrgb(x: f32) -> f32 {
  if (x <= 0.04045) {
    return x / 12.92;
  }
  return pow((x + 0.055) / 1.055, 2.4);
}

fn xyz2lab(t: f32) -> f32 {
  if (t > T3) {
    return pow(t, 1.0 / 3.0);
  }
  return t / T2 + T0;
}

fn to_lab(c: vec3f) -> vec3f {
  let l = vec3f(rgb2lrgb(c.r), rgb2lrgb(c.g), rgb2lrgb(c.b));
  let y = xyz2lab(0.2225045 * l.r + 0.7168786 * l.g + 0.0606169 * l.b);
  var x = y;
  var z = y;
  if (!(l.r == l.g && l.g == l.b)) {
    x = xyz2lab((0.4360747 * l.r + 0.3850649 * l.g + 0.1430804 * l.b) / 0.96422);
    z = xyz2lab((0.0139322 * l.r + 0.0971045 * l.g + 0.7141733 * l.b) / 0.82521);
  }
  return vec3f(116.0 * y - 16.0, 500.0 * (x - y), 200.0 * (y - z));
}

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  let c = loadRGBA(src, u.src, vec2i(g.xy));
  if (!(c.a > 0.0)) {
    return vec4f(0.0);
  }
  let q = floor(clamp(c.rgb / c.a, vec3f(0.0), vec3f(1.0)) * 255.0 + 0.5) / 255.0;
  let mask = u.msize - 1u;
  let rank = ranks[((g.y + u.phase.y) & mask) * u.msize + ((g.x + u.phase.x) & mask)];
  let v = clamp(q + u.amount * ((f32(rank) + 0.5) / f32(u.msize * u.msize) - 0.5), vec3f(0.0), vec3f(1.0));
  var m = v;
  if (u.lab != 0u) {
    m = to_lab(v);
  }
  var best = 0u;
  var best_d = 3.4e38;
  for (var i = 0u; i < u.n; i++) {
    let e = m - palette[i].xyz;
    let d = dot(e, e);
    if (d < best_d) {
      best_d = d;
      best = i;
    }
  }
  return vec4f(palette[u.n + best].rgb * c.a, c.a);
}
