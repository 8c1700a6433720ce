// noise (shared by noise.wgsl and noise-raster.wgsl): fBm of value or simplex noise over world
// pixels, as src/ops/noise/plan.ts. Per octave the CPU gives (rx, ry, step, weight) and the
// origin's lattice cell (cx, cy) as u32; pixel (i, j) sits at local lattice position
// (rx + i step, ry + j step).
struct U {
  size: vec2u,
  octaves: u32,
  simplex: u32,
}

@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> octs: array<vec4f>;
@group(0) @binding(2) var<storage, read> cells: array<vec2u>;
// seeds[channel * 12 + octave]
@group(0) @binding(3) var<storage, read> seeds: array<u32>;

fn hash32(v: u32) -> u32 {
  var x = v;
  x ^= x >> 16u;
  x *= 0x7feb352du;
  x ^= x >> 15u;
  x *= 0x846ca68bu;
  x ^= x >> 16u;
  return x;
}

fn lattice_hash(ix: u32, iy: u32, seed: u32) -> u32 {
  return hash32(ix ^ hash32(iy ^ seed));
}

fn unit(h: u32) -> f32 {
  return f32(h >> 8u) / 16777216.0;
}

fn fade(t: f32) -> f32 {
  return t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
}

fn value_noise(p: vec2f, c: vec2u, seed: u32) -> f32 {
  let f = floor(p);
  let i = c + bitcast<vec2u>(vec2i(f));
  let s = vec2f(fade(p.x - f.x), fade(p.y - f.y));
  let v00 = unit(lattice_hash(i.x, i.y, seed));
  let v10 = unit(lattice_hash(i.x + 1u, i.y, seed));
  let v01 = unit(lattice_hash(i.x, i.y + 1u, seed));
  let v11 = unit(lattice_hash(i.x + 1u, i.y + 1u, seed));
  let a = v00 + (v10 - v00) * s.x;
  let b = v01 + (v11 - v01) * s.x;
  return a + (b - a) * s.y;
}

const F2: f32 = 0.36602540378443865;
const G2: f32 = 0.21132486540518713;

fn corner(x: f32, y: f32, ix: u32, iy: u32, seed: u32) -> f32 {
  let t = 0.5 - x * x - y * y;
  if (t < 0.0) {
    return 0.0;
  }
  let g = lattice_hash(ix, iy, seed) % 12u;
  // GX = 1 -1 1 -1 1 -1 1 -1 0 0 0 0, GY = 1 1 -1 -1 0 0 0 0 1 -1 1 -1 (plan.ts)
  var gx = 0.0;
  if (g < 8u) {
    gx = select(-1.0, 1.0, (g & 1u) == 0u);
  }
  var gy = 0.0;
  if (g < 4u) {
    gy = select(-1.0, 1.0, g < 2u);
  } else if (g >= 8u) {
    gy = select(-1.0, 1.0, (g & 1u) == 0u);
  }
  let t2 = t * t;
  return t2 * t2 * (gx * x + gy * y);
}

fn simplex_noise(p: vec2f, c: vec2u, seed: u32) -> f32 {
  let s = (p.x + p.y) * F2;
  let i = floor(p.x + s);
  let j = floor(p.y + s);
  let t = (i + j) * G2;
  let x0 = p.x - (i - t);
  let y0 = p.y - (j - t);
  let upper = x0 > y0;
  let i1 = select(0u, 1u, upper);
  let j1 = select(1u, 0u, upper);
  let x1 = x0 - f32(i1) + G2;
  let y1 = y0 - f32(j1) + G2;
  let x2 = x0 - 1.0 + 2.0 * G2;
  let y2 = y0 - 1.0 + 2.0 * G2;
  let ix = c.x + bitcast<u32>(i32(i));
  let iy = c.y + bitcast<u32>(i32(j));
  let n = corner(x0, y0, ix, iy, seed) + corner(x1, y1, ix + i1, iy + j1, seed) + corner(x2, y2, ix + 1u, iy + 1u, seed);
  return clamp(0.5 + 35.0 * n, 0.0, 1.0);
}

fn fbm(px: vec2u, channel: u32) -> f32 {
  var v = 0.0;
  for (var o = 0u; o < u.octaves; o++) {
    let oc = octs[o];
    let p = oc.xy + vec2f(px) * oc.z;
    let seed = seeds[channel * 12u + o];
    var n: f32;
    if (u.simplex != 0u) {
      n = simplex_noise(p, cells[o], seed);
    } else {
      n = value_noise(p, cells[o], seed);
    }
    v += oc.w * n;
  }
  return v;
}
