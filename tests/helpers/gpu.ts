// The GPU backend for tests: undefined until the WebGPU backend lands (issue 3).
import type { Backend } from '../../src/index.js';

export async function gpuBackendForTests(): Promise<Backend | undefined> {
  return undefined;
}
