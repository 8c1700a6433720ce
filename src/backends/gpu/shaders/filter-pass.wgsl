//!part
// The bindings and entry point of a one-input raster pass (//!include filter-pass): the uniform
// block `u` (the shader's `//!uniform`, first fields `size: vec2u, src: View` or so), the input
// `src` read through `loadRGBA(src, u.src, p)`, and the rgba16float output `dst`, written with
// `fn pixel(g: vec3u) -> vec4f` (pixel-main.wgsl). src/backends/gpu/filter-pass.ts encodes it.
//!bind u: uniform, src: texture, dst: rgba16float

//!include pixel-main
