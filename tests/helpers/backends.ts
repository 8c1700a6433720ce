// Backends the test suite loops over: one test body, every available backend (luma.gl style).
import { CpuBackend, type Backend } from '../../src/index.js';
import { gpuBackendForTests } from './gpu.js';

export interface NamedBackend {
  name: 'cpu' | 'gpu';
  backend: Backend;
}

/** The CPU backend always; the GPU backend is added by tests/helpers/gpu.ts when an adapter exists. */
export async function availableBackends(): Promise<NamedBackend[]> {
  const out: NamedBackend[] = [{ name: 'cpu', backend: new CpuBackend() }];
  const gpu = await gpuBackendForTests();
  if (gpu) out.push({ name: 'gpu', backend: gpu });
  return out;
}
