//!part
// Screen bins (src/backends/gpu/shapes.ts binBoxes): the items reaching the 16 px bin b are
// items[starts[b] .. starts[b + 1]), in input order. The including shader's uniforms hold `bins`,
// the number of bin columns; its `//!bind` comes first, this one goes on numbering.
//!bind starts: array<u32>, items: array<u32>

// The range of `items` listing the bin of pixel p.
fn binRange(p: vec2u) -> vec2u {
  let b = (p.y / 16u) * u.bins + p.x / 16u;
  return vec2u(starts[b], starts[b + 1u]);
}
