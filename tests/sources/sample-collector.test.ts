// GroupCollector (src/sources/sample.ts) writes every line and ring into one buffer and clips a
// tile's lines over its own coordinates, rejecting segments far past a side without Liang–Barsky
// (issue 25, tenth round). Its groups must be those of the collector it replaced, kept in
// collector-reference.ts (which clips with clipLine and clipRing, themselves tested against the
// plain loops in src/geometry/clip.test.ts): the same groups in the same order, the same ids and
// properties, every coordinate and cut flag bit for bit, on random source tiles of lines, polygons
// and points across several tiles (merging, ghosts), with vertices on, near and far past the
// contribution rectangles' sides, at tile sizes whose scale is and is not a power of two; the
// kept features walked by index where no ghost can be, and mergeableIds the same when it walks them.
import { GroupCollector, contributionRects, mergeableIds, unitRect, unpackGroups, type TileFeature } from '../../src/sources/sample.js';
import { coveringTiles, type SourceTileRef } from '../../src/sources/tiles.js';
import type { Canvas, FeatureGroup } from '../../src/types.js';
import { ReferenceCollector } from './collector-reference.js';
import { rng } from '../helpers/random.js';

const EXTENT = 4096;

/** The exact bits of a typed array (so -0 and 0 differ, as the renders would not). */
const bits = (a: Float64Array | Uint8Array | undefined) => (a ? Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex') : undefined);

/** A group as comparable data: every number by its bits. */
function plain(g: FeatureGroup) {
  return {
    id: g.id,
    properties: g.properties,
    points: bits(g.points),
    lines: g.lines.map(bits),
    cutEnds: bits(g.cutEnds),
    polygons: g.polygons.map((p) => p.map(bits)),
    polygonCuts: g.polygonCuts?.map((p) => p.map(bits)),
  };
}

/** A coordinate in tile units: mostly spread over the tile and its buffer, some on or next to `near` (tile units of the rectangle's sides). */
function coord(r: () => number, near: number[]): number {
  const u = r();
  if (u < 0.25 && near.length) {
    const v = near[Math.floor(r() * near.length)]!;
    return Math.round(v) + (u < 0.1 ? 0 : Math.floor(r() * 5) - 2);
  }
  return Math.floor(-300 + r() * (EXTENT + 600));
}

/** Random features of one source tile: lines (some runs far outside), polygons with holes, points; ids shared across tiles. */
function randomFeatures(r: () => number, near: number[]): TileFeature[] {
  const out: TileFeature[] = [];
  const n = 20 + Math.floor(r() * 40);
  for (let i = 0; i < n; i++) {
    const type = (1 + Math.floor(r() * 3)) as 1 | 2 | 3;
    const coords: number[] = [];
    const parts: number[] = [0];
    const exterior: number[] = [];
    const partCount = 1 + Math.floor(r() * 3);
    for (let p = 0; p < partCount; p++) {
      const k = type === 1 ? 1 + Math.floor(r() * 4) : 2 + Math.floor(r() * 30);
      // A walk: short steps from a random start, so lines wander in and out of the rectangle.
      let x = coord(r, near);
      let y = coord(r, near);
      const first = coords.length;
      for (let j = 0; j < k; j++) {
        if (j > 0) {
          if (r() < 0.3) {
            x = coord(r, near);
            y = coord(r, near);
          } else {
            x += Math.floor(r() * 400) - 200;
            y += Math.floor(r() * 400) - 200;
          }
        }
        coords.push(x, y);
      }
      if (type === 3 && r() < 0.5) coords.push(coords[first]!, coords[first + 1]!); // a closed ring
      if (type === 1) continue;
      parts.push(coords.length / 2);
      exterior.push(p === 0 || r() < 0.3 ? 1 : 0);
    }
    if (type === 1) parts.push(coords.length / 2);
    let bx0 = Infinity,
      by0 = Infinity,
      bx1 = -Infinity,
      by1 = -Infinity;
    for (let j = 0; j < coords.length; j += 2) {
      bx0 = Math.min(bx0, coords[j]!);
      bx1 = Math.max(bx1, coords[j]!);
      by0 = Math.min(by0, coords[j + 1]!);
      by1 = Math.max(by1, coords[j + 1]!);
    }
    const f: TileFeature = {
      properties: { class: r() < 0.5 ? 'a' : 'b' },
      type,
      coords: Int32Array.from(coords),
      parts: Uint32Array.from(parts),
      bbox: [bx0, by0, bx1, by1],
    };
    if (type === 3) f.exterior = Uint8Array.from(exterior);
    if (r() < 0.8) f.id = Math.floor(r() * 15);
    out.push(f);
  }
  return out;
}

/** Both collectors over the same tiles of one canvas, with and without a selection. */
function compare(seed: number, canvas: Canvas, sz: number, select: boolean) {
  const r = rng(seed);
  const tiles: SourceTileRef[] = coveringTiles(canvas, sz, 64);
  const rects = contributionRects(tiles, canvas);
  const data = tiles.map((t, i) => {
    const u = unitRect(t, EXTENT, rects[i]!);
    return randomFeatures(r, u);
  });
  const keep = select ? data.map((fs) => Uint8Array.from(fs, (f) => (f.properties.class === 'a' ? 1 : 0))) : undefined;
  // The kept features' indexes, which the new collector and mergeableIds walk where they can.
  const kept = keep?.map((flags) => Int32Array.from(Array.from(flags.keys()).filter((i) => flags[i] === 1)));
  const merge = tiles.length > 1;
  const within = tiles.map((t, i) => unitRect(t, EXTENT, rects[i]!));
  const ghostIds = keep && merge ? mergeableIds(data, keep, within) : undefined;
  if (keep && merge) expect([...mergeableIds(data, keep, within, kept)]).toEqual([...ghostIds!]);
  const a = new GroupCollector(merge);
  const b = new ReferenceCollector(merge);
  tiles.forEach((t, i) => {
    a.addTile(data[i]!, EXTENT, t, rects[i]!, i, keep?.[i], ghostIds, kept?.[i]);
    b.addTile(data[i]!, EXTENT, t, rects[i]!, i, keep?.[i], ghostIds);
  });
  // Without ghosts (a source whose ids cannot merge): the kept features alone, walked by index.
  if (keep) {
    const c = new GroupCollector(merge);
    const d = new ReferenceCollector(merge);
    tiles.forEach((t, i) => {
      c.addTile(data[i]!, EXTENT, t, rects[i]!, i, keep[i], new Set(), kept![i]);
      d.addTile(data[i]!, EXTENT, t, rects[i]!, i, keep[i], new Set());
    });
    expect(c.finish().map(plain)).toEqual(d.finish().map(plain));
  }
  // What the source caches keep (finishPacked) unpacked twice: the same groups each time, views
  // of the same buffers (the second use samples nothing), with their keys in the collector's order.
  const packed = a.finishPacked();
  const got = unpackGroups(packed);
  const again = unpackGroups(packed);
  expect(again.map(plain)).toEqual(got.map(plain));
  for (let i = 0; i < got.length; i++) {
    expect(Object.keys(again[i]!)).toEqual(Object.keys(got[i]!));
    if (got[i]!.lines.length) expect(again[i]!.lines[0]!.buffer).toBe(got[i]!.lines[0]!.buffer);
  }
  const want = b.finish();
  expect(got.length).toBe(want.length);
  expect(got.map(plain)).toEqual(want.map(plain));
  return want;
}

describe('GroupCollector against the collector it replaced', () => {
  test('random tiles, one source tile and across tile edges and corners, with and without a selection, bit for bit', () => {
    let groups = 0;
    let cut = 0;
    let seed = 1;
    // z14 canvases over z13 tiles (scale 1/8, exact), z15 at 300 px tiles (an inexact scale), z13 over its own tiles.
    for (const [z, sz, tileSize] of [
      [14, 13, 256],
      [15, 13, 300],
      [13, 13, 256],
    ] as const) {
      for (const [fx, fy, m] of [
        [2100.3, 3044.4, 0],
        [2100.5, 3044.5, 38],
        [2101.25, 3043.75, 7],
        [2100.02, 3044.9, 120],
      ] as const) {
        const s = 2 ** (z - sz);
        const canvas: Canvas = {
          z,
          x0: Math.round(fx * s * tileSize) - m,
          y0: Math.round(fy * s * tileSize) - m,
          width: tileSize + 2 * m,
          height: tileSize + 2 * m,
          tileSize,
        };
        for (let rep = 0; rep < 3; rep++) {
          for (const select of [false, true]) {
            const want = compare(seed++, canvas, sz, select);
            groups += want.length;
            cut += want.filter((g) => g.cutEnds || g.polygonCuts).length;
          }
        }
      }
    }
    // The cases reach what they are for: many groups, many of them clipped.
    expect(groups).toBeGreaterThan(1000);
    expect(cut).toBeGreaterThan(250);
  });

  test('a segment a hair past a side (on the slow path) and far past it (rejected unclipped) clip as clipLine clips them', () => {
    // One source tile at scale 1/8: world x = px0 + u / 8. The rectangle's x0 side lies on a
    // vertex column; the ends of the segments sit on it, one unit (1/8 px) past it, and far past.
    const t: SourceTileRef = { z: 13, x: 2100, y: 3044, wx: 2100, px0: 2100 * 512, py0: 3044 * 512, size: 512 };
    const rect = { x0: t.px0 + 1000 / 8, y0: t.py0 + 1000 / 8, x1: t.px0 + 3000 / 8, y1: t.py0 + 3000 / 8 };
    const line = (xs: number[]): TileFeature => {
      const coords = Int32Array.from(xs.flatMap((x, i) => [x, 1500 + i * 100]));
      return {
        properties: {},
        type: 2,
        coords,
        parts: Uint32Array.from([0, xs.length]),
        bbox: [Math.min(...xs), 1500, Math.max(...xs), 1500 + (xs.length - 1) * 100],
      };
    };
    const fs = [line([999, 999, 1000, 1001, 999, 500, 400, 1000, 2000, 999]), line([200, 300, 1000, 1000, 2900, 3001, 3500, 3000, 3000, 2999])];
    const a = new GroupCollector(false);
    const b = new ReferenceCollector(false);
    a.addTile(fs, EXTENT, t, rect, 0);
    b.addTile(fs, EXTENT, t, rect, 0);
    const want = b.finish();
    expect(want.length).toBe(2);
    expect(a.finish().map(plain)).toEqual(want.map(plain));
  });
});
