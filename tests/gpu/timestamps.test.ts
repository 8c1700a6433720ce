// GPU timing (GpuBackendOptions.timestamps, TILEGRAPH_GPU_TIMESTAMPS=1; the GPU bench's "gpu"
// column): a timestamp before the first pass and after the last pass of every command buffer,
// read back with the render's output. It must not change the render: the same pixels, passes,
// submits and readbacks as without it. Witness for the time: the GPU's own clock (positive, and
// no longer than the render's wall-clock latency that contains it).
import { GpuBackend } from '../../src/backends/gpu/backend.js';
import { Renderer, type Raster } from '../../src/index.js';
import { createGpuDevice } from '../../src/hosts/node/gpu.js';
import { gpuDescribe, randomSource, PARITY_WINDOW } from './harness.js';

const STYLE = {
  output: 'out',
  sources: randomSource(5, { polygons: 8, lines: 4 }),
  nodes: {
    f: { op: 'features', source: 'pts' },
    n: { op: 'noise', kind: 'value', 'scale-px': 9, octaves: 2, seed: 4, output: 'raster' },
    land: { op: 'fill-solid', features: '@f', fill: '#cc8844' },
    b: { op: 'blur', input: '@land', sigma: 2 },
    // contour runs on the CPU inside the GPU render: its field is downloaded (a second submit).
    field: { op: 'noise', kind: 'simplex', 'scale-px': 20, octaves: 1, seed: 2 },
    iso: { op: 'contour', field: '@field', interval: 0.25 },
    lines: { op: 'stroke-solid', features: '@iso', width: 1, color: '#222222' },
    m: { op: 'blend', base: '@n', over: '@b' },
    out: { op: 'blend', base: '@m', over: '@lines' },
  },
};

gpuDescribe('GPU timestamps', () => {
  test('every command buffer is timed; the render is unchanged', async () => {
    const before = process.env.TILEGRAPH_GPU_TIMESTAMPS;
    process.env.TILEGRAPH_GPU_TIMESTAMPS = '1';
    const made = await createGpuDevice({ allowFallback: true });
    if (before === undefined) delete process.env.TILEGRAPH_GPU_TIMESTAMPS;
    else process.env.TILEGRAPH_GPU_TIMESTAMPS = before;
    expect(made).toBeDefined();
    if (!made!.device.features.has('timestamp-query')) {
      console.warn('this adapter has no timestamp-query: GPU timing is not tested');
      made!.device.destroy();
      return;
    }
    const timed = new GpuBackend({ device: made!.device, timestamps: true });
    const plain = new GpuBackend({ device: (await createGpuDevice({ allowFallback: true }))!.device });
    try {
      const r = Renderer.create(STYLE);
      const a = await r.renderWindow(PARITY_WINDOW, undefined, { backend: timed });
      const b = await r.renderWindow(PARITY_WINDOW, undefined, { backend: plain });
      expect(a.stats).toEqual(b.stats);
      expect(a.stats.submits).toBe(2);
      expect(Buffer.from((a.raster as Raster).data.buffer).equals(Buffer.from((b.raster as Raster).data.buffer))).toBe(true);
      expect(timed.timings.gpuTimed).toBe(2);
      expect(timed.timings.gpuMs).toBeGreaterThan(0);
      expect(timed.timings.gpuMs).toBeLessThanOrEqual(timed.timings.renderMs);
      expect(plain.timings).toMatchObject({ gpuTimed: 0, gpuMs: 0 });
      // A second render reuses the pooled query sets and still measures.
      await r.renderWindow(PARITY_WINDOW, undefined, { backend: timed });
      expect(timed.timings.gpuTimed).toBe(4);
    } finally {
      timed.destroy();
      plain.destroy();
    }
  }, 120_000);
});
