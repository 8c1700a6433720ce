// The GPU backend's structure: one command buffer, one submit and one readback per tile; pooled
// textures and buffers and cached pipelines (nothing is created in the steady state); device loss
// recovered by one retry; concurrent renders on one device.
import { GpuBackend } from '../../src/backends/gpu/backend.js';
import { createGpuDevice } from '../../src/hosts/node/gpu.js';
import { CpuBackend, Renderer, type Raster } from '../../src/index.js';
import { gpu, gpuDescribe, randomFeatures, renderOn, testWindow } from './harness.js';
import { hookedBackend } from '../helpers/backends.js';

const TS = 64;
const W = testWindow(TS);

/** Every GPU op in one style: 14 passes (blur at sigma 1.5 is 2; fill-solid and stroke-solid 2: a coverage render pass and a composite; every other op 1). */
const STYLE = {
  output: 'out',
  params: { tint: { type: 'color', default: '#3366aa' } },
  sources: { pts: { type: 'geojson', data: randomFeatures(7, W, { polygons: 6, lines: 5, points: 30 }, 20) } },
  nodes: {
    f: { op: 'features' },
    bg: { op: 'solid', color: '$tint' },
    fill: { op: 'fill-solid', features: '@f', fill: '#aa5533cc' },
    st: { op: 'stroke-solid', features: '@f', color: '#202020', width: 2, join: 'round' },
    c: { op: 'circles', features: '@f', color: '#ffcc00', radius: 3, 'stroke-width': 1 },
    d: { op: 'density', features: '@f', radius: 10 },
    ramp: {
      op: 'color-ramp',
      field: '@d',
      stops: [
        { value: 0, color: '#00000000' },
        { value: 1, color: '#ff00ff' },
      ],
    },
    bl: { op: 'blur', input: '@fill', sigma: 1.5 },
    b1: { op: 'blend', base: '@bg', over: '@bl' },
    b2: { op: 'blend', base: '@b1', over: '@st', mode: 'multiply' },
    b3: { op: 'blend', base: '@b2', over: '@c' },
    out: { op: 'blend', base: '@b3', over: '@ramp', mode: 'screen' },
  },
};
const PASSES = 14;

async function ownBackend(): Promise<GpuBackend | undefined> {
  if (!(await gpu())) return undefined;
  const made = await createGpuDevice({ allowFallback: true });
  if (!made) throw new Error('the shared GPU backend exists but a second device could not be made');
  return new GpuBackend({ device: made.device, recreate: made.recreate });
}

/** Counts the device's create* calls (the steady state should make none). */
function countCreates(device: GPUDevice): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of ['createTexture', 'createBuffer', 'createComputePipeline', 'createRenderPipeline', 'createShaderModule'] as const) {
    const orig = (device[m] as (...a: unknown[]) => unknown).bind(device);
    counts[m] = 0;
    (device as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => {
      counts[m]!++;
      return orig(...a);
    };
  }
  return counts;
}

function same(a: Raster, b: Raster): boolean {
  return a.width === b.width && a.height === b.height && a.data.every((v, i) => v === b.data[i]);
}

gpuDescribe('GPU render structure', () => {
  let backend: GpuBackend;
  beforeAll(async () => {
    backend = (await ownBackend())!;
  });
  afterAll(() => backend?.destroy());

  test('one submit and one readback per tile; passes and bytes counted', async () => {
    const { stats, raster } = await renderOn(backend, STYLE, W);
    // + 1 pass: the readback widens the output to f32 on the GPU (16 bytes a pixel, no row padding).
    expect(stats).toEqual({ nodes: 12, cached: 0, passes: PASSES + 1, submits: 1, readbacks: 1, bytesReadBack: TS * TS * 16, inPlace: 0 });
    expect(raster.width).toBe(TS);
    // The output is not blank: the background alone is opaque.
    expect(raster.data[3]).toBeCloseTo(1, 3);
  });

  test('steady state: a second tile creates no texture, buffer, shader or pipeline', async () => {
    await renderOn(backend, STYLE, W);
    const counts = countCreates(backend.device);
    const { stats } = await renderOn(backend, STYLE, W, { tint: '#112233' });
    expect(stats.submits).toBe(1);
    expect(counts).toEqual({ createTexture: 0, createBuffer: 0, createComputePipeline: 0, createRenderPipeline: 0, createShaderModule: 0 });
    expect(backend.pooledBytes).toBeGreaterThan(0);
  });

  test('within a render, a texture whose last reader is encoded serves a later node', async () => {
    // A chain of 8 raster nodes, each read only by the next: two textures take turns.
    const nodes: Record<string, object> = { n0: { op: 'solid', color: '#336699' } };
    for (let i = 1; i < 8; i++) nodes[`n${i}`] = { op: 'blend', base: `@n${i - 1}`, over: `@n${i - 1}`, mode: 'multiply', opacity: 0.5 };
    const chain = { output: 'n7', nodes };
    const fresh = await ownBackend();
    try {
      const counts = countCreates(fresh!.device);
      const { stats, raster } = await renderOn(fresh!, chain, W);
      expect(stats.passes).toBe(8 + 1); // + the readback's pass
      expect(counts.createTexture).toBeLessThanOrEqual(3);
      const cpu = await renderOn(new CpuBackend(), chain, W);
      expect(Math.abs(raster.data[0]! - cpu.raster.data[0]!)).toBeLessThan(1e-3);
    } finally {
      fresh?.destroy();
    }
  });

  test('a device lost between renders is replaced before the next render', async () => {
    const before = await renderOn(backend, STYLE, W);
    const made = backend.devicesCreated;
    backend.device.destroy();
    const after = await renderOn(backend, STYLE, W);
    expect(backend.devicesCreated).toBe(made + 1);
    expect(after.stats.submits).toBe(1);
    expect(same(before.raster, after.raster)).toBe(true);
  });

  test('a device lost during a render: the device is replaced and the render retried once', async () => {
    const reference = await renderOn(backend, STYLE, W);
    const made = backend.devicesCreated;
    const inner = backend;
    let killed = 0;
    // Destroys the device once, in the middle of encoding (at node 'st').
    const killer = hookedBackend(inner, {
      before(_op, ctx) {
        if (ctx.id === 'st' && killed++ === 0) inner.device.destroy();
      },
    });
    const { raster, stats } = await renderOn(killer, STYLE, W);
    expect(killed).toBe(2); // 'st' ran in the failed render and in the retry
    expect(backend.devicesCreated).toBe(made + 1);
    expect(stats.submits).toBe(1); // the retry's own stats
    expect(same(raster, reference.raster)).toBe(true);
  });

  test('concurrent renders on one device give the same tiles as sequential ones', async () => {
    const tints = ['#000000', '#ff0000', '#00ff00', '#0000ff'];
    const sequential: Raster[] = [];
    for (const tint of tints) sequential.push((await renderOn(backend, STYLE, W, { tint })).raster);
    const concurrent = await Promise.all(tints.map((tint) => renderOn(backend!, STYLE, W, { tint })));
    concurrent.forEach((r, i) => {
      expect(r.stats.submits).toBe(1);
      expect(same(r.raster, sequential[i]!)).toBe(true);
    });
    // The tints differ, so the four tiles do too.
    expect(same(sequential[0]!, sequential[1]!)).toBe(false);
  });

  test('a geometry op reading a GPU field downloads only that field (counted)', async () => {
    const style = {
      output: 'out',
      sources: STYLE.sources,
      nodes: {
        f: { op: 'features' },
        d: { op: 'density', features: '@f', radius: 10 },
        iso: { op: 'contour', field: '@d', interval: 0.05 },
        out: { op: 'stroke-solid', features: '@iso', color: '#000000' },
      },
    };
    const { stats } = await renderOn(backend, style, W);
    // The density field (an r32float canvas: the window grown by the stroke's margin, rows padded
    // to 256 bytes) and the output (f32 RGBA, widened on the GPU).
    const side = TS + 2 * Renderer.create(style).plan.nodes.get('d')!.margin;
    expect(stats.submits).toBe(2);
    expect(stats.readbacks).toBe(2);
    expect(stats.bytesReadBack).toBe(Math.ceil((side * 4) / 256) * 256 * side + TS * TS * 16);
  });
});
