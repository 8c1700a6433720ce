// hillshade: Horn's gradient and GDAL's shade value (src/ops/hillshade/plan.ts gdalShade), colour
// = shadow + (highlight - shadow) v / 255, accent over with coverage sin(slope) (cpu.ts). The
// field view has a 1 px margin: output pixel p is centred on field pixel p + 1.
// t0: squareZ, sinAlt254, cosAzCosAltZ254, sinAzCosAltZ254; t1: sinAlt127, cosAltZ127, cos225CosAltZ127.
//!uniform size: vec2u, multi: u32, src: View, shadow: vec4f, highlight: vec4f, accent: vec4f, t0: vec4f, t1: vec4f

//!bind u: uniform, src: texture, inv_res: array<f32>, dst: rgba16float

// Not NaN or infinite, by the bits: compilers may assume no NaN and fold `v != v` away (SwiftShader
// does), so the no-data test cannot use it.
fn finite(v: f32) -> bool {
  return (bitcast<u32>(v) & 0x7f800000u) != 0x7f800000u;
}

fn shade(x: f32, y: f32) -> f32 {
  let xx = x * x;
  let yy = y * y;
  let q = xx + yy;
  let root = sqrt(1.0 + u.t0.x * q);
  if (u.multi == 0u) {
    let c = (u.t0.y - (y * u.t0.z - x * u.t0.w)) / root;
    return select(1.0 + c, 1.0, c <= 0.0);
  }
  if (q == 0.0) {
    return 1.0 + u.t0.y;
  }
  let v225 = max(0.0, u.t1.x + (x - y) * u.t1.z);
  let v270 = max(0.0, u.t1.x - x * u.t1.y);
  let v315 = max(0.0, u.t1.x + (x + y) * u.t1.z);
  let v360 = max(0.0, u.t1.x - y * u.t1.y);
  let w225 = 0.5 * q - x * y;
  let w315 = q - w225;
  return 1.0 + (w225 * v225 + xx * v270 + w315 * v315 + yy * v360) / q / root;
}

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  let c = vec2i(g.xy) + vec2i(1, 1);
  let a0 = loadR(src, u.src, c + vec2i(-1, -1));
  let a1 = loadR(src, u.src, c + vec2i(0, -1));
  let a2 = loadR(src, u.src, c + vec2i(1, -1));
  let a3 = loadR(src, u.src, c + vec2i(-1, 0));
  let a4 = loadR(src, u.src, c);
  let a5 = loadR(src, u.src, c + vec2i(1, 0));
  let a6 = loadR(src, u.src, c + vec2i(-1, 1));
  let a7 = loadR(src, u.src, c + vec2i(0, 1));
  let a8 = loadR(src, u.src, c + vec2i(1, 1));
  // No data (NaN, or an infinite value) anywhere in the window: transparent, as on the CPU.
  let ok = finite(a0) && finite(a1) && finite(a2) && finite(a3) && finite(a4) && finite(a5) && finite(a6) && finite(a7) && finite(a8);
  if (!ok) {
    return vec4f(0.0);
  }
  let ew = inv_res[g.y];
  let x = (a0 + a3 + a3 + a6 - (a2 + a5 + a5 + a8)) * ew;
  let y = (a6 + a7 + a7 + a8 - (a0 + a1 + a1 + a2)) * -ew;
  let v = shade(x, y) / 255.0;
  var col = u.shadow + (u.highlight - u.shadow) * v;
  if (u.accent.a > 0.0) {
    let q = u.t0.x * (x * x + y * y);
    let k = sqrt(q / (1.0 + q));
    col = u.accent * k + col * (1.0 - u.accent.a * k);
  }
  return col;
}
