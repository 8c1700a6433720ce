// text: the CPU lays out and places labels and moves their glyph and halo rings into canvas pixels
// (plan.ts); the coverage pass accumulates their winding area and the fill-solid composite draws
// them in paint order (src/backends/gpu/area.ts runs both shaders).
//!include fill-solid
