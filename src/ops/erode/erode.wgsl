// erode: the dilate pass with is_max = 0 (per-channel min).
//!include dilate
