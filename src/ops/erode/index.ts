import { morphOp } from '../dilate/morph.js';
import { gpu } from './gpu.js';

/** Per-channel min over a square kernel (premultiplied values): shrinks bright / opaque regions. */
export const erode = morphOp(
  'erode',
  'min',
  'per-channel min over a square kernel of side 2 radius-px + 1; shrinks bright / opaque regions and removes anything thinner than the kernel',
  gpu,
);
