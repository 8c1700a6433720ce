// blend: W3C Compositing and Blending Level 1 on premultiplied sRGB, as src/ops/blend/cpu.ts:
// Cs' = (1 - ab) Cs + ab B(Cb, Cs) on straight colours clamped to [0, 1];
// over:  co = as Cs' + (1 - as) cb, ao = as + ab (1 - as)
// atop (clip): co = as ab Cs' + (1 - as) cb, ao = ab
// erase: co = (1 - as) cb, ao = (1 - as) ab
// where as = source alpha x opacity x mask alpha. Modes are indices into BLEND_MODES.
//!uniform size: vec2u, mode: u32, composite: u32, base: View, over: View, mask: View, opacity: f32, has_mask: u32

//!bind u: uniform, base_tex: texture, over_tex: texture, mask_tex: texture, dst: rgba16float

const NORMAL = 0u;
const MULTIPLY = 1u;
const SCREEN = 2u;
const OVERLAY = 3u;
const DARKEN = 4u;
const LIGHTEN = 5u;
const DODGE = 6u;
const BURN = 7u;
const HARD = 8u;
const SOFT = 9u;
const DIFFERENCE = 10u;
const EXCLUSION = 11u;
const HUE = 12u;
const SATURATION = 13u;
const COLOR = 14u;

const ERASE = 1u;
const ATOP = 2u;

fn hard_light(cb: f32, cs: f32) -> f32 {
  if (cs <= 0.5) {
    return cb * 2.0 * cs;
  }
  return cb + (2.0 * cs - 1.0) - cb * (2.0 * cs - 1.0);
}

fn separable(mode: u32, cb: f32, cs: f32) -> f32 {
  switch (mode) {
    case MULTIPLY: { return cb * cs; }
    case SCREEN: { return cb + cs - cb * cs; }
    case OVERLAY: { return hard_light(cs, cb); }
    case DARKEN: { return min(cb, cs); }
    case LIGHTEN: { return max(cb, cs); }
    case DODGE: {
      if (cb == 0.0) { return 0.0; }
      if (cs >= 1.0) { return 1.0; }
      return min(1.0, cb / (1.0 - cs));
    }
    case BURN: {
      if (cb >= 1.0) { return 1.0; }
      if (cs == 0.0) { return 0.0; }
      return 1.0 - min(1.0, (1.0 - cb) / cs);
    }
    case HARD: { return hard_light(cb, cs); }
    case SOFT: {
      if (cs <= 0.5) { return cb - (1.0 - 2.0 * cs) * cb * (1.0 - cb); }
      var d = sqrt(cb);
      if (cb <= 0.25) { d = ((16.0 * cb - 12.0) * cb + 4.0) * cb; }
      return cb + (2.0 * cs - 1.0) * (d - cb);
    }
    case DIFFERENCE: { return abs(cb - cs); }
    case EXCLUSION: { return cb + cs - 2.0 * cb * cs; }
    default: { return cs; }
  }
}

fn lum(c: vec3f) -> f32 {
  return 0.3 * c.r + 0.59 * c.g + 0.11 * c.b;
}

fn set_lum(c0: vec3f, l: f32) -> vec3f {
  var c = c0 + vec3f(l - lum(c0));
  let L = lum(c);
  let n = min(c.r, min(c.g, c.b));
  let x = max(c.r, max(c.g, c.b));
  if (n < 0.0) {
    c = vec3f(L) + (c - vec3f(L)) * (L / (L - n));
  }
  if (x > 1.0) {
    c = vec3f(L) + (c - vec3f(L)) * ((1.0 - L) / (x - L));
  }
  return c;
}

fn sat(c: vec3f) -> f32 {
  return max(c.r, max(c.g, c.b)) - min(c.r, min(c.g, c.b));
}

fn set_sat(c: vec3f, s: f32) -> vec3f {
  let mn = min(c.r, min(c.g, c.b));
  let range = sat(c);
  if (range > 0.0) {
    return (c - vec3f(mn)) * s / range;
  }
  return vec3f(0.0);
}

fn non_separable(mode: u32, b: vec3f, s: vec3f) -> vec3f {
  switch (mode) {
    case HUE: { return set_lum(set_sat(s, sat(b)), lum(b)); }
    case SATURATION: { return set_lum(set_sat(b, sat(s)), lum(b)); }
    case COLOR: { return set_lum(s, lum(b)); }
    default: { return set_lum(b, lum(s)); }
  }
}

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  let p = vec2i(g.xy);
  let base = loadRGBA(base_tex, u.base, p);
  let over = loadRGBA(over_tex, u.over, p);
  let ab = clamp(base.a, 0.0, 1.0);
  let src_a = clamp(over.a, 0.0, 1.0);
  var m = 1.0;
  if (u.has_mask != 0u) {
    m = clamp(loadRGBA(mask_tex, u.mask, p).a, 0.0, 1.0);
  }
  let as_ = src_a * clamp(u.opacity, 0.0, 1.0) * m;
  if (u.composite == ERASE) {
    return base * (1.0 - as_);
  }
  // Straight source colour (before opacity and mask, which only scale coverage). Division, not a
  // reciprocal: c / a is exactly 1 when c == a, where color-burn and color-dodge branch.
  var s = vec3f(0.0);
  if (src_a > 0.0) {
    s = clamp(over.rgb / src_a, vec3f(0.0), vec3f(1.0));
  }
  var mixed = s;
  if (u.mode != NORMAL && ab > 0.0) {
    let b = clamp(base.rgb / ab, vec3f(0.0), vec3f(1.0));
    var B: vec3f;
    if (u.mode >= HUE) {
      B = non_separable(u.mode, b, s);
    } else {
      B = vec3f(separable(u.mode, b.r, s.r), separable(u.mode, b.g, s.g), separable(u.mode, b.b, s.b));
    }
    mixed = (1.0 - ab) * s + ab * B;
  }
  var fa = as_;
  var ao = as_ + ab * (1.0 - as_);
  if (u.composite == ATOP) {
    fa = as_ * ab;
    ao = ab;
  }
  return vec4f(fa * mixed + (1.0 - as_) * base.rgb, ao);
}
