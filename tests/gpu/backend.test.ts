// Backend choice for hosts (src/hosts/node/gpu.ts): auto | gpu | cpu, TILEGRAPH_BACKEND, the shared device.
import { CpuBackend, TilegraphError } from '../../src/index.js';
import { GpuBackend } from '../../src/backends/gpu/backend.js';
import { createBackend, gpuAdapterSummary, parseBackendChoice } from '../../src/hosts/node/gpu.js';
import { gpuTest } from './harness.js';

describe('backend choice', () => {
  test('parses auto | gpu | cpu (any case, blank means auto) and rejects anything else', () => {
    expect(parseBackendChoice('gpu')).toBe('gpu');
    expect(parseBackendChoice(' CPU ')).toBe('cpu');
    expect(parseBackendChoice('')).toBe('auto');
    expect(parseBackendChoice(undefined)).toBe('auto');
    expect(() => parseBackendChoice('metal')).toThrow(TilegraphError);
    expect(() => parseBackendChoice('metal')).toThrow(/not one of auto, gpu, cpu/);
  });

  test('cpu is the CPU backend', async () => {
    expect(await createBackend('cpu')).toBeInstanceOf(CpuBackend);
  });

  test('TILEGRAPH_BACKEND is the default choice', async () => {
    const old = process.env.TILEGRAPH_BACKEND;
    process.env.TILEGRAPH_BACKEND = 'cpu';
    try {
      expect((await createBackend()).name).toBe('cpu');
      process.env.TILEGRAPH_BACKEND = 'bogus';
      await expect(createBackend()).rejects.toThrow(/backend 'bogus'/);
    } finally {
      if (old === undefined) delete process.env.TILEGRAPH_BACKEND;
      else process.env.TILEGRAPH_BACKEND = old;
    }
  });

  gpuTest('gpu is one shared WebGPU backend; auto takes it only on a hardware adapter', async () => {
    const a = await createBackend('gpu');
    const b = await createBackend('gpu');
    expect(a).toBeInstanceOf(GpuBackend);
    expect(b).toBe(a);
    const adapter = gpuAdapterSummary();
    expect(adapter).toBeDefined();
    const auto = await createBackend('auto');
    // SwiftShader (CI, these machines) is 3-40x slower than the CPU backend: auto declines it.
    expect(auto.name).toBe(adapter!.fallback ? 'cpu' : 'gpu');
    if (/swiftshader/i.test(adapter!.description)) expect(adapter!.fallback).toBe(true);
  });
});
