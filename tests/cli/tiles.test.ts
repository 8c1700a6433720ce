// CLI `tiles` and `merge` through child processes: the seam invariant against `bbox`, PMTiles
// read back with the pmtiles package, shards joined by merge, --resume. Every tile written (a
// directory's files, an archive's entries) is decoded by libvips and must hold exactly the pixels
// of the same tile rendered in this process.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TileType } from 'pmtiles';
import type { Raster } from '../../src/index.js';
import { openArchive } from '../../src/hosts/node/pmtiles/index.js';
import { requireBuild, writeFixtures, type Fixture } from '../server/fixtures.js';
import { differenceFromRaster } from '../helpers/decode.js';
import { cli, readPng, renderTileHere } from './helpers.js';

let fx: Fixture;
beforeAll(() => {
  requireBuild();
  fx = writeFixtures();
});

/** Edges of tile z/x/y in degrees (closed form). */
function tileEdges(z: number, x: number, y: number): { w: number; s: number; e: number; n: number } {
  const n2 = 2 ** z;
  const lat = (t: number) => (180 / Math.PI) * Math.atan(Math.sinh(Math.PI * (1 - (2 * t) / n2)));
  return { w: (x / n2) * 360 - 180, e: ((x + 1) / n2) * 360 - 180, n: lat(y), s: lat(y + 1) };
}

const tilesOfDir = (dir: string, list: [number, number, number][]) =>
  new Map(list.map(([z, x, y]) => [`${z}/${x}/${y}`, readFileSync(path.join(dir, `${z}/${x}/${y}.png`))]));

function pyramid(minZ: number, maxZ: number): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let z = minZ; z <= maxZ; z++) for (let y = 0; y < 2 ** z; y++) for (let x = 0; x < 2 ** z; x++) out.push([z, x, y]);
  return out;
}

test('the mosaic of `tiles` equals the `bbox` render of the same area', async () => {
  // Tiles z3 x 2..4, y 2..3: a 3x2 block crossing the triangle's edges and the square.
  const a = tileEdges(3, 2, 2);
  const b = tileEdges(3, 4, 3);
  const box = `${a.w},${b.s},${b.e},${a.n}`;
  const dir = path.join(fx.dir, 'mosaic');
  const out = path.join(fx.dir, 'mosaic.png');
  const [t, bb] = await Promise.all([
    cli(['tiles', '--style', fx.shapes, `--bbox=${box}`, '--min-zoom', '3', '--max-zoom', '3', '--out', dir, '--concurrency', '2', '--progress', 'plain']),
    cli(['bbox', '--style', fx.shapes, `--bbox=${box}`, '--zoom', '3', '--out', out]),
  ]);
  expect(t.code).toBe(0);
  expect(t.stderr).toMatch(/^6 tiles rendered in [\d.]+ s \([\d.]+ tiles\/s\)$/m);
  expect(bb.code).toBe(0);
  const whole = await readPng(readFileSync(out));
  expect([whole.width, whole.height]).toEqual([768, 512]);
  let differing = 0;
  let maxDiff = 0;
  let opaque = 0;
  for (let ty = 2; ty <= 3; ty++) {
    for (let tx = 2; tx <= 4; tx++) {
      const tile = await readPng(readFileSync(path.join(dir, `3/${tx}/${ty}.png`)));
      expect([tile.width, tile.height]).toEqual([256, 256]);
      for (let y = 0; y < 256; y++) {
        for (let x = 0; x < 256; x++) {
          const i = (y * 256 + x) * 4;
          const j = ((y + (ty - 2) * 256) * 768 + x + (tx - 2) * 256) * 4;
          // Compare premultiplied: a pixel of alpha 1/255 carries its full colour once un-premultiplied.
          const ta = tile.data[i + 3]!;
          const wa = whole.data[j + 3]!;
          let d = Math.abs(ta - wa);
          for (let c = 0; c < 3; c++) d = Math.max(d, Math.abs((tile.data[i + c]! * ta) / 255 - (whole.data[j + c]! * wa) / 255));
          if (d > 1) differing++;
          maxDiff = Math.max(maxDiff, d);
          if (tile.data[i + 3] === 255) opaque++;
        }
      }
    }
  }
  // Not a vacuous comparison: the block holds filled and empty pixels.
  expect(opaque).toBeGreaterThan(10_000);
  expect(opaque).toBeLessThan(6 * 65536);
  // Premultiplied 8-bit values within 2 everywhere (the golden tolerance allows 0.1% beyond that).
  expect(maxDiff).toBeLessThanOrEqual(2);
  expect(differing / (6 * 65536)).toBeLessThanOrEqual(0.01);
});

/** Each tile of the list rendered in this process with the pyramid's param. */
async function pyramidRasters(list: [number, number, number][]) {
  const out = new Map<string, Raster>();
  for (const t of list) out.set(t.join('/'), await renderTileHere(fx.shapes, t, { fill: '#3366cc' }));
  return out;
}

test('tiles (85 tiles, worker threads) into a directory and into .pmtiles (read back with the pmtiles package): every tile decodes (libvips) to the pixels of an in-process render', async () => {
  const dir = path.join(fx.dir, 'pyr');
  const file = path.join(fx.dir, 'pyr.pmtiles');
  // 85 tiles on 2 worker threads.
  const common = ['--style', fx.shapes, '--min-zoom', '0', '--max-zoom', '3', '--concurrency', '2', '--param', 'fill=#3366cc'];
  const [d, p] = await Promise.all([cli(['tiles', ...common, '--out', dir]), cli(['tiles', ...common, '--out', file])]);
  expect(d.code).toBe(0);
  expect(p.code).toBe(0);
  expect(p.stdout.trim()).toBe(file);
  const list = pyramid(0, 3);
  const fromDir = tilesOfDir(dir, list);
  const a = await openArchive(file);
  try {
    const h = a.header;
    expect(h).toMatchObject({ specVersion: 3, tileType: TileType.Png, minZoom: 0, maxZoom: 3, numAddressedTiles: 85, clustered: true });
    expect(h.minLon).toBeCloseTo(-180, 6);
    expect(h.maxLat).toBeCloseTo(85.0511287, 6);
    const meta = (await a.pmtiles.getMetadata()) as Record<string, unknown>;
    expect(meta).toMatchObject({
      name: 'Test shapes',
      format: 'png',
      attribution: 'test data | shapes by tests',
      tilegraph: { params: { fill: '#3366ccff' } },
    });
    const rasters = await pyramidRasters(list);
    for (const [z, x, y] of list) {
      const key = `${z}/${x}/${y}`;
      const r = await a.pmtiles.getZxy(z, x, y);
      expect(r).toBeDefined();
      expect({ key, archive: await differenceFromRaster(new Uint8Array(r!.data), rasters.get(key)!) }).toEqual({ key, archive: undefined });
      expect({ key, directory: await differenceFromRaster(fromDir.get(key)!, rasters.get(key)!) }).toEqual({ key, directory: undefined });
    }
    expect(await a.pmtiles.getZxy(4, 0, 0)).toBeUndefined();
    // Empty tiles of one pyramid are byte-identical: stored once.
    expect(h.numTileContents).toBeLessThan(85);
  } finally {
    await a.close();
  }
});

test('--shard i/n splits the list; merge joins the shards into the whole pyramid', async () => {
  // Same style and params as the pyramid above.
  const common = ['--style', fx.shapes, '--min-zoom', '0', '--max-zoom', '2', '--concurrency', '1', '--progress', 'none', '--param', 'fill=#3366cc'];
  const shardOut = path.join(fx.dir, 'shard-{shard}.pmtiles');
  const results = await Promise.all([0, 1, 2].map((i) => cli(['tiles', ...common, '--out', shardOut, '--shard', `${i}/3`])));
  for (const r of results) expect(r.code).toBe(0);
  const shards = [0, 1, 2].map((i) => path.join(fx.dir, `shard-${i}.pmtiles`));
  const counts: number[] = [];
  for (const s of shards) {
    const a = await openArchive(s);
    counts.push(a.header.numAddressedTiles);
    await a.close();
  }
  expect(counts).toEqual([7, 7, 7]);
  const merged = path.join(fx.dir, 'merged.pmtiles');
  const m = await cli(['merge', '--out', merged, ...shards]);
  expect(m.code).toBe(0);
  expect(m.stdout).toContain('21 tiles, zoom 0..2');
  const list = pyramid(0, 2);
  const rasters = await pyramidRasters(list);
  const x = await openArchive(merged);
  try {
    expect(x.header.numAddressedTiles).toBe(21);
    for (const [z, tx, ty] of list) {
      const key = `${z}/${tx}/${ty}`;
      const p = await x.pmtiles.getZxy(z, tx, ty);
      expect({ key, merged: await differenceFromRaster(new Uint8Array(p!.data), rasters.get(key)!) }).toEqual({ key, merged: undefined });
    }
  } finally {
    await x.close();
  }
  // A missing input is an output-side failure (exit 5), in one line.
  const bad = await cli(['merge', '--out', path.join(fx.dir, 'bad.pmtiles'), path.join(fx.dir, 'absent.pmtiles')]);
  expect(bad.code).toBe(5);
  expect(bad.stderr).toMatch(/^tilegraph: error: .*absent\.pmtiles/);
});

test('--resume renders only the tiles that are missing', async () => {
  const dir = path.join(fx.dir, 'resume');
  const common = ['tiles', '--style', fx.shapes, '--min-zoom', '0', '--max-zoom', '2', '--out', dir, '--concurrency', '1', '--progress', 'plain'];
  expect((await cli(common)).code).toBe(0);
  rmSync(path.join(dir, '2/1/1.png'));
  rmSync(path.join(dir, '2/3/0.png'));
  rmSync(path.join(dir, '0/0/0.png'));
  // A tile that is present is trusted, not rendered again: mark one to see it survive.
  const marked = path.join(dir, '1/1/1.png');
  writeFileSync(marked, 'kept');
  const r = await cli([...common, '--resume']);
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(/^3 tiles rendered, 18 already done in /m);
  expect(readFileSync(marked, 'utf8')).toBe('kept');
  for (const t of ['2/1/1', '2/3/0', '0/0/0']) {
    const raster = await renderTileHere(fx.shapes, t.split('/').map(Number));
    expect({ t, diff: await differenceFromRaster(readFileSync(path.join(dir, `${t}.png`)), raster) }).toEqual({ t, diff: undefined });
  }
});

test('tiles exits with the same codes as tile', async () => {
  const out = path.join(fx.dir, 'bad');
  const [style, param, source, usage] = await Promise.all([
    cli(['tiles', '--style', fx.badRef, '--max-zoom', '1', '--out', out]),
    cli(['tiles', '--style', fx.shapes, '--max-zoom', '1', '--out', out, '--param', 'alpha=-1']),
    cli(['tiles', '--style', fx.missingSource, '--max-zoom', '1', '--out', out, '--concurrency', '1']),
    cli(['tiles', '--style', fx.shapes, '--min-zoom', '3', '--max-zoom', '1', '--out', out]),
  ]);
  expect([style.code, param.code, source.code, usage.code]).toEqual([2, 3, 4, 1]);
  expect(source.stderr).toMatch(/^tilegraph: render error: .*source 'shapes'/m);
  expect(usage.stderr).toMatch(/--min-zoom 3 is above --max-zoom 1/);
});
