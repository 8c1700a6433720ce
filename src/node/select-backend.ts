// Backend choice for the Node hosts (CLI, server): 'auto' | 'gpu' | 'cpu', default from
// TILEGRAPH_BACKEND. Delegates to src/node/gpu.ts (the WebGPU host) when that module is present.
import { CpuBackend, RenderError, type Backend } from '../index.js';

export type BackendChoice = 'auto' | 'gpu' | 'cpu';
export const BACKEND_CHOICES: readonly BackendChoice[] = ['auto', 'gpu', 'cpu'];

export interface SelectedBackend {
  backend: Backend;
  /** Release the device (the GPU backend holds one); a no-op for the CPU. */
  close(): Promise<void>;
}

export function defaultBackendChoice(env: NodeJS.ProcessEnv = process.env): BackendChoice {
  const v = env.TILEGRAPH_BACKEND;
  return v === 'gpu' || v === 'cpu' || v === 'auto' ? v : 'auto';
}

interface GpuModule {
  createBackend(choice: BackendChoice): Promise<Backend> | Backend;
  closeBackend?(backend: Backend): Promise<void> | void;
  closeGpu?(): Promise<void> | void;
}

// A variable specifier: the GPU host is optional at build time and loaded only when asked for.
const GPU_MODULE = './gpu.js';

async function gpuModule(): Promise<GpuModule | undefined> {
  try {
    const m = (await import(GPU_MODULE)) as Partial<GpuModule>;
    return typeof m.createBackend === 'function' ? (m as GpuModule) : undefined;
  } catch {
    return undefined;
  }
}

export async function selectBackend(choice: BackendChoice = defaultBackendChoice()): Promise<SelectedBackend> {
  if (choice === 'cpu') return { backend: new CpuBackend(), close: async () => undefined };
  const gpu = await gpuModule();
  if (!gpu) {
    if (choice === 'gpu') throw new RenderError('the WebGPU backend is not available in this build; use --backend cpu or auto');
    return { backend: new CpuBackend(), close: async () => undefined };
  }
  const backend = await gpu.createBackend(choice);
  return {
    backend,
    close: async () => {
      if (backend.name !== 'gpu') return;
      if (gpu.closeBackend) await gpu.closeBackend(backend);
      else if (gpu.closeGpu) await gpu.closeGpu();
      else (backend as { destroy?: () => void }).destroy?.();
    },
  };
}
