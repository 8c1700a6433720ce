// stroke-solid: the CPU builds each group's outline rings (src/geometry/stroke.ts: segment quads,
// joins, caps, all positively wound) and the fill-solid scanline kernel fills their nonzero union.
//!include fill-solid
