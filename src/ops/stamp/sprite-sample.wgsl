// Bilinear sampling of a premultiplied sprite held in a storage buffer, as src/ops/stamp/sprite.ts
// sampleSprite: texel centres at i + 0.5; outside texels transparent, or repeating with `wrap`.
// The including shader declares `sprite: array<vec4f>` (row-major, width sw, height sh).

fn spriteTexel(sw: i32, sh: i32, tx: i32, ty: i32, wrap: bool) -> vec4f {
  var x = tx;
  var y = ty;
  if (wrap) {
    x = ((x % sw) + sw) % sw;
    y = ((y % sh) + sh) % sh;
  } else if (x < 0 || y < 0 || x >= sw || y >= sh) {
    return vec4f(0.0);
  }
  return sprite[u32(y * sw + x)];
}

fn sampleSprite(sw: i32, sh: i32, u: f32, v: f32, wrap: bool) -> vec4f {
  let x = u - 0.5;
  let y = v - 0.5;
  let x0 = floor(x);
  let y0 = floor(y);
  let fx = x - x0;
  let fy = y - y0;
  let ix = i32(x0);
  let iy = i32(y0);
  let a = spriteTexel(sw, sh, ix, iy, wrap) * (1.0 - fx) + spriteTexel(sw, sh, ix + 1, iy, wrap) * fx;
  let b = spriteTexel(sw, sh, ix, iy + 1, wrap) * (1.0 - fx) + spriteTexel(sw, sh, ix + 1, iy + 1, wrap) * fx;
  return a * (1.0 - fy) + b * fy;
}
