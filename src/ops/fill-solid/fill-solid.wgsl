// fill-solid (and stroke-solid, whose outline rings are built on the CPU): the exact-area
// scanline rasterizer of src/cpu/rasterize.ts, one invocation per canvas row. The CPU lists the
// edges reaching each row (grouped by shape, in paint order). For each shape the row's edges
// add signed area/cover into the row's cells, a running sum
// gives coverage min(1, |sum|) (nonzero rule; centre-sampled winding when antialias is off),
// and the shape's premultiplied colour is composited source-over. Rows are independent, so the
// CPU's sums are reproduced in the same order (in f32 instead of f64).
struct U {
  size: vec2u,
  antialias: u32,
}

@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var dst: texture_storage_2d<rgba16float, write>;
// x0, y0, x1, y1 in canvas pixels, sign already applied as the edge's direction.
@group(0) @binding(2) var<storage, read> edges: array<vec4f>;
// Premultiplied colour per shape, and the shape of every edge.
@group(0) @binding(3) var<storage, read> colors: array<vec4f>;
@group(0) @binding(4) var<storage, read> edge_shape: array<u32>;
// The edges reaching each row, in paint order: row_edges[row_start[r] .. row_start[r + 1]).
@group(0) @binding(5) var<storage, read> row_start: array<u32>;
@group(0) @binding(6) var<storage, read> row_edges: array<u32>;
// Area/cover cells: H rows of W + 2 (two spill cells), zero on entry and left zero.
@group(0) @binding(7) var<storage, read_write> acc: array<f32>;
// The row's composited colour.
@group(0) @binding(8) var<storage, read_write> col: array<vec4f>;

var<private> base: u32;
var<private> c0: i32;
var<private> c1: i32;

fn touch(a: i32, b: i32) {
  c0 = min(c0, a);
  c1 = max(c1, b);
}

fn add(c: i32, v: f32) {
  acc[base + u32(c)] += v;
}

// The signed height h of a row piece from x = xa to x = xb, spread over the cells it crosses.
fn cells(xa: f32, xb: f32, h0: f32) {
  let W = f32(u.size.x);
  var h = h0;
  var lo = min(xa, xb);
  var hi = max(xa, xb);
  if (lo >= W) {
    return;
  }
  if (hi <= 0.0) {
    add(0, h);
    touch(0, 0);
    return;
  }
  if (lo < 0.0 || hi > W) {
    let k = h / (hi - lo);
    if (lo < 0.0) {
      add(0, k * -lo);
      touch(0, 0);
      h -= k * -lo;
      lo = 0.0;
    }
    if (hi > W) {
      h -= k * (hi - W);
      hi = W;
    }
  }
  let f0 = floor(lo);
  let c = i32(f0);
  if (hi <= f0 + 1.0) {
    let f = (lo + hi) * 0.5 - f0;
    add(c, h * (1.0 - f));
    add(c + 1, h * f);
    touch(c, c + 1);
    return;
  }
  let cl = i32(ceil(hi)) - 1;
  let k = h / (hi - lo);
  var w = f0 + 1.0 - lo;
  var hc = k * w;
  add(c, hc * w * 0.5);
  add(c + 1, hc * (1.0 - w * 0.5));
  let half = k * 0.5;
  for (var x = c + 1; x < cl; x++) {
    add(x, half);
    add(x + 1, half);
  }
  w = hi - f32(cl);
  hc = k * w;
  add(cl, hc * (1.0 - w * 0.5));
  add(cl + 1, hc * w * 0.5);
  touch(c, cl + 1);
}

// Below 1e-6 is rounding left by cancelled edges, not coverage (the CPU's f64 sums use 1e-9).
fn coverage(s: f32) -> f32 {
  if (u.antialias != 0u) {
    let a = abs(s);
    return select(min(a, 1.0), 0.0, a <= 1e-6);
  }
  return select(0.0, 1.0, round(s) != 0.0);
}

fn over(i: u32, cov: f32, c: vec4f) {
  if (cov <= 0.0) {
    return;
  }
  col[i] = c * cov + col[i] * (1.0 - c.a * cov);
}

// Sum the row's cells into coverage and composite the shape's colour, clearing the cells.
fn sweep(row: u32, paint: vec4f) {
  if (c1 < c0) {
    return;
  }
  let W = i32(u.size.x);
  let pix = row * u.size.x;
  let last = min(c1, W - 1);
  var sum = 0.0;
  var x = c0;
  for (; x <= last; x++) {
    sum += acc[base + u32(x)];
    acc[base + u32(x)] = 0.0;
    over(pix + u32(x), coverage(sum), paint);
  }
  for (var k = x; k <= c1; k++) {
    acc[base + u32(k)] = 0.0;
  }
  // Right of the last touched cell the sum is constant: a shape running off the right edge.
  let tail = coverage(sum);
  if (tail > 0.0) {
    for (; x < W; x++) {
      over(pix + u32(x), tail, paint);
    }
  }
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let row = g.x;
  if (row >= u.size.y) {
    return;
  }
  let W = i32(u.size.x);
  let H = f32(u.size.y);
  let y = f32(row);
  base = row * (u.size.x + 2u);
  var shape = 0xffffffffu;
  c0 = 0x7fffffff;
  c1 = -1;
  for (var k = row_start[row]; k < row_start[row + 1u]; k++) {
    let e = row_edges[k];
    let s = edge_shape[e];
    if (s != shape) {
      // Edges come grouped by shape in paint order: the previous shape is complete.
      if (shape != 0xffffffffu) {
        sweep(row, colors[shape]);
      }
      shape = s;
      c0 = 0x7fffffff;
      c1 = -1;
    }
    var p = edges[e];
    var d = 1.0;
    if (p.y > p.w) {
      p = p.zwxy;
      d = -1.0;
    }
    if (u.antialias != 0u) {
      let ya = max(max(p.y, 0.0), y);
      let yb = min(y + 1.0, min(p.w, H));
      if (yb <= ya) {
        continue;
      }
      // x from the edge's own start, as the CPU does, so long edges do not drift.
      let dxdy = (p.z - p.x) / (p.w - p.y);
      let xa = select(p.x + (ya - p.y) * dxdy, p.x, ya == p.y);
      let xb = select(p.x + (yb - p.y) * dxdy, p.z, yb == p.w);
      cells(xa, xb, (yb - ya) * d);
    } else {
      let yc = y + 0.5;
      if (yc < p.y || yc >= p.w) {
        continue;
      }
      let dxdy = (p.z - p.x) / (p.w - p.y);
      var c = i32(ceil(p.x + (yc - p.y) * dxdy - 0.5));
      if (c >= W) {
        continue;
      }
      c = max(c, 0);
      add(c, d);
      touch(c, c);
    }
  }
  if (shape != 0xffffffffu) {
    sweep(row, colors[shape]);
  }
  let pix = row * u.size.x;
  for (var x = 0u; x < u.size.x; x++) {
    textureStore(dst, vec2u(x, row), col[pix + x]);
  }
}
