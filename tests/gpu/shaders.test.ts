// The WGSL shaders: every shader compiles on the device. (That every raster op has its GPU pass and
// WGSL file is src/ops/ops.test.ts; the bundle is built from the .wgsl files before the tests.)
import { SHADERS } from '../../src/backends/gpu/shaders/index.js';
import type { GpuBackend } from '../../src/backends/gpu/backend.js';
import { GPU, gpuTest } from './harness.js';

describe('shaders', () => {
  gpuTest('every shader compiles on the device', async () => {
    const device = (GPU as GpuBackend).device;
    const problems: string[] = [];
    for (const [name, code] of Object.entries(SHADERS)) {
      if (name === 'common') continue;
      const info = await device.createShaderModule({ label: name, code: SHADERS.common + '\n' + code }).getCompilationInfo();
      for (const m of info.messages) if (m.type === 'error') problems.push(`${name}.wgsl:${m.lineNum}: ${m.message}`);
    }
    expect(problems).toEqual([]);
  });
});
