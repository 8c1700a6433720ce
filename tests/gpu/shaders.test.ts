// The WGSL shaders: the generated module is up to date and every shader compiles on the device.
// (That every raster op has its GPU pass and WGSL file is src/ops/ops.test.ts.)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SHADERS } from '../../src/backends/gpu/shaders/index.js';
import type { GpuBackend } from '../../src/backends/gpu/backend.js';
import { GPU, gpuTest } from './harness.js';
// @ts-expect-error: a plain .mjs build script without types
import { generate } from '../../scripts/gen-shaders.mjs';

describe('shaders', () => {
  test('src/backends/gpu/shaders/index.ts is up to date (run node scripts/gen-shaders.mjs)', () => {
    expect(readFileSync(path.resolve('src/backends/gpu/shaders/index.ts'), 'utf8')).toBe((generate as () => string)());
  });

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
