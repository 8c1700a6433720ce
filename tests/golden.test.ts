// Golden cases: golden/<case>/{style.json, case.json, expected.png}, rendered on every available
// backend against the same expected image. UPDATE=1 rewrites expected.png from the CPU backend
// (the reference); actual.png and diff.png land beside a failing case (git-ignored).
import { existsSync, readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { openStyle, encodePng, decodePngRGBA } from '../src/hosts/node/index.js';
import { toRGBA8, type Window } from '../src/index.js';
import { CpuBackend, type Backend } from '../src/index.js';
import { GPU, gpuTest } from './gpu/harness.js';
import { fixturesPresent } from './helpers/fixtures.js';
import { compareRGBA, type Tolerance } from './helpers/compare.js';

const ROOT = path.resolve('golden');
const UPDATE = process.env.UPDATE === '1';

interface CaseSpec {
  description?: string;
  tile?: string;
  window?: Omit<Window, 'tileSize'>;
  tileSize?: number;
  params?: Record<string, string>;
  tolerance?: Tolerance;
  /** Backends this case runs on (default: all available). */
  backends?: ('cpu' | 'gpu')[];
  /** Set when a case needs ../shared/fixtures. */
  needsFixtures?: boolean;
}

const cases = existsSync(ROOT)
  ? readdirSync(ROOT).filter((d) => existsSync(path.join(ROOT, d, 'case.json'))).sort()
  : [];

function windowOf(c: CaseSpec): Window {
  const tileSize = c.tileSize ?? 256;
  if (c.window) return { ...c.window, tileSize };
  const [z, x, y] = (c.tile ?? '0/0/0').split('/').map(Number) as [number, number, number];
  return { z, x0: x * tileSize, y0: y * tileSize, width: tileSize, height: tileSize, tileSize };
}


describe('golden cases', () => {
  test('the golden suite is not empty', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  for (const name of cases) {
    const dir = path.join(ROOT, name);
    const spec = JSON.parse(readFileSync(path.join(dir, 'case.json'), 'utf8')) as CaseSpec;
    const label = `${name}${spec.description ? ': ' + spec.description : ''}`;
    // One test per backend; a case that cannot run here is reported as skipped, never as passed.
    for (const bname of (['cpu', 'gpu'] as const).filter((b) => !spec.backends || spec.backends.includes(b))) {
      const run: typeof test = spec.needsFixtures && !fixturesPresent ? (test.skip as typeof test) : bname === 'gpu' ? gpuTest : test;
      if (UPDATE && bname === 'gpu') continue;
      run(`${label} [${bname}]`, async () => {
        const backend: Backend = bname === 'cpu' ? new CpuBackend() : GPU!;
        await checkCase(name, dir, spec, bname, backend);
      });
    }
  }

});

async function checkCase(name: string, dir: string, spec: CaseSpec, bname: 'cpu' | 'gpu', backend: Backend): Promise<void> {
  const renderer = await openStyle(path.join(dir, 'style.json'), { allowOutside: true });
  const params = renderer.params(spec.params ?? {});
  const win = windowOf(spec);
  const expectedPath = path.join(dir, 'expected.png');
  const { raster } = await renderer.renderWindow(win, params, { backend });
  if (UPDATE && bname === 'cpu') {
    writeFileSync(expectedPath, await encodePng(raster));
    return;
  }
  if (!existsSync(expectedPath)) throw new Error(`${name}: no expected.png; run with UPDATE=1 to create it`);
  const exp = await decodePngRGBA(readFileSync(expectedPath));
  expect([exp.width, exp.height]).toEqual([raster.width, raster.height]);
  const actual = toRGBA8(raster);
  const cmp = compareRGBA(actual, exp.data, raster.width, raster.height, spec.tolerance);
  const suffix = bname === 'cpu' ? '' : `-${bname}`;
  if (!cmp.ok) {
    writeFileSync(path.join(dir, `actual${suffix}.png`), await encodePng(raster));
    await sharp(Buffer.from(cmp.diff), { raw: { width: raster.width, height: raster.height, channels: 4 } }).png().toFile(path.join(dir, `diff${suffix}.png`));
    throw new Error(`${name} on ${bname}: ${cmp.badPixels} pixels (${(cmp.badFraction * 100).toFixed(3)}%) differ by more than ${spec.tolerance?.channel ?? 2}/255 (max ${cmp.maxDiff.toFixed(1)}); see ${dir}/diff${suffix}.png`);
  }
  for (const f of [`actual${suffix}.png`, `diff${suffix}.png`]) rmSync(path.join(dir, f), { force: true });
}
