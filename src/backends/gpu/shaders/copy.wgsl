// A raster view materialised into a texture of its own size (zeros outside its valid rect).
//!uniform size: vec2u, src: View

//!include filter-pass

fn pixel(g: vec3u) -> vec4f {
  return loadRGBA(src, u.src, vec2i(g.xy));
}
