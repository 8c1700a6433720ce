// GPU worker pools (src/hosts/node/render-pool.ts): each worker thread renders on a GPU device of
// its own, so the CPU side of GPU renders (sources, geometry, readback decode, PNG encode) runs on
// every core; `tiles` and `serve` use one for the GPU backend (docs/gpu.md). Witnesses: the PNGs,
// decoded by libvips, against the CPU backend's render of the same window (the golden tolerance:
// 2/255 on premultiplied values) and against the in-process GPU render (the same shaders on the
// same adapter: the same pixels).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CpuBackend, tileWindow, toRGBA8, type Window } from '../../src/index.js';
import { createBackend } from '../../src/hosts/node/gpu.js';
import { InProcessRenderer, WorkerPool, type PngRenderer } from '../../src/hosts/node/render-pool.js';
import { loadStyleFile, type LoadedStyle } from '../../src/hosts/node/style-file.js';
import { tilesCommand } from '../../src/hosts/cli/tiles.js';
import { serve } from '../../src/hosts/server/serve.js';
import { decodeWithSharp, premultipliedError } from '../helpers/decode.js';
import { requireBuild, WORKER } from '../server/fixtures.js';
import { gpuDescribe, randomFeatures } from './harness.js';

const STYLE = {
  name: 'pool',
  output: 'out',
  sources: { f: { type: 'geojson', data: randomFeatures(11, { z: 0, x0: 0, y0: 0, width: 256, height: 256, tileSize: 256 }, { polygons: 10, lines: 5 }, 0) } },
  nodes: {
    feats: { op: 'features', source: 'f' },
    sea: { op: 'solid', color: '#a9cfe6' },
    land: { op: 'fill-solid', features: '@feats', fill: '#f3efe2' },
    glow: { op: 'blur', input: '@land', sigma: 2 },
    a: { op: 'blend', base: '@sea', over: '@glow', mode: 'multiply' },
    line: { op: 'stroke-solid', features: '@feats', width: 1.5, color: '#333333' },
    out: { op: 'blend', base: '@a', over: '@line' },
  },
};

let style: LoadedStyle;
let dir: string;

beforeAll(async () => {
  requireBuild();
  dir = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-gpu-pool-'));
  writeFileSync(path.join(dir, 'style.json'), JSON.stringify(STYLE));
  style = await loadStyleFile(path.join(dir, 'style.json'));
});

const WINDOWS: Window[] = [tileWindow({ z: 1, x: 0, y: 0 }, 128), tileWindow({ z: 1, x: 1, y: 1 }, 128)];

/** The largest premultiplied 8-bit difference between a PNG (decoded by libvips) and the CPU backend's render of `w`. */
async function fromCpu(png: Uint8Array, w: Window): Promise<number> {
  const got = await decodeWithSharp(png);
  const { raster } = await style.renderer.renderWindow(w, undefined, { backend: new CpuBackend() });
  expect([got.width, got.height]).toEqual([w.width, w.height]);
  return premultipliedError(got.data, toRGBA8(raster)).max;
}

gpuDescribe('GPU worker pool', () => {
  test('each worker renders on a device of its own: the pixels of the in-process GPU render, within the golden tolerance of the CPU; stats count every render', async () => {
    // The main thread's selection sets up the environment (SwiftShader's ICD, XDG_RUNTIME_DIR) that workers inherit.
    const gpu = await createBackend('gpu');
    const here: PngRenderer = new InProcessRenderer(gpu);
    const pool = new WorkerPool({ size: 2, backend: 'gpu', allowFallback: true, workerUrl: WORKER });
    try {
      expect(pool.backend).toBe('gpu');
      const params = style.renderer.params();
      const pngs = await Promise.all(WINDOWS.map((w) => pool.render(style, w, params)));
      for (let i = 0; i < WINDOWS.length; i++) {
        const local = await here.render(style, WINDOWS[i]!, params);
        expect(premultipliedError((await decodeWithSharp(pngs[i]!)).data, (await decodeWithSharp(local)).data).max).toBe(0);
        expect(await fromCpu(pngs[i]!, WINDOWS[i]!)).toBeLessThanOrEqual(2);
      }
      const stats = await pool.stats();
      expect(stats).toHaveLength(2);
      const sum = (f: (s: (typeof stats)[number]) => number) => stats.reduce((a, s) => a + f(s), 0);
      expect(sum((s) => s.renders)).toBe(2);
      expect(sum((s) => s.png.count)).toBe(2);
      // Rendered on the GPU (not a CPU fallback): one submit and one readback per tile.
      expect(sum((s) => s.gpu?.timings.renders ?? 0)).toBe(2);
      expect(sum((s) => s.gpu?.timings.submits ?? 0)).toBe(2);
      expect(sum((s) => s.gpu?.timings.readbacks ?? 0)).toBe(2);
    } finally {
      await pool.close();
    }
    // Closed: the workers released their devices and ended; a render is refused.
    await expect(pool.render(style, WINDOWS[0]!, style.renderer.params())).rejects.toThrow('closed');
  }, 240_000);

  test('tiles --backend gpu exports through a GPU worker pool; every tile within the golden tolerance of the CPU render', async () => {
    const out = path.join(dir, 'pyramid');
    let seen: PngRenderer | undefined;
    let rendered = 0;
    await tilesCommand({
      style: path.join(dir, 'style.json'),
      backend: 'gpu',
      bbox: '-180,-85,180,85',
      minZoom: 0,
      maxZoom: 1,
      out,
      tileSize: 128,
      progress: 'none',
      concurrency: 2,
      workerUrl: WORKER,
      // 5 tiles: below MIN_TILES_FOR_WORKERS, so ask for the pool.
      minTilesForWorkers: 1,
      beforeClose: async (r) => {
        seen = r;
        rendered = (await (r as WorkerPool).stats()).reduce((a, s) => a + (s.gpu?.timings.renders ?? 0), 0);
      },
    });
    expect(seen).toBeInstanceOf(WorkerPool);
    expect((seen as WorkerPool).backend).toBe('gpu');
    expect(rendered).toBe(5);
    for (const [z, x, y] of [
      [0, 0, 0],
      [1, 0, 0],
      [1, 1, 0],
      [1, 0, 1],
      [1, 1, 1],
    ] as const) {
      expect(await fromCpu(readFileSync(path.join(out, `${z}/${x}/${y}.png`)), tileWindow({ z, x, y }, 128))).toBeLessThanOrEqual(2);
    }
  }, 240_000);

  test('serve --backend gpu renders in a GPU worker pool (--workers 1)', async () => {
    const s = await serve({ style: path.join(dir, 'style.json'), port: 0, workers: 1, workerUrl: WORKER, backend: 'gpu', cacheBytes: 0, log: () => undefined });
    try {
      expect(s.service.renderer).toBeInstanceOf(WorkerPool);
      expect((s.service.renderer as WorkerPool).backend).toBe('gpu');
      const r = await fetch(`${s.url}tiles/1/1/0.png`);
      expect(r.status).toBe(200);
      // The server's tiles are 256 px.
      expect(await fromCpu(new Uint8Array(await r.arrayBuffer()), tileWindow({ z: 1, x: 1, y: 0 }, 256))).toBeLessThanOrEqual(2);
      expect((await (s.service.renderer as WorkerPool).stats())[0]!.gpu?.timings.renders).toBe(1);
    } finally {
      await s.close();
    }
  }, 240_000);
});
