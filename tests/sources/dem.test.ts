// dem source: the encodings against the published formulas and the fixture manifest's pixel
// values; bilinear resampling against a linear elevation ramp (exact under bilinear), across tile
// edges and over-zoomed; tiles from templates and from a raster PMTiles archive.
import path from 'node:path';
import sharp from 'sharp';
import { axis, createDemSource, decodeElevation, locate, resample, resampleReference } from '../../src/sources/dem.js';
import { NodeLoader } from '../../src/hosts/node/loader.js';
import { tileWindow, type Canvas } from '../../src/types.js';
import { TileCache } from '../../src/sources/cache.js';
import type { Loader } from '../../src/sources/types.js';
import { ctxOf, FIXTURES, MemoryLoader } from './helpers.js';
import { writePmtiles } from './pmtiles-writer.js';
import { fixturesTest } from '../helpers/fixtures.js';

/** Encode metres as Terrarium RGB (exact for multiples of 1/256 m). */
function terrarium(e: number): [number, number, number] {
  const v = e + 32768;
  const r = Math.floor(v / 256);
  const g = Math.floor(v - r * 256);
  const b = Math.round((v - r * 256 - g) * 256);
  return [r, g, b];
}

/** A Terrarium PNG of tile (x, y) at size S whose elevation is the linear ramp f of global source pixel indices. */
async function rampTile(x: number, y: number, S: number, f: (gi: number, gj: number) => number): Promise<Uint8Array> {
  const raw = new Uint8Array(S * S * 4);
  for (let j = 0; j < S; j++)
    for (let i = 0; i < S; i++) {
      const [r, g, b] = terrarium(f(x * S + i, y * S + j));
      raw.set([r, g, b, 255], (j * S + i) * 4);
    }
  return new Uint8Array(
    await sharp(raw, { raw: { width: S, height: S, channels: 4 } })
      .png()
      .toBuffer(),
  );
}

// Tiles z5 x10..11 y12..13 of a ramp that rises 0.5 m per source pixel east and 0.25 m south.
const Z = 5,
  S = 256;
const ramp = (gi: number, gj: number) => 100 + 0.5 * (gi - 10 * S) + 0.25 * (gj - 12 * S);

let rampFiles: Promise<Record<string, Uint8Array>> | undefined;
/** A fresh loader (own load count) over the four ramp tiles, encoded once. */
async function rampLoader(): Promise<MemoryLoader> {
  rampFiles ??= (async () => {
    const files: Record<string, Uint8Array> = {};
    for (const x of [10, 11]) for (const y of [12, 13]) files[`dem/${Z}/${x}/${y}.png`] = await rampTile(x, y, S, ramp);
    return files;
  })();
  return new MemoryLoader(await rampFiles);
}

describe('dem source', () => {
  test('Terrain-RGB and Terrarium formulas', () => {
    const px = (r: number, g: number, b: number, a = 255) => ({ data: Uint8Array.of(r, g, b, a), width: 1, height: 1 });
    // Values from the fixture manifest (computed there from the published formulas).
    expect(decodeElevation(px(1, 139, 129), 'mapbox')[0]).toBeCloseTo(124.9, 3);
    expect(decodeElevation(px(134, 68, 217), 'terrarium')[0]).toBeCloseTo(1604.84765625, 6);
    expect(decodeElevation(px(109, 140, 0), 'terrarium')[0]).toBe(-4724);
    expect(decodeElevation(px(1, 2, 3, 0), 'mapbox')[0]).toBeNaN(); // transparent: no data
  });

  test('at matching resolution every canvas pixel is a source pixel; a window across four tiles loads just those', async () => {
    const loader = await rampLoader();
    const src = createDemSource('dem', { type: 'dem', tiles: ['dem/{z}/{x}/{y}.png'], encoding: 'terrarium', tileSize: 256, maxzoom: Z }, ctxOf(loader));
    const win: Canvas = { z: Z, x0: 11 * S - 40, y0: 13 * S - 30, width: 80, height: 60, tileSize: 256 };
    const f = await src.field(win);
    for (let j = 0; j < win.height; j++) for (let i = 0; i < win.width; i++) expect(f.data[j * win.width + i]).toBe(ramp(win.x0 + i, win.y0 + j));
    expect(loader.loads).toBe(4);
    // A canvas that is exactly one tile needs no neighbour (its samples fall on pixel centres).
    const one = new MemoryLoader(Object.fromEntries(loader.files));
    const src1 = createDemSource('dem', { type: 'dem', tiles: ['dem/{z}/{x}/{y}.png'], encoding: 'terrarium', tileSize: 256, maxzoom: Z }, ctxOf(one));
    await src1.field(tileWindow({ z: Z, x: 10, y: 12 }, 256));
    expect(one.loads).toBe(1);
  });

  test('over-zoomed above maxzoom: bilinear samples at canvas pixel centres reproduce the ramp across tile edges', async () => {
    const loader = await rampLoader();
    const src = createDemSource('dem', { type: 'dem', tiles: ['dem/{z}/{x}/{y}.png'], encoding: 'terrarium', tileSize: 256, maxzoom: Z }, ctxOf(loader));
    for (const dz of [1, 3]) {
      const k = 2 ** -dz;
      // A window straddling the corner where the four tiles meet.
      const cx = 11 * S * 2 ** dz,
        cy = 13 * S * 2 ** dz;
      const win: Canvas = { z: Z + dz, x0: cx - 37, y0: cy - 23, width: 70, height: 50, tileSize: 256 };
      const f = await src.field(win);
      let maxErr = 0;
      for (let j = 0; j < win.height; j++)
        for (let i = 0; i < win.width; i++) {
          const u = (win.x0 + i + 0.5) * k - 0.5;
          const v = (win.y0 + j + 0.5) * k - 0.5;
          maxErr = Math.max(maxErr, Math.abs(f.data[j * win.width + i]! - ramp(u, v)));
        }
      expect(maxErr).toBeLessThan(1e-3); // Float32 storage of ~100-300 m values
    }
  });

  test('512 px tiles at a 256 px render are read one zoom up; tiles outside declared bounds are no data (NaN)', async () => {
    const tile = await rampTile(10, 12, 512, (i, j) => 50 + 0.25 * (i - 5120) + 0.5 * (j - 6144));
    const loader = new MemoryLoader({ 'd/5/10/12.png': tile });
    // Bounds of tile 5/10/12 only (lng -67.5..-56.25).
    const src = createDemSource(
      'd',
      { type: 'dem', tiles: ['d/{z}/{x}/{y}.png'], encoding: 'terrarium', maxzoom: 5, bounds: [-67.4, 32, -56.3, 40.9] },
      ctxOf(loader),
    );
    // z6 256-px tile (21, 25) is the bottom-right quadrant of 512-px tile 5/10/12: pixel (i, j) = source (256 + i, 256 + j).
    const f = await src.field(tileWindow({ z: 6, x: 21, y: 25 }, 256));
    expect(f.data[0]).toBe(50 + 0.25 * 256 + 0.5 * 256);
    expect(f.data[255 * 256 + 255]).toBe(50 + 0.25 * 511 + 0.5 * 511);
    // The neighbour east is outside the bounds: no request, NaN samples.
    const e = await src.field({ z: 6, x0: 22 * 256 - 4, y0: 25 * 256, width: 8, height: 1, tileSize: 256 });
    expect(Array.from(e.data.slice(0, 4)).every(Number.isFinite)).toBe(true);
    expect(Array.from(e.data.slice(4)).every(Number.isNaN)).toBe(true);
    expect(loader.loads).toBe(1);
  });

  test('a 512 px world tile at a 256 px z0 render: two source pixels per canvas pixel, sampled between them', async () => {
    const f0 = (i: number, j: number) => 1000 + 0.5 * i - 0.25 * j;
    const src = createDemSource(
      'w',
      { type: 'dem', tiles: ['w/{z}/{x}/{y}.png'], encoding: 'terrarium', maxzoom: 4 },
      ctxOf(new MemoryLoader({ 'w/0/0/0.png': await rampTile(0, 0, 512, f0) })),
    );
    const f = await src.field(tileWindow({ z: 0, x: 0, y: 0 }, 256));
    // Canvas pixel i centres on source position 2i + 0.5: halfway between source pixels 2i and 2i + 1.
    for (const [i, j] of [
      [0, 0],
      [100, 37],
      [255, 255],
    ] as const)
      expect(f.data[j * 256 + i]).toBeCloseTo(f0(2 * i + 0.5, 2 * j + 0.5), 3);
  });

  test('x wraps at the antimeridian; rows beyond the poles repeat the edge row', async () => {
    const f1 = (i: number, j: number) => i + j / 4;
    const files = { 'w/1/0/0.png': await rampTile(0, 0, 256, f1), 'w/1/1/0.png': await rampTile(1, 0, 256, f1) };
    const src = createDemSource(
      'w',
      { type: 'dem', tiles: ['w/{z}/{x}/{y}.png'], encoding: 'terrarium', tileSize: 256, maxzoom: 1 },
      ctxOf(new MemoryLoader(files)),
    );
    const f = await src.field({ z: 1, x0: -4, y0: -2, width: 8, height: 3, tileSize: 256 });
    // Row 0 and 1 lie above the world: both repeat source row 0; row 2 is source row 0 too.
    for (const row of [0, 1, 2]) expect(Array.from(f.data.slice(row * 8, row * 8 + 8))).toEqual([508, 509, 510, 511, 0, 1, 2, 3]);
  });

  test('below minzoom: NaN, nothing loaded', async () => {
    const loader = await rampLoader();
    const src = createDemSource(
      'dem',
      { type: 'dem', tiles: ['dem/{z}/{x}/{y}.png'], encoding: 'terrarium', tileSize: 256, minzoom: 5, maxzoom: 5 },
      ctxOf(loader),
    );
    const f = await src.field(tileWindow({ z: 3, x: 2, y: 3 }, 256));
    expect(Array.from(f.data).every(Number.isNaN)).toBe(true);
    expect(loader.loads).toBe(0);
  });

  test('tiles from a raster PMTiles archive equal the same tiles from templates', async () => {
    const loader = await rampLoader();
    const tiles = [...loader.files.entries()].map(([ref, data]) => {
      const [, z, x, y] = /dem\/(\d+)\/(\d+)\/(\d+)\.png/.exec(ref)!.map(Number) as number[];
      return { z: z!, x: x!, y: y!, data };
    });
    const archive = writePmtiles(tiles, { tileType: 2, metadata: { attribution: 'ramp © tests' } });
    const pmLoader = new MemoryLoader({ 'ramp.pmtiles': archive });
    const pm = createDemSource('pm', { type: 'dem', url: 'ramp.pmtiles', encoding: 'terrarium', tileSize: 256 }, ctxOf(pmLoader));
    const tpl = createDemSource('tpl', { type: 'dem', tiles: ['dem/{z}/{x}/{y}.png'], encoding: 'terrarium', tileSize: 256, maxzoom: Z }, ctxOf(loader));
    const win: Canvas = { z: Z + 2, x0: 11 * S * 4 - 50, y0: 13 * S * 4 - 50, width: 100, height: 100, tileSize: 256 };
    expect(Array.from((await pm.field(win)).data)).toEqual(Array.from((await tpl.field(win)).data));
    // Zoom range from the archive header; attribution from its metadata.
    expect([pm.minzoom, pm.maxzoom]).toEqual([Z, Z]);
    expect(await pm.attribution()).toEqual(['ramp © tests']);
  });

  test('decoded tiles are cached: a second render loads nothing', async () => {
    const loader = await rampLoader();
    const cache = new TileCache();
    const src = createDemSource('dem', { type: 'dem', tiles: ['dem/{z}/{x}/{y}.png'], encoding: 'terrarium', tileSize: 256, maxzoom: Z }, ctxOf(loader, cache));
    const win = tileWindow({ z: Z + 1, x: 21, y: 25 }, 256);
    const a = await src.field(win);
    const loads = loader.loads;
    const b = await src.field(win);
    expect(loader.loads).toBe(loads);
    expect(Array.from(b.data)).toEqual(Array.from(a.data));
    expect(cache.stats.hits).toBeGreaterThan(0);
  });

  fixturesTest("real tiles: the manifest's pixel values (Terrain-RGB 256 and 512, Terrarium 256)", async () => {
    const ctx = (dir: string) => ctxOf(new NodeLoader({ baseDir: path.join(FIXTURES, 'dem', dir) }));
    const dead = createDemSource(
      'dead',
      { type: 'dem', tiles: ['{z}-{x}-{y}.png'], encoding: 'mapbox', tileSize: 256, maxzoom: 11 },
      ctx('terrain-rgb/maplibre-deadsea-256'),
    );
    const f = await dead.field(tileWindow({ z: 11, x: 1224, y: 838 }, 256));
    expect(f.data[128 * 256 + 128]).toBeCloseTo(124.9, 3);
    expect(f.data[126 * 256 + 255]).toBeCloseTo(-322.0, 3);
    let min = Infinity;
    for (const v of f.data) min = Math.min(min, v);
    expect(min).toBeCloseTo(-322.0, 3);
    // 512 px Terrain-RGB at a 256 px render of z11: tile 11/1089/715 starts at source pixel (256, 256) of 10/544/357.
    const tyrol = createDemSource(
      'tyrol',
      { type: 'dem', tiles: ['{z}-{x}-{y}.png'], encoding: 'mapbox', tileSize: 512, maxzoom: 10 },
      ctx('terrain-rgb/maplibre-terrain-shading-512'),
    );
    const t = await tyrol.field(tileWindow({ z: 11, x: 1089, y: 715 }, 256));
    expect(t.data[0]).toBeCloseTo(1105.0, 3);
    const black = createDemSource(
      'bf',
      { type: 'dem', tiles: ['{z}-{x}-{y}.png'], encoding: 'terrarium', tileSize: 256, maxzoom: 9 },
      ctx('terrarium/mapzen-z9-256'),
    );
    const b = await black.field(tileWindow({ z: 9, x: 268, y: 177 }, 256));
    expect(b.data[128 * 256 + 128]).toBeCloseTo(671.37, 2);
  });
});

describe('zoom clamp (issue 13 defect 9)', () => {
  test('a 512 px DEM with minzoom = maxzoom = 5 serves 256 px tiles of zoom 5 from itself', async () => {
    const f512 = (gi: number, gj: number) => 100 + 0.5 * (gi - 5120) + 0.25 * (gj - 6144);
    const files = { 'd/5/10/12.png': await rampTile(10, 12, 512, f512) };
    const src = createDemSource(
      'd',
      { type: 'dem', tiles: ['d/{z}/{x}/{y}.png'], encoding: 'terrarium', tileSize: 512, minzoom: 5, maxzoom: 5 },
      ctxOf(new MemoryLoader(files)),
    );
    // The same tile address: 256 px tile 5/10/12 covers the area of 512 px tile 5/10/12.
    const f = await src.field(tileWindow({ z: 5, x: 10, y: 12 }, 256));
    expect(f.data.some(Number.isNaN)).toBe(false);
    // Two source pixels per canvas pixel: canvas centre i+0.5 samples source position 2i+0.5.
    for (const [i, j] of [
      [0, 0],
      [10, 200],
      [255, 255],
    ] as const)
      expect(f.data[j * 256 + i]!).toBeCloseTo(100 + 0.5 * (2 * i + 0.5) + 0.25 * (2 * j + 0.5), 1);
    // Below the source's minzoom there is still no data.
    const below = await src.field(tileWindow({ z: 4, x: 5, y: 6 }, 256));
    expect(Array.from(below.data).every(Number.isNaN)).toBe(true);
  });
});

describe("the loader's decodeElevation (the Node loader: RGB PNG rows straight to metres)", () => {
  /** The NodeLoader without its fast path: decodeImage, then the dem source's conversion. */
  const withoutFastPath = (dir: string): Loader => {
    const l = new NodeLoader({ baseDir: dir });
    return { load: (ref, range, signal) => l.load(ref, range, signal), decodeImage: l.decodeImage };
  };

  fixturesTest('every DEM fixture set, both encodings: the same field as decodeImage + decodeElevation', async () => {
    const sets: [string, number, number, number, number][] = [
      ['terrain-rgb/maplibre-deadsea-256', 256, 11, 1224, 838],
      ['terrain-rgb/maplibre-terrain-shading-512', 512, 10, 544, 357],
      ['terrain-rgb/martini-fuji-512', 512, 10, 906, 404], // RGBA: the loader declines, decodeImage reads it
      ['terrarium/mapzen-z9-256', 256, 9, 268, 177],
      ['terrarium/mapzen-z0-256', 256, 0, 0, 0],
      ['terrarium/maplibre-grandcanyon-256', 256, 11, 379, 802],
    ];
    for (const [dir, size, z, x, y] of sets)
      for (const encoding of ['mapbox', 'terrarium']) {
        const base = path.join(FIXTURES, 'dem', dir);
        const decl = { type: 'dem', tiles: ['{z}-{x}-{y}.png'], encoding, tileSize: size, maxzoom: z } as const;
        // The tile's own window and one inside it over-zoomed 2x (every sample interpolated).
        const inner = { ...tileWindow({ z: z + 1, x: 2 * x, y: 2 * y }, size), x0: 2 * x * size + size / 2 + 1, y0: 2 * y * size + size / 2 - 3 };
        for (const c of [tileWindow({ z, x, y }, size), inner]) {
          const fast = await createDemSource('d', decl, ctxOf(new NodeLoader({ baseDir: base }))).field(c);
          const slow = await createDemSource('d', decl, ctxOf(withoutFastPath(base))).field(c);
          expect(
            Buffer.compare(
              Buffer.from(fast.data.buffer, fast.data.byteOffset, fast.data.byteLength),
              Buffer.from(slow.data.buffer, slow.data.byteOffset, slow.data.byteLength),
            ),
          ).toBe(0);
        }
      }
  });

  test('undefined falls back to decodeImage; a throw is the tile error', async () => {
    const files = { 'd/5/10/12.png': await rampTile(10, 12, 256, (gi, gj) => gi * 0.5 + gj * 0.25) };
    const decl = { type: 'dem', tiles: ['d/{z}/{x}/{y}.png'], encoding: 'terrarium', tileSize: 256, minzoom: 5, maxzoom: 5 } as const;
    const c = tileWindow({ z: 5, x: 10, y: 12 }, 256);
    const declining = new MemoryLoader(files) as MemoryLoader & Loader;
    let asked = 0;
    declining.decodeElevation = () => {
      asked++;
      return undefined;
    };
    const f = await createDemSource('d', decl, ctxOf(declining)).field(c);
    expect(asked).toBe(1);
    expect(f.data[0]).toBeCloseTo(10 * 256 * 0.5 + 12 * 256 * 0.25, 3);
    const failing = new MemoryLoader(files) as MemoryLoader & Loader;
    failing.decodeElevation = () => {
      throw new Error('boom');
    };
    await expect(createDemSource('d', decl, ctxOf(failing)).field(c)).rejects.toThrow(/not a readable PNG or WebP image.*boom|boom/);
  });
});

describe('resample (source rows interpolated once, shared by the canvas rows that read them)', () => {
  /** A seeded generator (mulberry32). */
  const rng = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  test('the same bits as resampleReference (one loop, four samples a pixel): zooms in and out, tile edges, poles, absent tiles, NaN', () => {
    const rand = rng(25);
    const S = 16;
    let cases = 0;
    for (let c = 0; c < 300; c++) {
      // Source pixels per canvas pixel: over-zoomed (1/16 .. 1/2), matching, and 2 (the minzoom clamp).
      const k = [1 / 16, 1 / 8, 1 / 4, 1 / 2, 1, 2, 0.3][c % 7]!;
      const z = 2;
      const rows = S * (1 << z);
      const width = 1 + Math.floor(rand() * 70);
      const height = 1 + Math.floor(rand() * 70);
      const x0 = Math.floor((rand() - 0.3) * 200) + (c % 3 === 0 ? 0.5 : 0);
      const y0 = Math.floor((rand() - 0.3) * (rows / k));
      const cols = axis(x0, width, k, -Infinity, Infinity);
      const rws = axis(y0, height, k, 0, rows - 1);
      const tx0 = Math.floor(cols.min / S),
        tx1 = Math.floor(cols.max / S);
      const ty0 = Math.floor(rws.min / S),
        ty1 = Math.floor(rws.max / S);
      const nx = tx1 - tx0 + 1;
      const tiles: (Float32Array | null)[] = [];
      for (let t = 0; t < nx * (ty1 - ty0 + 1); t++) {
        if (rand() < 0.1) {
          tiles.push(null);
          continue;
        }
        const tile = new Float32Array(S * S);
        for (let i = 0; i < tile.length; i++) tile[i] = rand() < 0.02 ? NaN : (rand() - 0.3) * 5000;
        tiles.push(tile);
      }
      const cx = locate(cols, S, tx0),
        cy = locate(rws, S, ty0);
      const a = new Float32Array(width * height).fill(7);
      const b = new Float32Array(width * height).fill(-7);
      resample(tiles, nx, S, cols, rws, cx, cy, a, width, height);
      resampleReference(tiles, nx, S, cols, rws, cx, cy, b, width, height);
      expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
      cases++;
    }
    expect(cases).toBe(300);
  });
});
