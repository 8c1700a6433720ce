// Issue 12 (speed) of the feature path: a tile's layers are indexed lazily (only the layers a style
// reads are read), decoded straight into per-layer typed arrays, and the sampled groups of a canvas
// are kept in the tile cache. Each against an independent reference: vector-tile-js's own decoding,
// and the same source sampled with nothing cached.
import path from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { decodeLayer, parseTile } from '../../src/sources/mvt-decode.js';
import { createMvtSource } from '../../src/sources/mvt.js';
import { GeojsonSource } from '../../src/sources/geojson.js';
import { TileCache } from '../../src/sources/cache.js';
import { tileWindow, type FeatureGroup } from '../../src/types.js';
import { ctxOf, MemoryLoader, MVT_FIXTURES, readBytes } from './helpers.js';

const CHICAGO = ['13-2101-3044', '13-2101-3045', '13-2102-3044', '13-2102-3045'].map((f) => readBytes(path.join(MVT_FIXTURES, `chicago/${f}.mvt`)));

/** Plain values of groups (typed arrays as lists), to compare two samplings. */
/** The buffers a canvas's groups' lines, rings and points are views of, each once, in order (one buffer each a sample). */
const geometryBuffers = (gs: readonly FeatureGroup[]): ArrayBufferLike[] => [
  ...new Set(gs.flatMap((g) => [...g.lines, ...g.polygons.flat(), ...(g.points.length ? [g.points] : [])].map((v) => v.buffer))),
];
const plain = (gs: readonly FeatureGroup[]) => JSON.parse(JSON.stringify(gs, (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v)));

/** Protobuf framing: a varint. */
function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

describe('mvt decoding (lazy layer index, flat arrays)', () => {
  test('every layer of the Chicago tiles decodes to what vector-tile-js decodes: id, type, properties, rings', () => {
    let features = 0;
    for (const bytes of CHICAGO.slice(0, 2)) {
      const ref = new VectorTile(new Pbf(bytes));
      const tile = parseTile(bytes);
      expect(tile.names().sort()).toEqual(Object.keys(ref.layers).sort());
      for (const name of tile.names()) {
        const rl = ref.layers[name]!;
        const d = decodeLayer(tile.layer(name)!);
        expect(d.extent).toBe(rl.extent);
        const kept: ReturnType<typeof rl.feature>[] = [];
        for (let i = 0; i < rl.length; i++) {
          const f = rl.feature(i);
          if (f.type !== 0) kept.push(f);
        }
        expect(d.features.length).toBe(kept.length);
        d.features.forEach((f, i) => {
          const r = kept[i]!;
          expect(f.type).toBe(r.type);
          expect(f.id).toBe(r.id);
          expect({ ...f.properties }).toEqual({ ...r.properties });
          expect('toString' in f.properties).toBe(false); // nothing inherited, as vector-tile-js
          // vector-tile-js closes polygon rings with a copy of the first vertex (ClosePath); ours leaves it implicit.
          const rings = r.loadGeometry().map((ring) => (f.type === 3 ? ring.slice(0, -1) : ring).flatMap((p) => [p.x, p.y]));
          const ours = [];
          for (let p = 0; p + 1 < f.parts.length; p++) ours.push(Array.from(f.coords.subarray(f.parts[p]! * 2, f.parts[p + 1]! * 2)));
          // Points: vector-tile-js gives one ring per point; ours is one part holding every point.
          expect(f.type === 1 ? [ours.flat()] : ours).toEqual(f.type === 1 ? [rings.flat()] : rings);
          if (f.type === 3) expect(f.exterior!.length).toBe(f.parts.length - 1);
          features++;
        });
      }
    }
    expect(features).toBeGreaterThan(1000);
  });

  test('only the layers asked for are read: a corrupt layer fails when read, the others still decode', () => {
    const bytes = CHICAGO[0]!;
    const good = parseTile(bytes);
    const names = good.names();
    // A tile of two layers: 'water' as it is, then a layer named 'broken' whose one feature's
    // geometry claims more bytes than the feature holds.
    const name = [...new TextEncoder().encode('broken')];
    const layerBody = [0x0a, ...varint(name.length), ...name, 0x12, 5, 0x18, 2, 0x22, 10, 9];
    const broken = [0x1a, ...varint(layerBody.length), ...layerBody];
    // Copy 'water' out of the real tile by its framing: field 3 entries of the tile message.
    const layers: number[][] = [];
    for (let pos = 0; pos < bytes.length; ) {
      const tagStart = pos;
      let b: number;
      do b = bytes[pos++]!;
      while (b >= 0x80); // the tag (every top-level field of these tiles is a layer)
      let len = 0;
      let shift = 0;
      do {
        b = bytes[pos++]!;
        len += (b & 0x7f) * 2 ** shift;
        shift += 7;
      } while (b >= 0x80);
      layers.push(Array.from(bytes.subarray(tagStart, pos + len)));
      pos += len;
    }
    expect(layers.length).toBe(names.length);
    const waterBytes = layers[names.indexOf('water')]!;
    const tile = parseTile(new Uint8Array([...waterBytes, ...broken]));
    expect(tile.names()).toEqual(['water', 'broken']);
    expect(decodeLayer(tile.layer('water')!).features.length).toBe(decodeLayer(good.layer('water')!).features.length);
    expect(() => decodeLayer(tile.layer('broken')!)).toThrow(/past its end|truncated|corrupt/);
    expect(tile.layer('absent')).toBeUndefined();
  });

  test('a cut tile fails at once, whichever layer is asked for', () => {
    const bytes = CHICAGO[0]!;
    for (const cut of [0.3, 0.7, 0.999]) expect(() => parseTile(bytes.subarray(0, Math.floor(bytes.length * cut)))).toThrow(/truncated/);
  });
});

describe('sampled groups kept per canvas', () => {
  const mvt = (cache: TileCache) =>
    createMvtSource(
      'streets',
      { type: 'mvt', tiles: ['{z}-{x}-{y}.mvt'], minzoom: 13, maxzoom: 13 },
      ctxOf(
        new MemoryLoader({
          '13-2101-3044.mvt': CHICAGO[0]!,
          '13-2101-3045.mvt': CHICAGO[1]!,
          '13-2102-3044.mvt': CHICAGO[2]!,
          '13-2102-3045.mvt': CHICAGO[3]!,
        }),
        cache,
      ),
    );

  test('mvt: a re-render of a canvas reads the kept groups (no second sample: views of the same buffers); they equal a sampling with nothing cached', async () => {
    const cache = new TileCache();
    const src = mvt(cache);
    const none = mvt(new TileCache({ maxBytes: 0 }));
    // One tile; a canvas across the four tiles (pieces merge across seams); an over-zoomed canvas.
    const canvases = [
      tileWindow({ z: 13, x: 2101, y: 3044 }, 256),
      { z: 13, x0: 2102 * 256 - 100, y0: 3045 * 256 - 70, width: 200, height: 150, tileSize: 256 },
      { z: 15, x0: 2101 * 1024 + 300, y0: 3044 * 1024 + 200, width: 512, height: 512, tileSize: 256 },
    ];
    for (const layer of ['building', 'road', 'water', 'poi_label']) {
      for (const c of canvases) {
        const a = await src.features(layer, c);
        const loads = cache.stats.loads;
        const again = await src.features(layer, c);
        // A cache hit: nothing loaded or sampled again, the geometry in the same buffers.
        expect(cache.stats.loads).toBe(loads);
        expect(plain(again)).toEqual(plain(a));
        expect(geometryBuffers(again)).toEqual(geometryBuffers(a));
        expect(plain(a)).toEqual(plain(await none.features(layer, c)));
      }
    }
    // The other size of the same tile is another canvas.
    const a = await src.features('road', tileWindow({ z: 13, x: 2101, y: 3044 }, 256));
    const b = await src.features('road', tileWindow({ z: 13, x: 2101, y: 3044 }, 512));
    expect(geometryBuffers(b).some((x) => geometryBuffers(a).includes(x))).toBe(false);
    const la = a.find((g) => g.lines.length)!,
      lb = b.find((g) => g.lines.length)!;
    expect(lb.id).toBe(la.id);
    expect(lb.lines[0]![0]).toBeCloseTo(2 * la.lines[0]![0]!, 9);
    expect(cache.stats.bytes).toBeLessThanOrEqual(cache.maxBytes);
  });

  test('geojson: the same groups for a re-render, equal to a source without a cache', async () => {
    const data = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { n: 1 },
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [-10, -10],
                [10, -10],
                [10, 10],
                [-10, 10],
                [-10, -10],
              ],
            ],
          },
        },
        {
          type: 'Feature',
          properties: { n: 2 },
          geometry: {
            type: 'LineString',
            coordinates: [
              [-20, 5],
              [20, 6],
            ],
          },
        },
      ],
    };
    const cached = new GeojsonSource({ name: 'g', decl: { type: 'geojson', data }, cache: new TileCache() });
    const plainSrc = new GeojsonSource({ name: 'g', decl: { type: 'geojson', data } });
    const c = { z: 2, x0: 480, y0: 480, width: 64, height: 64, tileSize: 256 };
    // A canvas's groups are kept from its second sample on (docs/sources.md, Cache): the second
    // render samples again and keeps them, the third gets those.
    const first = await cached.features('g', c);
    const a = await cached.features('g', c);
    expect(a.length).toBe(2);
    expect(plain(a)).toEqual(plain(first));
    expect(await cached.features('g', c)).toBe(a);
    expect(plain(a)).toEqual(plain(await plainSrc.features('g', c)));
  });
});
