// Selecting a vector tile layer's features before sampling (VectorTileSource.selectedFeatures, the
// features node's filter): the groups are those of the whole layer sampled and then filtered, the
// filter's verdicts those of MapLibre's style-spec (featureFilter) on vector-tile-js's own features.
import path from 'node:path';
import { readdirSync } from 'node:fs';
import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { featureFilter } from '@maplibre/maplibre-gl-style-spec';
import { createMvtSource } from '../../src/sources/mvt.js';
import { NodeLoader } from '../../src/hosts/node/loader.js';
import { GroupCollector, mergeableIds, unitRect, type TileFeature } from '../../src/sources/sample.js';
import type { SourceTileRef } from '../../src/sources/tiles.js';
import type { FeatureSelection } from '../../src/sources/types.js';
import { compileExpr, type ExprFeature } from '../../src/expr/index.js';
import type { Canvas, FeatureGroup } from '../../src/types.js';
import { TileCache } from '../../src/sources/cache.js';
import { ctxOf, MVT_FIXTURES, readBytes } from './helpers.js';

const chicago = () =>
  createMvtSource(
    'streets',
    { type: 'mvt', tiles: ['chicago/{z}-{x}-{y}.mvt'], minzoom: 13, maxzoom: 13 },
    ctxOf(new NodeLoader({ baseDir: MVT_FIXTURES }), new TileCache()),
  );

/** A features node's selection for a filter (src/ops/features): compiled as the node compiles it. */
function selection(filter: unknown, zoom: number): FeatureSelection {
  const f = compileExpr(filter, 'filter', 'filter-expr');
  return { key: `${JSON.stringify(filter)}|${zoom}|`, passes: (x: ExprFeature) => f.evaluate(zoom, x) === true };
}

/** The filters of the bundled examples over the road and landuse layers (maplibre-effects, toner, hand-drawn, heatmap). */
const FILTERS: [string, unknown][] = [
  ['road', ['match', ['get', 'class'], ['motorway', 'trunk', 'primary', 'secondary'], true, false]],
  ['road', ['match', ['get', 'class'], ['street', 'street_limited', 'service', 'link'], true, false]],
  ['road', ['==', ['get', 'class'], 'major_rail']],
  ['road', ['all', ['==', ['geometry-type'], 'LineString'], ['match', ['get', 'class'], ['path', 'major_rail', 'minor_rail', 'service'], false, true]]],
  ['landuse', ['match', ['get', 'class'], ['park', 'grass', 'pitch', 'cemetery'], true, false]],
  ['building', ['>', ['coalesce', ['get', 'height'], 0], 20]],
  ['place_label', ['in', ['geometry-type'], ['literal', ['Polygon', 'MultiPolygon']]]],
];

/** Canvases over the Chicago block: one source tile, across tile edges and corners, with margins, over-zoomed. */
function canvases(): Canvas[] {
  const out: Canvas[] = [];
  for (const [z, m] of [
    [13, 0],
    [13, 40],
    [14, 5],
    [14, 38],
    [15, 20],
  ] as const) {
    const s = 2 ** (z - 13);
    for (const [tx, ty] of [
      [2100, 3044],
      [2100.5, 3044.5],
      [2101.25, 3043.75],
    ] as const) {
      const x0 = Math.round(tx * s * 256) - m;
      const y0 = Math.round(ty * s * 256) - m;
      out.push({ z, x0, y0, width: 256 + 2 * m, height: 256 + 2 * m, tileSize: 256 });
    }
  }
  return out;
}

/** Key of a feature for the witness: what a filter can read (geometry type, id, properties). */
const keyOf = (type: number, id: unknown, props: object) => `${type}|${String(id)}|${JSON.stringify(Object.entries(props).sort())}`;

/** MapLibre's verdicts: its featureFilter on vector-tile-js's features of every Chicago tile, by key. */
const verdicts = new Map<string, Map<string, boolean>>();
function witnessVerdicts(layer: string, filter: unknown, zoom: number): Map<string, boolean> {
  const k = `${layer}|${JSON.stringify(filter)}|${zoom}`;
  const known = verdicts.get(k);
  if (known) return known;
  const f = featureFilter(filter as never, 'layers[0].filter');
  const out = new Map<string, boolean>();
  const dir = path.join(MVT_FIXTURES, 'chicago');
  for (const file of readdirSync(dir)) {
    const l = new VectorTile(new Pbf(readBytes(path.join(dir, file)))).layers[layer];
    if (!l) continue;
    for (let i = 0; i < l.length; i++) {
      const vf = l.feature(i);
      out.set(keyOf(vf.type, vf.id, vf.properties), f.filter({ zoom } as never, vf as never));
    }
  }
  verdicts.set(k, out);
  return out;
}

describe('selected features (a filter applied before sampling)', () => {
  test("the groups of the whole layer filtered, kept by MapLibre's featureFilter on vector-tile-js's features, for every canvas", async () => {
    const src = chicago();
    let kept = 0;
    let dropped = 0;
    for (const [layer, filter] of FILTERS) {
      for (const c of canvases()) {
        const verdicts = witnessVerdicts(layer, filter, c.z);
        const all = await src.features(layer, c);
        const expected = all.filter((g) => {
          const type = g.polygons.length ? 3 : g.lines.length ? 2 : 1;
          const v = verdicts.get(keyOf(type, g.id, g.properties));
          if (v === undefined) throw new Error(`no vector-tile-js feature for a ${layer} group`);
          return v;
        });
        const got = await src.selectedFeatures(layer, c, selection(filter, c.z));
        expect(got).toEqual(expected);
        kept += expected.length;
        dropped += all.length - expected.length;
      }
    }
    // The filters both keep and drop features over these canvases.
    expect(kept).toBeGreaterThan(100);
    expect(dropped).toBeGreaterThan(100);
  });

  test('one selection key shares its result between readers; another key gets its own', async () => {
    const src = chicago();
    const c: Canvas = { z: 14, x0: 2100.5 * 512 - 20, y0: 3044.5 * 512 - 20, width: 296, height: 296, tileSize: 256 };
    const [, major] = FILTERS[0]!;
    const a = await src.selectedFeatures('road', c, selection(major, 14));
    const b = await src.selectedFeatures('road', c, selection(major, 14));
    // The kept sample read again: new group objects (the cache keeps it packed), the same geometry
    // in the same buffer; another key samples its own.
    expect(b).toEqual(a);
    const buffer = (gs: readonly FeatureGroup[]) => gs[0]!.lines[0]!.buffer;
    expect(a.length).toBeGreaterThan(0);
    expect(buffer(b)).toBe(buffer(a));
    const [, minor] = FILTERS[1]!;
    const m = await src.selectedFeatures('road', c, selection(minor, 14));
    expect(m.length).toBeGreaterThan(0);
    expect(buffer(m)).not.toBe(buffer(a));
  });
});

describe('GroupCollector with a selection: left-out features still decide how kept pieces merge', () => {
  // Three source tiles side by side (64 px each at the canvas zoom, extent 64: 1 unit = 1 px).
  const tile = (i: number): SourceTileRef => ({ z: 2, x: i, y: 0, wx: i, px0: i * 64, py0: 0, size: 64 });
  const line = (id: number, cls: string, x: number): TileFeature => ({
    id,
    properties: { class: cls },
    type: 2,
    coords: Int32Array.of(x, 10, x + 20, 30),
    parts: Uint32Array.of(0, 2),
    bbox: [x, 10, x + 20, 30],
  });
  const rect = (i: number) => ({ x0: i * 64, y0: -32, x1: i * 64 + 64, y1: 96 });
  // Tile 0's first feature with id 7 is left out (class a); tiles 1 and 2 hold kept pieces of id 7
  // with equal properties (class b): as the first group of id 7 is tile 0's, they do not merge.
  // Id 9: kept pieces in tiles 0 and 2 that do merge.
  const tiles: TileFeature[][] = [
    [line(7, 'a', 5), line(9, 'b', 30)],
    [line(7, 'b', 5), line(8, 'a', 30)],
    [line(7, 'b', 5), line(9, 'b', 30)],
  ];
  const passes = (f: TileFeature) => f.properties.class === 'b';

  function collect(select: boolean, rectOf = rect): FeatureGroup[] {
    const out = new GroupCollector(true);
    const keep = tiles.map((fs) => Uint8Array.from(fs, (f) => (passes(f) ? 1 : 0)));
    const within = tiles.map((_, i) => unitRect(tile(i), 64, rectOf(i)));
    const ghosts = select ? mergeableIds(tiles, keep, within) : undefined;
    tiles.forEach((fs, i) => out.addTile(fs, 64, tile(i), rectOf(i), i, select ? keep[i] : undefined, ghosts));
    const groups = out.finish();
    return select ? groups : groups.filter((g) => g.properties.class === 'b');
  }

  test('the same groups as sampling every feature and filtering after', () => {
    const filtered = collect(false);
    // Closed forms: id 7's kept pieces stay apart (2 groups), id 9's merge (1 group of 2 lines).
    expect(filtered.map((g) => [g.id, g.lines.length])).toEqual([
      [9, 2],
      [7, 1],
      [7, 1],
    ]);
    expect(collect(true)).toEqual(filtered);
  });

  test('a kept piece whose box misses its tile rectangle merges with nothing (mergeableIds within)', () => {
    // Tile 2 contributes only from x 168: its id 7 piece (x 133-153) is not sampled, so id 7 has one
    // kept piece left and tile 0's left-out id 7 need not be sampled as a ghost.
    const narrow = (i: number) => (i === 2 ? { ...rect(2), x0: 168 } : rect(i));
    const keep = tiles.map((fs) => Uint8Array.from(fs, (f) => (passes(f) ? 1 : 0)));
    const within = tiles.map((_, i) => unitRect(tile(i), 64, narrow(i)));
    expect(within[2]).toEqual([40, -32, 64, 96]);
    expect([...mergeableIds(tiles, keep, within)]).toEqual([9]);
    const filtered = collect(false, narrow);
    expect(filtered.map((g) => [g.id, g.lines.length])).toEqual([
      [9, 2],
      [7, 1],
    ]);
    expect(collect(true, narrow)).toEqual(filtered);
  });

  test('mergeableIds: ids of kept pieces in different tiles with one type and equal properties', () => {
    const keep = tiles.map((fs) => Uint8Array.from(fs, (f) => (passes(f) ? 1 : 0)));
    expect([...mergeableIds(tiles, keep)].sort()).toEqual([7, 9]);
    // Only one kept piece of id 7: nothing of id 7 can merge.
    keep[2]![0] = 0;
    expect([...mergeableIds(tiles, keep)]).toEqual([9]);
  });
});
