// dither, method ordered (cpu.ts, plan.ts): the straight colour read at 8 bits per channel, plus
// amount x ((Bayer index + 0.5) / 16 - 1/2) at the world pixel, clamped to [0, 1], takes the
// nearest palette entry (squared distance in sRGB or in d3-color's CIELAB, D50; ties take the
// first); alpha is preserved. Palette: entries 0..n-1 hold matching coordinates, n..2n-1 colours.
struct U {
  size: vec2u,
  src: View,
  phase: vec2u,
  n: u32,
  lab: u32,
  amount: f32,
}

@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var src: texture_2d<f32>;
@group(0) @binding(2) var<storage, read> palette: array<vec4f>;
@group(0) @binding(3) var dst: texture_storage_2d<rgba16float, write>;

var<private> BAYER: array<u32, 16> = array<u32, 16>(0u, 8u, 2u, 10u, 12u, 4u, 14u, 6u, 3u, 11u, 1u, 9u, 15u, 7u, 13u, 5u);

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

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g.xy >= u.size)) {
    return;
  }
  let c = loadRGBA(src, u.src, vec2i(g.xy));
  if (!(c.a > 0.0)) {
    textureStore(dst, g.xy, vec4f(0.0));
    return;
  }
  let q = floor(clamp(c.rgb / c.a, vec3f(0.0), vec3f(1.0)) * 255.0 + 0.5) / 255.0;
  let idx = BAYER[(((g.y + u.phase.y) & 3u) << 2u) | ((g.x + u.phase.x) & 3u)];
  let v = clamp(q + u.amount * ((f32(idx) + 0.5) / 16.0 - 0.5), vec3f(0.0), vec3f(1.0));
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
  textureStore(dst, g.xy, vec4f(palette[u.n + best].rgb * c.a, c.a));
}
