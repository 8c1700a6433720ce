// A pyramid export on the GPU keeps several tiles in flight on one device: while one tile waits for
// its readback, the next records and submits its passes (GpuBackend.pipelining counts it), and each
// tile is still one submit and one readback of its own.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GpuBackend } from '../../src/backends/gpu/backend.js';
import { createBackend } from '../../src/hosts/node/gpu.js';
import { tilesCommand } from '../../src/hosts/cli/tiles.js';
import { gpuDescribe, randomFeatures } from './harness.js';

const STYLE = {
  name: 'pipelining',
  output: 'out',
  sources: { pts: { type: 'geojson', data: randomFeatures(7, { z: 0, x0: 0, y0: 0, width: 256, height: 256, tileSize: 256 }, { polygons: 12, lines: 6 }, 0) } },
  nodes: {
    f: { op: 'features' },
    sea: { op: 'solid', color: '#a9cfe6' },
    land: { op: 'fill-solid', features: '@f', fill: '#f3efe2' },
    glow: { op: 'blur', input: '@land', sigma: 3 },
    a: { op: 'blend', base: '@sea', over: '@glow', mode: 'multiply' },
    line: { op: 'stroke-solid', features: '@f', width: 1.5, color: '#333333' },
    out: { op: 'blend', base: '@a', over: '@line' },
  },
};

const pngs = (dir: string): number => readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.png')).length;

gpuDescribe('GPU pyramid export', () => {
  test('renders overlap on one device (tile n+1 records while tile n reads back)', async () => {
    const shared = (await createBackend('gpu')) as GpuBackend;
    const before = shared.pipelining.overlapped;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-pipelining-'));
    const style = path.join(dir, 'style.json');
    writeFileSync(style, JSON.stringify(STYLE));
    const out = path.join(dir, 'tiles');
    await tilesCommand({ style, backend: 'gpu', bbox: '-180,-85,180,85', minZoom: 0, maxZoom: 2, out, tileSize: 256, progress: 'none' });
    expect(pngs(out)).toBe(1 + 4 + 16);
    // Most tiles started while another was reading back (two in flight); at least a few must have.
    expect(shared.pipelining.overlapped - before).toBeGreaterThanOrEqual(5);
    expect(shared.pipelining.readingBack).toBe(0);
  });
});
