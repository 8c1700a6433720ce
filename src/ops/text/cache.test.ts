// text: labels shared across canvases (plan.ts: the feature cache, and the cell cache of placement
// decisions) never change what a tile shows. A feature's candidate labels are computed once and
// reused by every canvas and re-render that reads the feature, and the labels placed in a world cell
// are decided once for every canvas that shows them; the property tested here is order independence, a closed-form invariant (no
// reference tool): each tile's bytes are the same whether every tile is rendered from an empty
// cache, or the tiles are rendered one after another in one order, or in another order with window
// renders between them. The examples' own data (world-atlas countries from npm: polygon labels;
// the Chicago mvt-fixtures tiles: street names along lines avoiding place names).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { NodeLoader } from '../../hosts/node/loader.js';
import { Renderer, toRGBA8 } from '../../index.js';
import { clearSharedLabels } from './plan.js';

type Tile = [number, number, number];

/**
 * A bundled example, or its node `output` alone; `perCanvas`: its text node `names` avoids a text
 * node that places nothing, which makes it decide every canvas on its own (no shared cells).
 */
function example(name: string, output?: string, perCanvas = false): Renderer {
  const dir = path.resolve('examples', name);
  const doc = JSON.parse(readFileSync(path.join(dir, 'style.json'), 'utf8'));
  if (output) doc.output = output;
  if (perCanvas) {
    doc.nodes.nothing = { ...doc.nodes.names, 'text-expr': ['literal', ''] };
    doc.nodes.names = { ...doc.nodes.names, avoid: ['@nothing'] };
  }
  return Renderer.create(doc, { loader: new NodeLoader({ baseDir: dir }), onWarning: () => {} });
}

async function tileBytes(r: Renderer, [z, x, y]: Tile): Promise<Uint8ClampedArray> {
  return toRGBA8(await r.renderTile({ z, x, y }));
}

/** Every tile's bytes, rendered in `order` (the map keyed by tile). */
async function renderAll(r: Renderer, order: Tile[], fresh: boolean): Promise<Map<string, Uint8ClampedArray>> {
  const out = new Map<string, Uint8ClampedArray>();
  for (const t of order) {
    if (fresh) clearSharedLabels();
    out.set(t.join('/'), await tileBytes(r, t));
  }
  return out;
}

function block(z: number, x0: number, y0: number, n: number): Tile[] {
  const out: Tile[] = [];
  for (let y = y0; y < y0 + n; y++) for (let x = x0; x < x0 + n; x++) out.push([z, x, y]);
  return out;
}

function expectSame(a: Map<string, Uint8ClampedArray>, b: Map<string, Uint8ClampedArray>): void {
  expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
  for (const [k, v] of a) {
    const w = b.get(k)!;
    let diff = 0;
    for (let i = 0; i < v.length; i++) if (v[i] !== w[i]) diff++;
    expect({ tile: k, differingBytes: diff }).toEqual({ tile: k, differingBytes: 0 });
  }
}

describe('text: labels shared across tiles do not depend on the order tiles are rendered in', () => {
  test.each([
    ['world (country names, polygon labels), z2 and z3', 'world', 'names', [...block(2, 0, 0, 4), ...block(3, 2, 1, 3)]],
    ['toner (street names along lines avoiding place names), z14', 'toner', 'street-names', block(14, 4201, 6088, 3)],
  ] as [string, string, string, Tile[]][])('%s', async (_, name, labels, tiles) => {
    const r = example(name);
    // Every tile from an empty cache: what a tile shows without any sharing.
    const alone = await renderAll(r, tiles, true);
    // One after another, the cache filled by the tiles before.
    clearSharedLabels();
    const forward = await renderAll(r, tiles, false);
    // The other way round from another empty cache, a window over the middle first.
    clearSharedLabels();
    const [z, x, y] = tiles[Math.floor(tiles.length / 2)]!;
    await r.renderWindow({ z, x0: x * 256 - 100, y0: y * 256 - 60, width: 300, height: 200, tileSize: 256 });
    const backward = await renderAll(r, [...tiles].reverse(), false);
    // Labels are drawn in these tiles (the test would prove nothing on empty ones).
    const only = example(name, labels);
    let ink = 0;
    for (const t of tiles) {
      const v = await tileBytes(only, t);
      for (let i = 3; i < v.length; i += 4) if (v[i]! > 128) ink++;
    }
    expect(ink).toBeGreaterThan(2000);
    expectSame(alone, forward);
    expectSame(alone, backward);
  });

  test('dense random points: placements decided per world cell equal those each canvas decides on its own', async () => {
    // 1,500 points in ~3 x 3 z6 tiles, labels of 1-14 characters, random priorities (seeded): long
    // chains of conflicts, where a cell decided over too small a box would differ.
    let seed = 7;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const features = Array.from({ length: 1500 }, (_, i) => ({
      type: 'Feature',
      properties: { name: 'Wxyzabcdefghij'.slice(0, 1 + Math.floor(rnd() * 14)) + i, rank: Math.floor(rnd() * 4) },
      geometry: { type: 'Point', coordinates: [10 + rnd() * 16, 40 + rnd() * 12] },
    }));
    const doc = (perCanvas: boolean) => {
      const names = { op: 'text', features: '@p', 'text-expr': ['get', 'name'], size: 12, 'halo-width': 1, 'max-extent': 64, 'priority-expr': ['get', 'rank'] };
      const nodes: Record<string, unknown> = { p: { op: 'features', source: 'p' }, names };
      if (perCanvas) {
        nodes.nothing = { ...names, 'text-expr': ['literal', ''] };
        nodes.names = { ...names, avoid: ['@nothing'] };
      }
      return { output: 'names', sources: { p: { type: 'geojson', data: { type: 'FeatureCollection', features } } }, nodes };
    };
    const tiles = block(6, 33, 22, 3);
    clearSharedLabels();
    const loader = new NodeLoader({ baseDir: path.resolve('.') });
    const cells = await renderAll(Renderer.create(doc(false), { loader }), tiles, false);
    const own = await renderAll(Renderer.create(doc(true), { loader }), tiles, true);
    let ink = 0;
    for (const v of own.values()) for (let i = 3; i < v.length; i += 4) if (v[i]! > 128) ink++;
    expect(ink).toBeGreaterThan(5000);
    expectSame(own, cells);
  });

  test('world: placements decided per world cell equal those each canvas decides on its own', async () => {
    const tiles = [...block(2, 0, 0, 4), ...block(3, 2, 1, 3)];
    clearSharedLabels();
    const cells = await renderAll(example('world'), tiles, false);
    const own = await renderAll(example('world', undefined, true), tiles, true);
    expectSame(own, cells);
  });

  test('two filters of one layer keeping the same first and last feature and count get their own labels', async () => {
    // Labels are cached per run of a layer's features (its first and last feature and its length):
    // these two filters' runs agree on all three but hold different streets, so a run taken from
    // the cache without checking its members would draw one filter's street for the other. The
    // same map with the two text nodes' settings made different (a priority of 0 written out,
    // which places alike) shares nothing between them: the bytes must be the same.
    const line = (name: string, lat: number) => ({
      type: 'Feature',
      properties: { name },
      geometry: {
        type: 'LineString',
        coordinates: [
          [-0.6, lat],
          [0.6, lat],
        ],
      },
    });
    const data = {
      type: 'FeatureCollection',
      features: [line('Alpha Road', 0.3), line('Bravo Road', 0.1), line('Charlie Road', -0.1), line('Delta Road', -0.3)],
    };
    const doc = (shared: boolean) => {
      const text = (features: string) => ({ op: 'text', features, 'text-expr': ['get', 'name'], placement: 'line', size: 14, 'max-extent': 128 });
      return {
        output: 'map',
        sources: { s: { type: 'geojson', data } },
        nodes: {
          nob: { op: 'features', source: 's', 'filter-expr': ['!=', ['get', 'name'], 'Bravo Road'] },
          noc: { op: 'features', source: 's', 'filter-expr': ['!=', ['get', 'name'], 'Charlie Road'] },
          tb: text('@nob'),
          tc: shared ? text('@noc') : { ...text('@noc'), 'priority-expr': ['literal', 0] },
          map: { op: 'blend', base: '@tb', over: '@tc' },
        },
      };
    };
    const loader = new NodeLoader({ baseDir: path.resolve('.') });
    const tiles = block(8, 127, 127, 2);
    const apart = await renderAll(Renderer.create(doc(false), { loader }), tiles, true);
    const shared = await renderAll(Renderer.create(doc(true), { loader }), tiles, true);
    let ink = 0;
    for (const v of apart.values()) for (let i = 3; i < v.length; i += 4) if (v[i]! > 128) ink++;
    expect(ink).toBeGreaterThan(1000);
    expectSame(apart, shared);
  });
});
