// text: labels shared across canvases (plan.ts, the feature cache) never change what a tile shows.
// A feature's candidate labels are computed once and reused by every canvas and re-render that
// reads the feature; the property tested here is order independence, a closed-form invariant (no
// reference tool): each tile's bytes are the same whether every tile is rendered from an empty
// cache, or the tiles are rendered one after another in one order, or in another order with window
// renders between them. The examples' own data (world-atlas countries from npm: polygon labels;
// the Chicago mvt-fixtures tiles: street names along lines avoiding place names).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { NodeLoader } from '../../hosts/node/loader.js';
import { Renderer, toRGBA8 } from '../../index.js';
import { clearFeatureLabels } from './plan.js';

type Tile = [number, number, number];

/** A bundled example, or its node `output` alone. */
function example(name: string, output?: string): Renderer {
  const dir = path.resolve('examples', name);
  const doc = JSON.parse(readFileSync(path.join(dir, 'style.json'), 'utf8'));
  if (output) doc.output = output;
  return Renderer.create(doc, { loader: new NodeLoader({ baseDir: dir }), onWarning: () => {} });
}

async function tileBytes(r: Renderer, [z, x, y]: Tile): Promise<Uint8ClampedArray> {
  return toRGBA8(await r.renderTile({ z, x, y }));
}

/** Every tile's bytes, rendered in `order` (the map keyed by tile). */
async function renderAll(r: Renderer, order: Tile[], fresh: boolean): Promise<Map<string, Uint8ClampedArray>> {
  const out = new Map<string, Uint8ClampedArray>();
  for (const t of order) {
    if (fresh) clearFeatureLabels();
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
    clearFeatureLabels();
    const forward = await renderAll(r, tiles, false);
    // The other way round from another empty cache, a window over the middle first.
    clearFeatureLabels();
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
});
