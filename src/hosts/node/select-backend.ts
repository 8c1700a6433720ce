// Backend choice for the Node hosts (CLI, server): 'auto' | 'gpu' | 'cpu', default from
// TILEGRAPH_BACKEND. The GPU device itself is made and shared by src/hosts/node/gpu.ts.
import { CpuBackend, type Backend } from '../../index.js';
import { BACKEND_CHOICES, closeGpu, createBackend, parseBackendChoice, type BackendChoice } from './gpu.js';

export { BACKEND_CHOICES, type BackendChoice };

export interface SelectedBackend {
  backend: Backend;
  /** Release the device (the GPU backend holds one) so the process can exit; a no-op for the CPU. */
  close(): Promise<void>;
}

/** TILEGRAPH_BACKEND when it names a choice, else 'auto'. */
export function defaultBackendChoice(env: NodeJS.ProcessEnv = process.env): BackendChoice {
  try {
    return parseBackendChoice(env.TILEGRAPH_BACKEND);
  } catch {
    return 'auto';
  }
}

export async function selectBackend(choice: BackendChoice = defaultBackendChoice()): Promise<SelectedBackend> {
  if (choice === 'cpu') return { backend: new CpuBackend(), close: async () => undefined };
  const backend = await createBackend(choice);
  return { backend, close: async () => (backend.name === 'gpu' ? closeGpu() : undefined) };
}
