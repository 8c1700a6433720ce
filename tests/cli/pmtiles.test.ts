// The PMTiles v3 writer, read back with the pmtiles package: leaf directories, de-duplication and
// run-lengths, resume from the journal, merge.
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zxyToTileId, tileIdToZxy } from 'pmtiles';
import { archiveTiles, mergeArchives, mergedMetadata, openArchive, PmtilesWriter, ResumeMismatchError } from '../../src/hosts/node/pmtiles/index.js';
import { rng } from '../helpers/random.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-pmtiles-'));
const WORLD = { minZoom: 0, maxZoom: 12, bounds: [-180, -85, 180, 85] as [number, number, number, number] };

/** Distinct bytes per tile ID, of varying length. */
function content(id: number): Uint8Array {
  const n = 1 + (id % 7);
  const out = new Uint8Array(4 + n);
  new DataView(out.buffer).setUint32(0, id);
  out.fill(id % 251, 4);
  return out;
}

test('an archive large enough for leaf directories reads back tile for tile', async () => {
  const file = path.join(dir, 'big.pmtiles');
  const w = await PmtilesWriter.open(file);
  const rand = rng(7);
  const ids = new Set<number>();
  // Sparse tile IDs at zoom 12 (random gaps) so the directory does not compress to nothing.
  while (ids.size < 12_000) {
    const x = Math.floor(rand() * 4096);
    const y = Math.floor(rand() * 4096);
    ids.add(zxyToTileId(12, x, y));
  }
  // Written in random order, as worker threads finish.
  for (const id of ids) await w.writeId(id, content(id));
  const written = await w.finish({ ...WORLD, metadata: { name: 'big', attribution: 'tests' } });
  expect(existsSync(file + '.journal')).toBe(false);
  expect(existsSync(file + '.tiles.tmp')).toBe(false);
  const a = await openArchive(file);
  try {
    const h = a.header;
    expect(h.specVersion).toBe(3);
    expect(h.leafDirectoryLength).toBeGreaterThan(0);
    expect(h.rootDirectoryOffset + h.rootDirectoryLength).toBeLessThanOrEqual(16384);
    expect(h).toMatchObject({ numAddressedTiles: 12_000, numTileEntries: 12_000, numTileContents: 12_000, minZoom: 0, maxZoom: 12 });
    expect(h.tileDataOffset).toBe(written.tileDataOffset);
    expect(await a.pmtiles.getMetadata()).toEqual({ name: 'big', attribution: 'tests' });
    const sample = [...ids].filter((_, i) => i % 12 === 0);
    for (const id of sample) {
      const [z, x, y] = tileIdToZxy(id);
      const r = await a.pmtiles.getZxy(z, x, y);
      expect(new Uint8Array(r!.data)).toEqual(content(id));
    }
    // A tile never written is absent.
    let absent = zxyToTileId(12, 0, 0);
    while (ids.has(absent)) absent++;
    const [az, ax, ay] = tileIdToZxy(absent);
    expect(await a.pmtiles.getZxy(az, ax, ay)).toBeUndefined();
    // Walking every directory yields every tile once, in tile ID order.
    let count = 0;
    let last = -1;
    for await (const t of archiveTiles(a)) {
      expect(t.tileId).toBeGreaterThan(last);
      last = t.tileId;
      count++;
    }
    expect(count).toBe(12_000);
  } finally {
    await a.close();
  }
});

test('identical contents are stored once; consecutive repeats share one run-length entry', async () => {
  const file = path.join(dir, 'dedupe.pmtiles');
  const w = await PmtilesWriter.open(file);
  const sea = new Uint8Array([1, 2, 3, 4, 5]);
  // All 16 tiles of zoom 2 are "sea", except 2/1/1; zoom 0 is sea too.
  await w.write(0, 0, 0, sea);
  for (let x = 0; x < 4; x++) for (let y = 0; y < 4; y++) await w.write(2, x, y, x === 1 && y === 1 ? new Uint8Array([9]) : sea);
  const h = await w.finish({ ...WORLD, maxZoom: 2 });
  expect(h.numAddressedTiles).toBe(17);
  expect(h.numTileContents).toBe(2);
  expect(h.tileDataLength).toBe(6);
  // Runs: 0/0/0 alone (IDs 1..4 absent), then zoom 2 split around 2/1/1.
  expect(h.numTileEntries).toBe(4);
  const a = await openArchive(file);
  try {
    for (let x = 0; x < 4; x++) {
      for (let y = 0; y < 4; y++) {
        const r = await a.pmtiles.getZxy(2, x, y);
        expect([...new Uint8Array(r!.data)]).toEqual(x === 1 && y === 1 ? [9] : [1, 2, 3, 4, 5]);
      }
    }
    expect(await a.pmtiles.getZxy(1, 0, 0)).toBeUndefined();
  } finally {
    await a.close();
  }
});

test('resume keeps journaled tiles; a torn journal line is ignored; a finished archive counts as done', async () => {
  const file = path.join(dir, 'resume.pmtiles');
  const first = await PmtilesWriter.open(file);
  await first.write(1, 0, 0, content(1));
  await first.write(1, 1, 0, content(2));
  await first.close(); // interrupted: staging files stay
  const { appendFileSync } = await import('node:fs');
  appendFileSync(file + '.journal', '9 12'); // a line cut mid-write
  const second = await PmtilesWriter.open(file, { resume: true });
  expect(second.size).toBe(2);
  expect(second.has(1, 0, 0) && second.has(1, 1, 0)).toBe(true);
  expect(second.has(1, 0, 1)).toBe(false);
  await second.write(1, 0, 1, content(3));
  await second.write(1, 1, 1, content(4));
  await second.finish({ ...WORLD, maxZoom: 1 });
  const third = await PmtilesWriter.open(file, { resume: true });
  expect(third.size).toBe(4);
  await third.close();
  const a = await openArchive(file);
  try {
    const got = await Promise.all(
      [
        [1, 0, 0],
        [1, 1, 0],
        [1, 0, 1],
        [1, 1, 1],
      ].map(([z, x, y]) => a.pmtiles.getZxy(z!, x!, y!)),
    );
    expect(got.map((r) => new Uint8Array(r!.data))).toEqual([content(1), content(2), content(3), content(4)]);
  } finally {
    await a.close();
  }
  // Without resume the staging starts empty.
  const fresh = await PmtilesWriter.open(file);
  expect(fresh.size).toBe(0);
  await fresh.close();
});

test('merge joins archives, unions zooms and bounds, and refuses a tile with two contents', async () => {
  const a = path.join(dir, 'a.pmtiles');
  const b = path.join(dir, 'b.pmtiles');
  const wa = await PmtilesWriter.open(a);
  await wa.write(0, 0, 0, content(0));
  await wa.finish({ minZoom: 0, maxZoom: 0, bounds: [-10, -5, 10, 5], metadata: { name: 'a' } });
  const wb = await PmtilesWriter.open(b);
  await wb.write(3, 2, 1, content(5));
  await wb.write(0, 0, 0, content(0)); // the same bytes in both: allowed
  await wb.finish({ minZoom: 3, maxZoom: 3, bounds: [0, 0, 20, 30] });
  const out = path.join(dir, 'ab.pmtiles');
  const h = await mergeArchives([a, b], out);
  expect(h).toMatchObject({ minZoom: 0, maxZoom: 3, numAddressedTiles: 2 });
  expect([h.minLon, h.minLat, h.maxLon, h.maxLat]).toEqual([-10, -5, 20, 30]);
  const m = await openArchive(out);
  try {
    expect(new Uint8Array((await m.pmtiles.getZxy(3, 2, 1))!.data)).toEqual(content(5));
    // The merge's own metadata: zooms and bounds of the union, not the first input's.
    expect(await m.pmtiles.getMetadata()).toEqual({ name: 'a', minzoom: 0, maxzoom: 3, bounds: [-10, -5, 20, 30], tilegraph: { merged: 2 } });
  } finally {
    await m.close();
  }
  const c = path.join(dir, 'c.pmtiles');
  const wc = await PmtilesWriter.open(c);
  await wc.write(0, 0, 0, content(1));
  await wc.finish(WORLD);
  await expect(mergeArchives([a, c], path.join(dir, 'ac.pmtiles'))).rejects.toThrow('tile 0/0/0 is in more than one input with different contents');
  expect(existsSync(path.join(dir, 'ac.pmtiles'))).toBe(false);
});

describe('the journal records the job; --resume of another job is refused (issue 13 defect 5)', () => {
  const job = {
    style: 's.json',
    version: 'v1',
    params: { land: '#ff0000ff' },
    tileSize: 256,
    minZoom: 0,
    maxZoom: 4,
    bbox: [-180, -85, 180, 85],
    shard: '0/1',
  };

  test('the same job resumes; different params or zooms are refused, naming the difference', async () => {
    const file = path.join(dir, 'job.pmtiles');
    const w = await PmtilesWriter.open(file, { job });
    await w.write(1, 0, 0, content(1));
    await w.close();
    const again = await PmtilesWriter.open(file, { resume: true, job });
    expect(again.size).toBe(1);
    await again.close();
    const params = PmtilesWriter.open(file, { resume: true, job: { ...job, params: { land: '#00ff00ff' } } });
    await expect(params).rejects.toThrow(ResumeMismatchError);
    await expect(PmtilesWriter.open(file, { resume: true, job: { ...job, params: { land: '#00ff00ff' } } })).rejects.toThrow(
      /cannot resume .*job\.pmtiles': the journal is of a different job \(params \{"land":"#ff0000ff"\}, now \{"land":"#00ff00ff"\}\)/,
    );
    await expect(PmtilesWriter.open(file, { resume: true, job: { ...job, maxZoom: 3 } })).rejects.toThrow(/maxZoom 4, now 3/);
    // The staging is untouched by a refused resume.
    const still = await PmtilesWriter.open(file, { resume: true, job });
    expect(still.size).toBe(1);
    await still.finish({ ...WORLD, maxZoom: 4, metadata: { tilegraph: { job } } });
  });

  test('a finished archive of another job is refused too; a journal without identity is refused', async () => {
    const file = path.join(dir, 'job.pmtiles');
    await expect(PmtilesWriter.open(file, { resume: true, job: { ...job, version: 'v2' } })).rejects.toThrow(
      /the finished archive is of a different job \(version "v1", now "v2"\)/,
    );
    const old = path.join(dir, 'old.pmtiles');
    const w = await PmtilesWriter.open(old);
    await w.write(1, 0, 0, content(1));
    await w.close();
    await expect(PmtilesWriter.open(old, { resume: true, job })).rejects.toThrow(/records no job identity/);
  });

  test('merge refuses shards of different jobs and writes its own metadata', () => {
    const a = { name: 'x', attribution: 'A | B', tilegraph: { job: { ...job, shard: '0/2' } } };
    const b = { name: 'x', attribution: 'B | C', tilegraph: { job: { ...job, shard: '1/2' } } };
    const info = { minZoom: 0, maxZoom: 4, bounds: [-180, -85, 180, 85] as [number, number, number, number] };
    const m = mergedMetadata(['a', 'b'], [a, b], info);
    expect(m).toMatchObject({
      name: 'x',
      attribution: 'A | B | C',
      minzoom: 0,
      maxzoom: 4,
      tilegraph: { merged: 2, version: 'v1', params: { land: '#ff0000ff' } },
    });
    const c = { tilegraph: { job: { ...job, params: { land: '#000000ff' }, shard: '1/2' } } };
    expect(() => mergedMetadata(['a', 'c'], [a, c], info)).toThrow(/c is of a different job than a \(params/);
  });
});
