// The WebGPU backend's public surface. Hosts create the GPUDevice and pass it in.
export { GpuBackend, type GpuBackendOptions } from './backend.js';
export { GpuImage, isGpuImage } from './image.js';
export type { GpuOp, GpuEncoder } from './encoder.js';
export { emptyTimings, type GpuTimings, type PipeliningStats } from './session.js';
