// The GPU backend for tests: Dawn on any adapter (SwiftShader included). With no adapter the
// GPU half of every test is skipped LOUDLY, unless TILEGRAPH_REQUIRE_GPU=1 (CI), which fails.
import type { Backend } from '../../src/index.js';
import { createGpuBackend } from '../../src/hosts/node/gpu.js';

let warned = false;

export async function gpuBackendForTests(): Promise<Backend | undefined> {
  const gpu = await createGpuBackend({ allowFallback: true });
  if (gpu) return gpu;
  const msg =
    "NO WebGPU ADAPTER: the GPU backend is NOT being tested. Install Debian's chromium and libvulkan1 (SwiftShader) " +
    'and set VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json (docs/gpu.md).';
  if (process.env.TILEGRAPH_REQUIRE_GPU === '1') throw new Error(`${msg} TILEGRAPH_REQUIRE_GPU=1 makes this a failure.`);
  if (!warned) {
    warned = true;
    console.warn(`\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n!!! ${msg}\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n`);
  }
  return undefined;
}
