// noise (shared by noise.wgsl and noise-raster.wgsl): fBm of value or simplex noise over the
// canvas's sampling plan (src/ops/noise/plan.ts, periodic across the antimeridian). Per octave o:
// cells[o] = (cx, cy, cz, weight bits); per column i and row j, 4 words at (o n + i):
//   value:   cols (ix, ix + 1 wrapped, fx bits), rows (iy, iy + 1, fy bits);
//   simplex: cols (X bits, Z bits), rows (Y bits): the point on the cylinder relative to the
//            unskewed lattice point of cell (cx, cy, cz).
//!uniform size: vec2u, octaves: u32, simplex: u32

// seeds: [channel * 12 + octave]
//!bind u: uniform, cells: array<vec4u>, seeds: array<u32>, cols: array<vec4u>, rows: array<vec4u>

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

fn lattice_hash3(ix: u32, iy: u32, iz: u32, seed: u32) -> u32 {
  return hash32(ix ^ hash32(iy ^ hash32(iz ^ seed)));
}

fn unit(h: u32) -> f32 {
  return f32(h >> 8u) / 16777216.0;
}

fn fade(t: f32) -> f32 {
  return t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
}

fn value_noise(c: vec4u, r: vec4u, seed: u32) -> f32 {
  let sx = fade(bitcast<f32>(c.z));
  let sy = fade(bitcast<f32>(r.z));
  let v00 = unit(lattice_hash(c.x, r.x, seed));
  let v10 = unit(lattice_hash(c.y, r.x, seed));
  let v01 = unit(lattice_hash(c.x, r.y, seed));
  let v11 = unit(lattice_hash(c.y, r.y, seed));
  let a = v00 + (v10 - v00) * sx;
  let b = v01 + (v11 - v01) * sx;
  return a + (b - a) * sy;
}

const F3: f32 = 0.3333333333333333;
const G3: f32 = 0.16666666666666666;
// plan.ts SIMPLEX_GAIN / 2
const HALF_GAIN: f32 = 38.0;

fn corner(p: vec3f, i: vec3u, seed: u32) -> f32 {
  let t = 0.5 - dot(p, p);
  if (t < 0.0) {
    return 0.0;
  }
  let g = lattice_hash3(i.x, i.y, i.z, seed) % 12u;
  // GX = 1 -1 1 -1 1 -1 1 -1 0 0 0 0, GY = 1 1 -1 -1 0 0 0 0 1 -1 1 -1,
  // GZ = 0 0 0 0 1 1 -1 -1 1 1 -1 -1 (plan.ts)
  var grad = vec3f(0.0);
  let sign_a = select(-1.0, 1.0, (g & 1u) == 0u);
  let sign_b = select(-1.0, 1.0, (g & 2u) == 0u);
  if (g < 4u) {
    grad = vec3f(sign_a, sign_b, 0.0);
  } else if (g < 8u) {
    grad = vec3f(sign_a, 0.0, sign_b);
  } else {
    grad = vec3f(0.0, sign_a, sign_b);
  }
  let t2 = t * t;
  return t2 * t2 * dot(grad, p);
}

fn simplex_noise(p: vec3f, c: vec3u, seed: u32) -> f32 {
  let s = (p.x + p.y + p.z) * F3;
  let f = floor(p + vec3f(s));
  let t = (f.x + f.y + f.z) * G3;
  let p0 = p - (f - vec3f(t));
  var o1: vec3u;
  var o2: vec3u;
  if (p0.x >= p0.y) {
    if (p0.y >= p0.z) {
      o1 = vec3u(1u, 0u, 0u);
      o2 = vec3u(1u, 1u, 0u);
    } else if (p0.x >= p0.z) {
      o1 = vec3u(1u, 0u, 0u);
      o2 = vec3u(1u, 0u, 1u);
    } else {
      o1 = vec3u(0u, 0u, 1u);
      o2 = vec3u(1u, 0u, 1u);
    }
  } else if (p0.y < p0.z) {
    o1 = vec3u(0u, 0u, 1u);
    o2 = vec3u(0u, 1u, 1u);
  } else if (p0.x < p0.z) {
    o1 = vec3u(0u, 1u, 0u);
    o2 = vec3u(0u, 1u, 1u);
  } else {
    o1 = vec3u(0u, 1u, 0u);
    o2 = vec3u(1u, 1u, 0u);
  }
  let i = c + bitcast<vec3u>(vec3i(f));
  let n = corner(p0, i, seed) + corner(p0 - vec3f(o1) + vec3f(G3), i + o1, seed) + corner(p0 - vec3f(o2) + vec3f(2.0 * G3), i + o2, seed) +
    corner(p0 - vec3f(1.0 - 3.0 * G3), i + vec3u(1u), seed);
  return clamp(0.5 + HALF_GAIN * n, 0.0, 1.0);
}

fn fbm(px: vec2u, channel: u32) -> f32 {
  var v = 0.0;
  for (var o = 0u; o < u.octaves; o++) {
    let cell = cells[o];
    let c = cols[o * u.size.x + px.x];
    let r = rows[o * u.size.y + px.y];
    let seed = seeds[channel * 12u + o];
    var n: f32;
    if (u.simplex != 0u) {
      n = simplex_noise(vec3f(bitcast<f32>(c.x), bitcast<f32>(r.x), bitcast<f32>(c.y)), cell.xyz, seed);
    } else {
      n = value_noise(c, r, seed);
    }
    v += bitcast<f32>(cell.w) * n;
  }
  return v;
}
