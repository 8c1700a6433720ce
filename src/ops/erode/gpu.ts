// erode on the GPU: dilate's passes with min (erode.wgsl includes dilate.wgsl).
import { morphGpu } from '../dilate/gpu.js';

export const gpu = morphGpu('erode', 'min');
