// Fuzzing (issue 13): random byte corruptions of each source type (MVT, gzip MVT, PMTiles with
// gzip / zstd internals, GeoJSON, Terrain-RGB PNG). Every read is a SourceError or data, quickly;
// never another error, a hang or a crash.
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { SourceError } from '../../src/index.js';
import { createDemSource } from '../../src/sources/dem.js';
import { GeojsonSource } from '../../src/sources/geojson.js';
import { createMvtSource } from '../../src/sources/mvt.js';
import { createPmtilesSource } from '../../src/sources/pmtiles.js';
import { tileWindow } from '../../src/types.js';
import { ctxOf, MemoryLoader, MVT_FIXTURES, readBytes, solidPng, zstdRaw } from '../sources/helpers.js';
import { writePmtiles } from '../sources/pmtiles-writer.js';

const T = tileWindow({ z: 13, x: 2101, y: 3044 }, 256);
const mvt = readBytes(path.join(MVT_FIXTURES, 'chicago/13-2101-3044.mvt'));

type Corruption =
  | { kind: 'flip'; at: number; mask: number }[]
  | { kind: 'truncate'; at: number }
  | { kind: 'fill'; at: number; length: number; byte: number }
  | { kind: 'insert'; at: number; bytes: number[] };

const corruption: fc.Arbitrary<Corruption> = fc.oneof(
  fc.array(fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) }), { minLength: 1, maxLength: 8 }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('fill' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 64 }), byte: fc.constantFrom(0, 0xff, 0x80, 0x7f) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 16 }) }),
);

function corrupt(b: Uint8Array, c: Corruption): Uint8Array {
  const out = b.slice();
  if (Array.isArray(c)) {
    for (const f of c) out[f.at % out.length] ^= f.mask;
    return out;
  }
  const at = c.at % Math.max(1, b.length);
  if (c.kind === 'truncate') return out.subarray(0, at);
  if (c.kind === 'fill') {
    out.fill(c.byte, at, at + c.length);
    return out;
  }
  return Uint8Array.from([...b.subarray(0, at), ...c.bytes, ...b.subarray(at)]);
}

interface Subject {
  name: string;
  bytes: () => Promise<Uint8Array>;
  read: (bytes: Uint8Array) => Promise<unknown>;
}

const feature = {
  type: 'Feature',
  properties: { n: 1 },
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [-88, 41.8],
        [-87.5, 41.8],
        [-87.5, 42],
        [-88, 41.8],
      ],
    ],
  },
};
const SUBJECTS: Subject[] = [
  {
    name: 'mvt',
    bytes: async () => mvt,
    read: (b) =>
      createMvtSource(
        's',
        { type: 'mvt', tiles: ['t/{z}/{x}/{y}.mvt'], minzoom: 13, maxzoom: 13 },
        ctxOf(new MemoryLoader({ 't/13/2101/3044.mvt': b })),
      ).features('road', T),
  },
  {
    name: 'mvt.gz',
    bytes: async () => new Uint8Array(gzipSync(mvt)),
    read: (b) =>
      createMvtSource(
        's',
        { type: 'mvt', tiles: ['t/{z}/{x}/{y}.mvt'], minzoom: 13, maxzoom: 13 },
        ctxOf(new MemoryLoader({ 't/13/2101/3044.mvt': b })),
      ).features('road', T),
  },
  {
    name: 'pmtiles gzip',
    bytes: async () =>
      writePmtiles([{ z: 13, x: 2101, y: 3044, data: mvt }], {
        tileType: 1,
        compression: { code: 2, compress: (b) => new Uint8Array(gzipSync(b)) },
        metadata: { vector_layers: [{ id: 'road' }] },
      }),
    read: (b) => createPmtilesSource('s', { type: 'pmtiles', url: 'a.pmtiles' }, ctxOf(new MemoryLoader({ 'a.pmtiles': b }))).features('road', T),
  },
  {
    name: 'pmtiles zstd',
    bytes: async () => writePmtiles([{ z: 13, x: 2101, y: 3044, data: mvt }], { tileType: 1, compression: { code: 4, compress: zstdRaw } }),
    read: (b) => createPmtilesSource('s', { type: 'pmtiles', url: 'a.pmtiles' }, ctxOf(new MemoryLoader({ 'a.pmtiles': b }))).features('road', T),
  },
  {
    name: 'geojson',
    bytes: async () => new TextEncoder().encode(JSON.stringify({ type: 'FeatureCollection', features: [feature, { ...feature, properties: { n: 2 } }] })),
    read: (b) => new GeojsonSource({ name: 'g', decl: { type: 'geojson', data: 'g.json' }, loader: new MemoryLoader({ 'g.json': b }) }).features('g', T),
  },
  {
    name: 'dem png',
    bytes: () => solidPng(256, [1, 134, 160, 255]),
    read: (b) =>
      createDemSource('d', { type: 'dem', tiles: ['d/{z}/{x}/{y}.png'], tileSize: 256, maxzoom: 3 }, ctxOf(new MemoryLoader({ 'd/3/2/2.png': b }))).field(
        tileWindow({ z: 3, x: 2, y: 2 }, 256),
      ),
  },
];

const BUDGET_MS = 5000;

test.each(SUBJECTS.map((s) => [s.name, s] as const))('corrupted %s: a SourceError or data, quickly', async (_name, s) => {
  const good = await s.bytes();
  await s.read(good); // the uncorrupted bytes read
  await fc.assert(
    fc.asyncProperty(corruption, async (c) => {
      const t0 = Date.now();
      try {
        await s.read(corrupt(good, c));
      } catch (e) {
        if (!(e instanceof SourceError)) throw new Error(`${s.name} ${JSON.stringify(c)}: ${(e as Error)?.stack ?? e}`);
      }
      expect(Date.now() - t0).toBeLessThan(BUDGET_MS);
    }),
    {
      seed: Number(process.env.FUZZ_SEED ?? 1313),
      numRuns: Number(process.env.FUZZ_RUNS ?? 60),
      interruptAfterTimeLimit: 30_000,
      markInterruptAsFailure: false,
    },
  );
});
