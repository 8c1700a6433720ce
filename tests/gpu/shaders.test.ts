// The WGSL shaders: the generated module matches src/shaders/*.wgsl, every core raster op has a
// GPU module and a shader that compiles, and the op modules name existing shader files.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { OPS } from '../../src/index.js';
import { SHADERS } from '../../src/backends/gpu/shaders/index.js';
import { GpuBackend } from '../../src/backends/gpu/backend.js';
import { GPU, gpuTest } from './harness.js';
// @ts-expect-error: a plain .mjs build script without types
import { generate } from '../../scripts/gen-shaders.mjs';

const CORE_RASTER_OPS = ['solid', 'blend', 'blur', 'color-ramp', 'fill-solid', 'stroke-solid', 'circles', 'density'];

describe('shaders', () => {
  test('src/backends/gpu/shaders/index.ts is up to date (run node scripts/gen-shaders.mjs)', () => {
    expect(readFileSync(path.resolve('src/backends/gpu/shaders/index.ts'), 'utf8')).toBe((generate as () => string)());
  });

  test('every core raster op has a GPU pass and its shader file', () => {
    for (const name of CORE_RASTER_OPS) {
      const op = OPS.get(name)!;
      const wgsl = readdirSync(path.resolve('src/ops', name)).filter((f) => f.endsWith('.wgsl'));
      expect({ name, gpu: !!op.gpu, wgsl: wgsl.length > 0 }).toEqual({ name, gpu: true, wgsl: true });
    }
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
