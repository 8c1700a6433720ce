// stroke-solid: the CPU builds each group's outline pieces (src/geometry/stroke.ts: segment quads,
// joins, caps, all positively wound), the coverage pass accumulates their winding area and the
// fill-solid composite draws their nonzero union (src/backends/gpu/area.ts runs both shaders).
//!include fill-solid
