// The seam invariant over every bundled example (DESIGN §3), as a user meets them in the gallery:
// at every tile of z0-3, all the tiles of a zoom side by side equal the world rendered as one
// window, and equal it across the antimeridian too (the window from x = W/2 to 3W/2, whose right
// half every source and op wraps: the tiles 2^z - 1 and 0 must continue each other); and a 2x2
// block at the example's deepest zoom. 128 px tiles keep the suite near a minute on two cores;
// the world pixels they cover are those of 256 px tiles one zoom lower.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CpuBackend, Renderer } from '../../src/index.js';
import { NodeLoader } from '../../src/hosts/node/loader.js';
import { seam, worldSeam } from '../helpers/seam.js';
import { fixture, fixturesPresent } from '../helpers/fixtures.js';

const EXAMPLES = path.resolve('examples');
const T = 128;
const backend = new CpuBackend();

/** The deepest zoom each example draws data at (its sources' maxzoom), and a 2x2 block of 128 px tiles there inside the data. */
const DEEP: Record<string, { z: number; x: number; y: number; why: string }> = {
  handdrawn: { z: 13, x: 2100, y: 3044, why: 'Chicago z13 (mvt-fixtures), across four source tiles' },
  toner: { z: 13, x: 2100, y: 3044, why: 'Chicago z13 (mvt-fixtures), across four source tiles' },
  'maplibre-effects': { z: 13, x: 2100, y: 3044, why: 'Chicago z13 (mvt-fixtures), across four source tiles' },
  heatmap: { z: 15, x: 5237, y: 12665, why: 'San Francisco z15 (mvt-fixtures), across four source tiles' },
  stipple: { z: 8, x: 73, y: 97, why: 'Chesapeake Bay at z8, the us-atlas states maxzoom' },
  world: { z: 6, x: 33, y: 22, why: 'the Alps at z6, the countries maxzoom' },
  watercolor: { z: 6, x: 33, y: 22, why: 'the Alps at z6, the countries maxzoom' },
  terrain: { z: 10, x: 539, y: 355, why: 'the Terrarium z9 fixture block at its own resolution (the terrain-example golden window)' },
};

/**
 * The terrain example reads public AWS tiles; here its DEM source reads ../shared/fixtures: the
 * Terrarium world tile (z0, over-zoomed) for z0-3, the z9 block (Swabian Jura) for the deep block.
 */
function styleOf(name: string, deep: boolean): string {
  const text = readFileSync(path.join(EXAMPLES, name, 'style.json'), 'utf8');
  if (name !== 'terrain') return text;
  const doc = JSON.parse(text) as { sources: Record<string, Record<string, unknown>> };
  const dir = deep ? 'mapzen-z9-256' : 'mapzen-z0-256';
  const z = deep ? 9 : 0;
  doc.sources.terrain = { ...doc.sources.terrain, tiles: [fixture('dem', 'terrarium', dir, '{z}-{x}-{y}.png')], minzoom: z, maxzoom: z };
  return JSON.stringify(doc);
}

const renderer = (name: string, deep: boolean) =>
  Renderer.create(styleOf(name, deep), { loader: new NodeLoader({ baseDir: path.join(EXAMPLES, name), allowOutside: true }) });

const examples = readdirSync(EXAMPLES)
  .filter((d) => !d.startsWith('.'))
  .sort();

test('every bundled example has a deep block here', () => {
  expect(examples.filter((e) => !DEEP[e])).toEqual([]);
});

for (const name of examples) {
  const needsFixtures = name === 'terrain';
  const run = needsFixtures && !fixturesPresent ? test.skip : test;
  describe(`examples/${name}`, () => {
    run(
      'z0-3: all tiles = the world as one window, and across the antimeridian',
      async () => {
        const r = renderer(name, false);
        const got = [];
        for (let z = 0; z <= 3; z++) {
          const s = await worldSeam(r, z, T, { backend, params: r.params({}) });
          if (process.env.SEAM_DEBUG)
            console.log(
              JSON.stringify({
                name,
                z,
                world: [s.world.badPixels, s.world.maxDiff],
                across: [s.across.badPixels, s.across.maxDiff],
                am: s.antimeridianStep,
                edge: s.edgeStep,
              }),
            );
          got.push({ z, world: s.world.ok, across: s.across.ok });
        }
        expect(got).toEqual([0, 1, 2, 3].map((z) => ({ z, world: true, across: true })));
      },
      600_000,
    );
    const d = DEEP[name];
    if (d)
      run(
        `deepest zoom: z${d.z} tiles ${d.x}..${d.x + 1} x ${d.y}..${d.y + 1} (${d.why})`,
        async () => {
          const r = renderer(name, true);
          const s = await seam(r, d.z, d.x, d.y, T, { backend, params: r.params({}) });
          if (process.env.SEAM_DEBUG) console.log(JSON.stringify({ name, deep: d, ...s }));
          expect({ ok: s.ok, covered: s.covered > 0.5, colours: s.colours > 20 }).toEqual({ ok: true, covered: true, colours: true });
        },
        600_000,
      );
  });
}
