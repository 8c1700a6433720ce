/// <reference types="@webgpu/types" />
// WebGPU in a browser (page or worker): navigator.gpu makes the device the core's GpuBackend renders on.
import { TilegraphError } from '../../errors.js';
import { GpuBackend } from '../../backends/gpu/index.js';

export interface BrowserGpu {
  backend: GpuBackend;
  /** "vendor architecture", for the page's status line. */
  adapter: string;
}

function isFallback(adapter: GPUAdapter): boolean {
  const info = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  const legacy = (adapter as GPUAdapter & { isFallbackAdapter?: boolean }).isFallbackAdapter;
  return !!info.isFallbackAdapter || !!legacy || /swiftshader/i.test(`${info.vendor} ${info.architecture} ${info.description}`);
}

async function requestAdapter(allowFallback: boolean): Promise<GPUAdapter | undefined> {
  const gpu = (globalThis.navigator as Navigator | undefined)?.gpu;
  if (!gpu) return undefined;
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' }).catch(() => null);
  if (!adapter || (!allowFallback && isFallback(adapter))) return undefined;
  return adapter;
}

/**
 * A GPU backend on navigator.gpu, or undefined when there is none. A software adapter
 * (SwiftShader) counts only with `allowFallback`: it is slower than the CPU backend.
 */
export async function requestBrowserGpu(allowFallback: boolean): Promise<BrowserGpu | undefined> {
  const adapter = await requestAdapter(allowFallback);
  if (!adapter) return undefined;
  const device = await adapter.requestDevice();
  const info = adapter.info;
  return {
    adapter: `${info.vendor} ${info.architecture}`.trim() || 'unknown adapter',
    backend: new GpuBackend({
      device,
      // An adapter gives one device; after a loss a new adapter is requested.
      recreate: async () => {
        const next = await requestAdapter(allowFallback);
        if (!next) throw new TilegraphError('render', 'the GPU device was lost and no WebGPU adapter is left');
        return next.requestDevice();
      },
    }),
  };
}
