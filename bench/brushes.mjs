// Brush costs (issue 14): `stroke` with a dense brush-solid brush (4 dabs per radius, the default)
// against `stroke-solid` of the same width on the same lines: the road LineStrings of the Berlin
// z14 street tile at 512 px (and 256), decoded tile cached, so the rows time the ops. Target:
// stroke within 3x stroke-solid. Needs `npm run build` first. BENCH_ONLY=<regex> picks rows.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Renderer, TileCache } from '../dist/index.js';
import { bench, record } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = process.env.FIXTURES || path.resolve(HERE, '../../shared/fixtures');
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
if (!existsSync(FIXTURES)) {
  console.log('!!! bench/brushes.mjs: ../shared/fixtures is absent; no brush rows');
  process.exit(0);
}
const berlin = new Uint8Array(readFileSync(path.join(FIXTURES, 'mvt/vector-tile-js/14-8801-5371.mvt')));
const loader = { load: async () => berlin };

const WIDTH = 3;
const style = (paint) => ({
  output: 'out',
  sources: { s: { type: 'mvt', tiles: ['{z}/{x}/{y}'], minzoom: 14, maxzoom: 14 } },
  nodes: {
    road: { op: 'features', source: 's', layer: 'road', 'filter-expr': ['==', ['geometry-type'], 'LineString'] },
    ...paint,
  },
});
const jobs = [
  [
    'B roads stroke-solid',
    'tilegraph cpu stroke-solid',
    style({ out: { op: 'stroke-solid', features: '@road', width: WIDTH, color: '#333333', join: 'round', cap: 'round' } }),
    `${WIDTH} px, round joins and caps`,
  ],
  [
    'B roads stroke (dense brush)',
    'tilegraph cpu stroke + brush-solid',
    style({ pen: { op: 'brush-solid', 'width-px': WIDTH, color: '#333333' }, out: { op: 'stroke', features: '@road', brush: '@pen', 'width-max': 8 } }),
    `${WIDTH} px, 4 dabs per radius (default)`,
  ],
  [
    'B roads stroke (jittered)',
    'tilegraph cpu stroke + brush-solid',
    style({
      pen: { op: 'brush-solid', 'width-px': WIDTH, color: '#333333', hardness: 0.5 },
      out: { op: 'stroke', features: '@road', brush: '@pen', 'width-max': 8, 'scatter-px': 1, 'size-jitter': 0.4, 'opacity-jitter': 0.5 },
    }),
    'soft, scatter 1 px, size and opacity jitter',
  ],
];
for (const [job, tool, s, note] of jobs) {
  if (only && !only.test(job)) continue;
  const r = Renderer.create(s, { loader, tileCache: new TileCache() });
  for (const size of [256, 512]) record(job, tool, size, await bench(() => r.renderTile({ z: 14, x: 8801, y: 5371 }, undefined, { tileSize: size })), note);
}
