// Rows for the geometry ops beside GEOS through GDAL's OGR bindings (../shared/peers job 8): the
// Berlin street tile 14/8801/5371, sampled once as a 256 or 512 px tile (world pixels at z14), then
// each op's CPU kernel timed on those feature groups (the peer times the GEOS call on decoded
// geometries). Same jobs and distances in tile pixels as scripts/bench_geos.py; same timing rule.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NodeLoader } from '../dist/hosts/node/index.js';
import { createSourceRegistry } from '../dist/sources/registry.js';
import { OPS } from '../dist/ops/index.js';
import { compileExpr } from '../dist/expr/index.js';
import { bench, record } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = process.env.FIXTURES || path.resolve(HERE, '../../shared/fixtures');
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const want = (job) => !only || only.test(job);
const BERLIN = path.join(FIXTURES, 'mvt/vector-tile-js');

if (!existsSync(BERLIN)) {
  console.log('geometry rows: ../shared/fixtures absent, skipped');
  process.exit(0);
}

const Z = 14,
  X = 8801,
  Y = 5371;
const registry = createSourceRegistry(
  { sources: { b: { type: 'mvt', tiles: ['{z}-{x}-{y}.mvt'], minzoom: 14, maxzoom: 14 } } },
  new NodeLoader({ baseDir: BERLIN }),
);
const source = registry.featureSource('b');

/** An op's context over literal fields and feature inputs (what a render hands the kernel). */
function ctxOf(op, node, inputs, canvas) {
  const spec = { op: op.name, ...node };
  const dflt = (f) => op.fields[f]?.default;
  const exprs = new Map(
    Object.entries(node)
      .filter(([k]) => k.endsWith('-expr'))
      .map(([k, v]) => [k, compileExpr(v, op.fields[k]['x-expr'], k)]),
  );
  return {
    id: 'bench',
    node: spec,
    canvas,
    window: canvas,
    zoom: canvas.z,
    input: (f) => ({ kind: 'features', groups: inputs[f] }),
    has: (f) => spec[f] !== undefined,
    num: (f, fb) => spec[f] ?? fb ?? dflt(f),
    bool: (f, fb) => spec[f] ?? fb ?? dflt(f),
    bound: (f) => spec[f] ?? dflt(f),
    expr: (f) => exprs.get(f),
    resolve: (v) => v,
  };
}

const count = (groups, what) => groups.reduce((s, g) => s + g[what].length, 0);

for (const size of [256, 512]) {
  const canvas = { z: Z, x0: X * size, y0: Y * size, width: size, height: size, tileSize: size };
  const roads = (await source.features('road', canvas)).filter((g) => g.lines.length);
  const landuse = (await source.features('landuse', canvas)).filter((g) => g.polygons.length);
  const water = (await source.features('water', canvas)).filter((g) => g.polygons.length);
  const run = (name, node, inputs) => () => OPS.get(name).cpu(ctxOf(OPS.get(name), node, inputs, canvas));
  const note = `${count(roads, 'lines')} road lines, ${count(landuse, 'polygons')} landuse polygons, ${count(water, 'polygons')} water polygons`;
  const rows = [
    ['8 buffer roads 4 px round', 'buffer (Clipper2 wasm), per feature', run('buffer', { distance: 4, join: 'round' }, { features: roads })],
    ['8 buffer landuse -2 px', 'buffer (Clipper2 wasm), per feature', run('buffer', { distance: -2, join: 'miter' }, { features: landuse })],
    ['8 densify roads 2 px', 'densify', run('densify', { 'target-px': 2 }, { features: roads })],
    ['8 convex hull landuse+roads', 'convex-hull (monotone chain)', run('convex-hull', {}, { features: [...landuse, ...roads] })],
    ['8 centroid landuse', 'centroid, per feature', run('centroid', { 'include-lines': false }, { features: landuse })],
    // As the peer: both sides dissolved (a union of all landuse), then the difference.
    [
      '8 boolean landuse minus water',
      'feature-boolean union, then difference',
      async () => {
        const all = await run('feature-boolean', { operation: 'union' }, { a: landuse, b: [] })();
        return run('feature-boolean', { operation: 'difference' }, { a: all.groups, b: water })();
      },
    ],
    ['8 dash roads 6/4 px', 'dash', run('dash', { 'dash-px': 6, 'gap-px': 4 }, { features: roads })],
    ['8 dot-density landuse 3 px', 'dot-density', run('dot-density', { density: 20000, 'spacing-px': 3 }, { features: landuse })],
  ];
  for (const [job, what, fn] of rows) if (want(job)) record(job, `tilegraph cpu ${what}`, size, await bench(fn), note);
}
