// color-ramp: a scalar field (or a raster by the luminance of its straight colour) through a
// baked ramp, as src/ops/color-ramp/cpu.ts: the table texture holds `size` entries per stop segment
// (row s = segment s, entry j = the colour at j / (size - 1) of it); below the first stop value
// and at or above the last the end colours; otherwise linear interpolation between entries
// floor(f * (size - 1)) and the next. Ramp expressions bake one premultiplied segment over [0, 1].
//!uniform size: vec2u, segs: u32, is_raster: u32, src: View, first: vec4f, last: vec4f, opacity: f32, premultiplied: u32, table_size: i32

//!bind u: uniform, src: texture, table: texture, values: array<f32>, dst: rgba16float

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  let p = vec2i(g.xy);
  var t: f32;
  var cover = u.opacity;
  if (u.is_raster != 0u) {
    let c = loadRGBA(src, u.src, p);
    if (!(c.a > 0.0)) {
      return vec4f(0.0);
    }
    t = (0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b) / c.a;
    cover *= min(c.a, 1.0);
  } else {
    t = loadR(src, u.src, p);
  }
  // NaN samples stay transparent, as on the CPU.
  if (is_nan(t)) {
    return vec4f(0.0);
  }
  let last = u.segs;
  var rgba: vec4f;
  if (t < values[0] || t >= values[last]) {
    rgba = select(u.last, u.first, t < values[0]);
  } else {
    var s = last - 1u;
    while (s > 0u && values[s] > t) {
      s--;
    }
    let q = (t - values[s]) / (values[s + 1u] - values[s]) * f32(u.table_size - 1);
    let j = min(i32(floor(q)), u.table_size - 2);
    let f = q - f32(j);
    let a = textureLoad(table, vec2i(j, i32(s)), 0);
    let b = textureLoad(table, vec2i(j + 1, i32(s)), 0);
    rgba = a + f * (b - a);
  }
  if (u.premultiplied != 0u) {
    if (rgba.a > 0.0) {
      rgba = vec4f(rgba.rgb / rgba.a, rgba.a);
    } else {
      rgba = vec4f(0.0, 0.0, 0.0, rgba.a);
    }
  }
  let a = rgba.a * cover;
  return vec4f(rgba.rgb * a, a);
}
