//!part
// The bindings and entry point of a one-input raster pass (//!include filter-pass): the uniform
// block `u` (the shader's `struct U`, first field `size: vec2u`), the input `src` read through
// `loadRGBA(src, u.src, p)`, and the rgba16float output `dst`, written with `fn pixel(g: vec3u)
// -> vec4f` (pixel-main.wgsl). The encoder binds them in this order: uniform, input, output.
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var src: texture_2d<f32>;
@group(0) @binding(2) var dst: texture_storage_2d<rgba16float, write>;

//!include pixel-main
