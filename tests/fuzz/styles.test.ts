// Fuzzing (issue 13): mutated styles through load, build and render. Every outcome is a
// TilegraphError or a tile, within the render time budget; never a crash, a RangeError, a hang.
// Seeds: the golden styles whose data is inline (many ops, no files). Runs are seeded: a failure
// prints its seed and path; fixed failures stay below as `examples` (regression cases).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { LIMITS, Renderer, TilegraphError } from '../../src/index.js';
import { NodeLoader } from '../../src/hosts/node/loader.js';

const GOLDEN = path.resolve('golden');

interface Case {
  name: string;
  doc: Record<string, unknown>;
  tile: { z: number; x: number; y: number };
}

const inline = (doc: Record<string, unknown>) =>
  Object.values((doc.sources ?? {}) as Record<string, { data?: unknown }>).every((s) => s && typeof s.data === 'object');

const CASES: Case[] = readdirSync(GOLDEN)
  .filter((d) => {
    try {
      return inline(JSON.parse(readFileSync(path.join(GOLDEN, d, 'style.json'), 'utf8')));
    } catch {
      return false;
    }
  })
  .sort()
  .map((d) => {
    const c = JSON.parse(readFileSync(path.join(GOLDEN, d, 'case.json'), 'utf8')) as { tile?: string };
    const [z, x, y] = (c.tile ?? '0/0/0').split('/').map(Number) as [number, number, number];
    return { name: d, doc: JSON.parse(readFileSync(path.join(GOLDEN, d, 'style.json'), 'utf8')), tile: { z, x, y } };
  });

/** Values a careless author or a hostile one writes. */
const nasty = fc.oneof(
  fc.constantFrom<unknown>(
    0,
    -1,
    1,
    0.5,
    3,
    255,
    5000,
    -5000,
    1e9,
    1e308,
    -1e308,
    null,
    true,
    false,
    '',
    'x',
    '$nope',
    '@nope',
    '@out',
    '$',
    '@',
    '__proto__',
    'constructor',
    'toString',
    '#ff0000',
    '#ff000080',
    '#zzzzzz',
    [],
    {},
    [1, 2, 3],
    [[[[[]]]]],
    ['get', 'x'],
    ['zoom'],
    { op: 'solid', color: '#000000' },
  ),
  fc.double({ noNaN: true }),
  fc.integer({ min: -100000, max: 100000 }),
  fc.string({ maxLength: 12 }),
  fc.jsonValue({ maxDepth: 3 }),
);

type Mutation =
  | { kind: 'set'; at: number; value: unknown }
  | { kind: 'number'; at: number; value: number }
  | { kind: 'delete'; at: number }
  | { kind: 'add'; at: number; key: string; value: unknown };

/** Sizes: what a careless author writes into a sigma, a radius, a param's max. */
const size = fc.oneof(fc.constantFrom(0, -1, 0.001, 300, 400, 1000, 5000, 1e5, 1e9, 1e308, -1e308), fc.double({ min: -1e6, max: 1e6, noNaN: true }));

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: nasty }),
  fc.record({ kind: fc.constant('number' as const), at: fc.nat(), value: size }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('add' as const),
    at: fc.nat(),
    key: fc.oneof(
      fc.constantFrom('sigma', 'radius', 'max', 'min', 'source', 'layer', 'input', 'op', '__proto__', 'constructor', 'x'),
      fc.string({ maxLength: 8 }),
    ),
    value: nasty,
  }),
);

/** Every container and value in the document, as a path of keys. */
function paths(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (v && typeof v === 'object') for (const [k, c] of Object.entries(v)) paths(c, [...at, Array.isArray(v) ? Number(k) : k], out);
  return out;
}

function apply(doc: Record<string, unknown>, m: Mutation): void {
  if (m.kind === 'number') {
    // A number of the document (a field, a bound, a param's min / max / default) becomes `value`.
    const nums = paths(doc).filter((p) => typeof get(doc, p) === 'number');
    if (nums.length) set(doc, nums[m.at % nums.length]!, m.value);
    return;
  }
  const all = paths(doc);
  const p = all[m.at % all.length]!;
  if (m.kind === 'add') {
    let target: unknown = doc;
    for (const k of p) target = (target as Record<string, unknown>)[k as string];
    if (target && typeof target === 'object' && !Array.isArray(target))
      Object.defineProperty(target, m.key, { value: structuredClone(m.value), enumerable: true, writable: true, configurable: true });
    return;
  }
  if (p.length === 0) return;
  let parent: unknown = doc;
  for (const k of p.slice(0, -1)) parent = (parent as Record<string, unknown>)[k as string];
  const key = p[p.length - 1]!;
  if (m.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete (parent as Record<string, unknown>)[key as string];
  } else (parent as Record<string, unknown>)[key as string] = structuredClone(m.value);
}

function get(doc: unknown, p: (string | number)[]): unknown {
  let v = doc;
  for (const k of p) v = (v as Record<string, unknown>)[k as string];
  return v;
}

function set(doc: unknown, p: (string | number)[], value: unknown): void {
  (get(doc, p.slice(0, -1)) as Record<string, unknown>)[p[p.length - 1] as string] = value;
}

/**
 * The process's RSS when this file starts: a jest worker that ran other files before this one
 * already holds their memory (once 3 GB), which says nothing about the fuzzed renders.
 */
const RSS_AT_START = process.memoryUsage().rss;

/** The render time budget of one fuzzed render (the server's default --timeout is 30 s). */
const BUDGET_MS = 20_000;

async function outcome(c: Case, mutations: Mutation[]): Promise<'tile' | 'error'> {
  const doc = structuredClone(c.doc);
  for (const m of mutations) apply(doc, m);
  // A crash of the process (not an exception) leaves its case here: FUZZ_LOG=/tmp/fuzz.log.
  if (process.env.FUZZ_LOG) writeFileSync(process.env.FUZZ_LOG, JSON.stringify({ case: c.name, mutations, doc }));
  const t0 = Date.now();
  try {
    const r = Renderer.create(doc, { loader: new NodeLoader({ baseDir: path.join(GOLDEN, c.name) }) });
    const params = r.params();
    await r.renderTile(c.tile, params, { tileSize: 64, signal: AbortSignal.timeout(BUDGET_MS) });
    return 'tile';
  } catch (e) {
    if (e instanceof TilegraphError) return 'error';
    throw new Error(`case ${c.name}: not a TilegraphError after ${Date.now() - t0} ms: ${(e as Error)?.stack ?? e}`);
  } finally {
    expect(Date.now() - t0).toBeLessThan(BUDGET_MS);
    // The memory budget of one render (2 GiB of canvases) plus what this file's own work keeps.
    expect(process.memoryUsage().rss - RSS_AT_START).toBeLessThan(LIMITS.maxRenderBytes + 1.5 * 1024 ** 3);
  }
}

test('the seed styles themselves render', async () => {
  expect(CASES.length).toBeGreaterThan(10);
  for (const c of CASES.slice(0, 8)) {
    const r = Renderer.create(structuredClone(c.doc), { loader: new NodeLoader({ baseDir: path.join(GOLDEN, c.name) }) });
    await r.renderTile(c.tile, r.params(), { tileSize: 64 });
  }
});

/**
 * Failures the fuzzer (and probes of its kind) found, kept as fixed regression cases: the golden
 * case and the values set (seed 1313 against the tree before issue 13; two crashed the process).
 */
const FOUND: { case: string; sets: [(string | number)[], unknown][]; was: string }[] = [
  {
    case: 'blend-modes',
    sets: [[['nodes', 'over11', 'fill-expr', 0], 'toString']],
    was: 'TypeError: Expr.parse is not a function (an Object.prototype name as an expression operator)',
  },
  {
    case: 'geom-measures',
    sets: [[['sources', 's', 'data', 'features', 1, 'geometry', 'coordinates', 1, 4, 0], -3.825599480363602e138]],
    was: 'V8 fatal "invalid size error" (a longitude of -3.8e138 spread a whole feature over 10^136 worlds)',
  },
  { case: 'geom-measures', sets: [[['sources', 's', 'data', 'features', 2, 'geometry', 'coordinates', 1, 0], ' jp~#qO']], was: 'a string as a longitude' },
  {
    case: 'geom-dash-densify',
    sets: [
      [['nodes', 'd1', 'dash-px'], 1e-6],
      [['nodes', 'd1', 'gap-px'], 1e-6],
    ],
    was: 'V8 fatal out of memory (a dash period of 2e-6 px: billions of dashes)',
  },
];

test.each(FOUND.map((f) => [f.was, f] as const))('found by the fuzzer, fixed: %s', async (_was, f) => {
  const c = CASES.find((x) => x.name === f.case)!;
  const doc = structuredClone(c.doc);
  for (const [at, value] of f.sets) set(doc, at, value);
  const r = await (async () => {
    try {
      const rr = Renderer.create(doc, { loader: new NodeLoader({ baseDir: path.join(GOLDEN, c.name) }) });
      await rr.renderTile(c.tile, rr.params(), { tileSize: 64, signal: AbortSignal.timeout(BUDGET_MS) });
      return 'tile';
    } catch (e) {
      return e;
    }
  })();
  if (r !== 'tile') expect(r).toBeInstanceOf(TilegraphError);
});

test('mutated styles: a TilegraphError or a tile, within the time budget', async () => {
  await fc.assert(
    fc.asyncProperty(fc.nat(), fc.array(mutation, { minLength: 1, maxLength: 3 }), async (i, ms) => {
      await outcome(CASES[i % CASES.length]!, ms);
    }),
    {
      seed: Number(process.env.FUZZ_SEED ?? 1313),
      numRuns: Number(process.env.FUZZ_RUNS ?? 150),
      interruptAfterTimeLimit: 60_000,
      markInterruptAsFailure: false,
    },
  );
});
