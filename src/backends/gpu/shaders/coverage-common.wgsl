// Shared by coverage.wgsl (which accumulates) and the fill-solid composite (which reads): the
// fixed-point unit of coverage slots. 2^20 keeps a pixel's rounding under 1e-6 per triangle; a
// slot wraps only where more than 2048 pieces overlap one pixel fully, and even then the clamped
// coverage stays 1 unless the winding area lands within 1 of a multiple of 4096.
const COVERAGE_SCALE: f32 = 1048576.0;
