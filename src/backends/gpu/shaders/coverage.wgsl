// The coverage pass of fill-solid and stroke-solid (src/backends/gpu/area.ts): one render pass
// over signed triangles (src/backends/gpu/triangles.ts). Each fragment adds the signed area of
// its pixel square covered by its triangle (or, antialias off, the triangle's winding at the
// pixel centre) into the slot of its (16 px bin, shape) pair, in fixed point with an atomic add:
// exact area is additive over a triangulation, so a slot ends up holding the winding area the
// CPU's scanline sums, in an order-independent (deterministic) integer sum.
//
// Every pixel whose square meets the triangle must get a fragment: the vertex shader grows the
// triangle into a hexagon holding its Minkowski sum with a disk of radius RD (the pixel square's
// half-diagonal plus a margin for rasterizer snapping): each edge pushed out by RD, each corner
// bevelled by a tangent of that disk (the bevel keeps sharp corners close to the triangle).
// flags: 1: antialias (exact area), else centre sampling.
//!uniform size: vec2u, cols: u32, flags: u32

// tris: two vec4f per triangle: (x0, y0, x1, y1), (x2, y2, bitcast shape, 0), canvas pixels.
// starts, items: the shapes reaching bin b, ascending: items[starts[b] .. starts[b + 1]); slot = index in items.
// cov: 256 cells per slot (16 x 16 pixels), coverage in units of 1 / COVERAGE_SCALE.
//!bind u: uniform, tris: array<vec4f>, starts: array<u32>, items: array<u32>, cov: read_write array<atomic<i32>>

//!include coverage-common

const RD: f32 = 0.70710678 + 0.03125;

struct V {
  @builtin(position) pos: vec4f,
  @location(0) @interpolate(flat) ab: vec4f,
  @location(1) @interpolate(flat) c: vec2f,
  @location(2) @interpolate(flat) shape: u32,
  // Per edge: its unit inward normal and offset (n.p + e is the distance inside), less the
  // pixel square's reach along n: all three >= 0 at a pixel centre means the square is inside.
  @location(3) @interpolate(flat) e0: vec3f,
  @location(4) @interpolate(flat) e1: vec3f,
  @location(5) @interpolate(flat) e2: vec3f,
  // The covered area of a pixel inside the triangle: +-1 by its orientation (the CPU's sign).
  @location(6) @interpolate(flat) inside: f32,
}

fn cross2(a: vec2f, b: vec2f) -> f32 {
  return a.x * b.y - a.y * b.x;
}

// Unit normal of edge a -> b pointing out of a triangle of orientation o.
fn outward(a: vec2f, b: vec2f, o: f32) -> vec2f {
  let d = normalize(b - a);
  return o * vec2f(d.y, -d.x);
}

// Edge a -> b of a triangle of orientation o as (inward normal, offset - reach of a pixel).
fn inner(a: vec2f, b: vec2f, o: f32) -> vec3f {
  let n = -outward(a, b, o);
  return vec3f(n, -dot(n, a) - 0.5 * (abs(n.x) + abs(n.y)));
}

@vertex
fn vs(@builtin(vertex_index) vi: u32) -> V {
  let t = vi / 12u;
  let k = vi % 12u;
  // Hexagon vertex: a fan of 4 triangles from vertex 0.
  let j = select(k / 3u + k % 3u, 0u, k % 3u == 0u);
  let q0 = tris[2u * t];
  let q1 = tris[2u * t + 1u];
  let p = array<vec2f, 3>(q0.xy, q0.zw, q1.xy);
  let o = sign(cross2(p[1] - p[0], p[2] - p[0]));
  // Vertex j: corner m's bevel meets the incoming (even j) or outgoing (odd j) edge's offset.
  let m = j / 2u;
  let prev = p[(m + 2u) % 3u];
  let cur = p[m];
  let next = p[(m + 1u) % 3u];
  let n0 = outward(prev, cur, o);
  let n1 = outward(cur, next, o);
  // The bevel's normal bisects the corner's outer angle; near a needle point n0 + n1 vanishes,
  // the (inner) edge directions do not.
  let w = n0 + n1;
  let v = -(normalize(prev - cur) + normalize(next - cur));
  let b = normalize(select(v, w, dot(w, w) >= dot(v, v)));
  let n = select(n1, n0, j % 2u == 0u);
  // Where n.x = RD and b.x = RD meet (n.b >= 0: the bevel turns by at most 90 degrees).
  var q = cur + RD * (n + b) / (1.0 + dot(n, b));
  if (o == 0.0) {
    q = cur;
  }
  let size = vec2f(u.size);
  var out: V;
  out.pos = vec4f(q.x / size.x * 2.0 - 1.0, 1.0 - q.y / size.y * 2.0, 0.0, 1.0);
  out.ab = q0;
  out.c = q1.xy;
  out.shape = bitcast<u32>(q1.z);
  out.e0 = inner(p[0], p[1], o);
  out.e1 = inner(p[1], p[2], o);
  out.e2 = inner(p[2], p[0], o);
  // Positive shoelace area (y down) winds the CPU's cells negatively.
  out.inside = -o;
  return out;
}

// Signed area of pixel [px, px + 1] x [py, py + 1] right of edge a -> b, as the CPU's cells
// count it (downward edges positive). Computed from the edge's upper end whichever way it runs,
// so an edge shared by two triangles cancels exactly. Branch-free (SIMD lanes stay together).
fn edge_area(a: vec2f, b: vec2f, px: f32, py: f32) -> f32 {
  let down = a.y < b.y;
  let p0 = select(b, a, down);
  let p1 = select(a, b, down);
  let dy = p1.y - p0.y;
  let ya = max(p0.y, py);
  let yb = min(p1.y, py + 1.0);
  let h = max(yb - ya, 0.0) * select(-1.0, 1.0, down);
  let dxdy = select((p1.x - p0.x) / dy, 0.0, dy == 0.0);
  let xa = select(p0.x + (ya - p0.y) * dxdy, p0.x, ya == p0.y);
  let xb = select(p0.x + (yb - p0.y) * dxdy, p1.x, yb == p1.y);
  let lo = min(xa, xb) - px;
  let hi = max(xa, xb) - px;
  // The piece spreads h evenly over x in [lo, hi]: left of the pixel counts fully, inside it by
  // the part of the pixel right of it, right of it not at all.
  let left = max(min(hi, 0.0) - lo, 0.0);
  let a0 = clamp(lo, 0.0, 1.0);
  let b0 = clamp(hi, 0.0, 1.0);
  let w = hi - lo;
  let mean = select((left + (b0 - a0) * (1.0 - 0.5 * (a0 + b0))) / w, clamp(1.0 - 0.5 * (lo + hi), 0.0, 1.0), w < 1e-6);
  return h * mean;
}

// Winding of edge a -> b at the pixel centre, by the CPU's rule (rows whose centre is in
// [y0, y1), pixels from ceil(x - 0.5) on).
fn edge_sample(a: vec2f, b: vec2f, px: f32, py: f32) -> i32 {
  if (a.y == b.y) {
    return 0;
  }
  var p0 = a;
  var p1 = b;
  var d = 1;
  if (p0.y > p1.y) {
    p0 = b;
    p1 = a;
    d = -1;
  }
  let yc = py + 0.5;
  if (yc < p0.y || yc >= p1.y) {
    return 0;
  }
  let x = p0.x + (yc - p0.y) * (p1.x - p0.x) / (p1.y - p0.y);
  return select(0, d, ceil(x - 0.5) <= px);
}

@fragment
fn fs(v: V) {
  let pix = vec2u(v.pos.xy);
  let px = f32(pix.x);
  let py = f32(pix.y);
  let a = v.ab.xy;
  let b = v.ab.zw;
  let c = v.c;
  var q: i32;
  if ((u.flags & 1u) != 0u) {
    let m = v.pos.xy;
    let d = vec3f(dot(v.e0.xy, m), dot(v.e1.xy, m), dot(v.e2.xy, m)) + vec3f(v.e0.z, v.e1.z, v.e2.z);
    if (all(d >= vec3f(1e-3))) {
      q = i32(v.inside * COVERAGE_SCALE);
    } else {
      let area = edge_area(a, b, px, py) + edge_area(b, c, px, py) + edge_area(c, a, px, py);
      q = i32(round(area * COVERAGE_SCALE));
    }
  } else {
    q = edge_sample(a, b, px, py) + edge_sample(b, c, px, py) + edge_sample(c, a, px, py);
  }
  if (q == 0) {
    return;
  }
  let bin = (pix.y / 16u) * u.cols + pix.x / 16u;
  // The shape's slot in its bin: a binary search of the bin's ascending shape list.
  var lo = starts[bin];
  let end = starts[bin + 1u];
  var hi = end;
  while (lo < hi) {
    let mid = (lo + hi) / 2u;
    if (items[mid] < v.shape) {
      lo = mid + 1u;
    } else {
      hi = mid;
    }
  }
  if (lo >= end || items[lo] != v.shape) {
    return;
  }
  atomicAdd(&cov[lo * 256u + (pix.y % 16u) * 16u + pix.x % 16u], q);
}
