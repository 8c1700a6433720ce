// displace: output pixel p reads the input view at p + pad + d, bilinear, where
// d = (disp.rg - disp.a / 2) * 2 amp (premultiplied displacement), as src/ops/displace/cpu.ts.
// Rows past the world's edges follow `boundary` (0 clamp, 1 transparent, 2 mirror), then every
// index is clamped to the view (plan.ts boundaryRow).
//!uniform size: vec2u, amp2: vec2f, pad: i32, boundary: i32, world_top: i32, world_bottom: i32, src: View, disp: View

//!bind u: uniform, src: texture, disp: texture, dst: rgba16float

fn row(t0: i32) -> i32 {
  var t = t0;
  let lo = u.world_top;
  let hi = u.world_bottom;
  if (t < lo || t >= hi) {
    if (u.boundary == 1) {
      return -1;
    }
    if (u.boundary == 0) {
      t = select(hi - 1, lo, t < lo);
    } else {
      let n = hi - lo;
      var k = ((t - lo) % (2 * n) + 2 * n) % (2 * n);
      if (k >= n) {
        k = 2 * n - 1 - k;
      }
      t = lo + k;
    }
  }
  return clamp(t, 0, u.src.size.y - 1);
}

fn texel(x: i32, y: i32) -> vec4f {
  if (y < 0) {
    return vec4f(0.0);
  }
  return loadRGBA(src, u.src, vec2i(clamp(x, 0, u.src.size.x - 1), y));
}

//!include pixel-main

fn pixel(g: vec3u) -> vec4f {
  let d = loadRGBA(disp, u.disp, vec2i(g.xy));
  // Offsets clamp to the amplitude (a displacement outside [0, A] cannot read past the pad).
  let amp = 0.5 * u.amp2;
  let s = vec2f(g.xy) + f32(u.pad) + clamp((d.rg - 0.5 * d.a) * u.amp2, -amp, amp);
  let f0 = floor(s);
  let f = s - f0;
  let x0 = i32(f0.x);
  let y0 = i32(f0.y);
  let ya = row(y0);
  let yb = row(y0 + 1);
  let top = mix(texel(x0, ya), texel(x0 + 1, ya), f.x);
  let bottom = mix(texel(x0, yb), texel(x0 + 1, yb), f.x);
  return mix(top, bottom, f.y);
}
