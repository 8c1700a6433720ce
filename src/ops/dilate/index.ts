import { morphOp } from './morph.js';
import { gpu } from './gpu.js';

/** Per-channel max over a square kernel (premultiplied values): grows bright / opaque regions. */
export const dilate = morphOp('dilate', 'max', 'per-channel max over a square kernel of side 2 radius-px + 1; grows bright / opaque regions', gpu);
