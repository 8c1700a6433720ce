//!part
// Bilinear sampling of a sprite held in a storage buffer, as src/ops/stamp/sprite.ts sampleSprite:
// texel centres at i + 0.5; texels outside the sprite weigh 0, or repeat with `wrap`. The including
// shader binds the texels as `sprite: array<vec4f>` (rows of sw texels); sampleSprite(sw, sh, u, v,
// wrap) is the sum over the four taps of sprite[t.idx[k]] * t.w[k].
struct SpriteTaps {
  idx: vec4u,
  w: vec4f,
}

fn spriteTap(sw: i32, sh: i32, tx: i32, ty: i32, wrap: bool, w: f32, t: ptr<function, SpriteTaps>, k: i32) {
  var x = tx;
  var y = ty;
  if (wrap) {
    x = ((x % sw) + sw) % sw;
    y = ((y % sh) + sh) % sh;
  } else if (x < 0 || y < 0 || x >= sw || y >= sh) {
    return;
  }
  (*t).idx[k] = u32(y * sw + x);
  (*t).w[k] = w;
}

fn spriteTaps(sw: i32, sh: i32, u: f32, v: f32, wrap: bool) -> SpriteTaps {
  let x = u - 0.5;
  let y = v - 0.5;
  let x0 = floor(x);
  let y0 = floor(y);
  let fx = x - x0;
  let fy = y - y0;
  let ix = i32(x0);
  let iy = i32(y0);
  var t = SpriteTaps(vec4u(0u), vec4f(0.0));
  spriteTap(sw, sh, ix, iy, wrap, (1.0 - fx) * (1.0 - fy), &t, 0);
  spriteTap(sw, sh, ix + 1, iy, wrap, fx * (1.0 - fy), &t, 1);
  spriteTap(sw, sh, ix, iy + 1, wrap, (1.0 - fx) * fy, &t, 2);
  spriteTap(sw, sh, ix + 1, iy + 1, wrap, fx * fy, &t, 3);
  return t;
}

fn sampleSprite(sw: i32, sh: i32, u: f32, v: f32, wrap: bool) -> vec4f {
  let t = spriteTaps(sw, sh, u, v, wrap);
  return sprite[t.idx.x] * t.w.x + sprite[t.idx.y] * t.w.y + sprite[t.idx.z] * t.w.z + sprite[t.idx.w] * t.w.w;
}
