// Pixel ratio over every golden style: the case's window at pixel ratio 2 equals the same window at
// twice the pixels (ratio 1) of the style with every size in pixels written twice as large (the
// fields of src/render/pixel-ratio.ts, their `*-max`, the params they read), within the golden
// tolerance. An op whose kernel, pad or clamp forgets the ratio fails here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CpuBackend, Renderer, tileWindow, toRGBA8, type Window } from '../../src/index.js';
import { NodeLoader } from '../../src/hosts/node/loader.js';
import { PIXEL_FIELDS } from '../../src/render/pixel-ratio.js';
import { compareRGBA } from '../helpers/compare.js';
import { fixturesPresent } from '../helpers/fixtures.js';

const GOLDEN = path.resolve('golden');

/** Cases the rewrite cannot double, and why. */
const EXCEPTIONS: Record<string, string> = {
  'drop-shadow-func': 'its stroke width comes from an @node scalar (a function port): no field to rewrite',
  'gallery-toner': 'its stroke widths come from @node scalars: no field to rewrite',
  'source-dem-relief': 'at pixel ratio 2 the window reads a Terrain-RGB tile ../shared/fixtures does not hold',
};

type Doc = { params?: Record<string, Record<string, unknown>>; nodes: Record<string, Record<string, unknown>> };

/** The style with every size in pixels times k; the params those sizes read, to scale their values. */
function doubled(doc: Doc, k: number): { doc: Doc; params: Set<string> } {
  const d = structuredClone(doc);
  const params = new Set<string>();
  for (const n of Object.values(d.nodes)) {
    const maxes = new Set<string>();
    for (const f of PIXEL_FIELDS[n.op as string] ?? []) {
      const v = n[f];
      if (v === undefined) continue;
      if (typeof v === 'number') n[f] = v * k;
      else if (typeof v === 'string' && v.startsWith('$')) params.add(v.slice(1));
      else if (f.endsWith('-expr')) n[f] = ['*', k, v];
      else throw new Error(`cannot double ${n.op} '${f}': ${JSON.stringify(v)}`);
      maxes.add(`${f.replace(/-expr$/, '')}-max`);
    }
    if (n.op === 'stamp') maxes.add('size-max');
    for (const m of maxes) if (typeof n[m] === 'number') n[m] = (n[m] as number) * k;
  }
  for (const p of params) {
    const decl = d.params![p]!;
    for (const key of ['default', 'min', 'max']) if (typeof decl[key] === 'number') decl[key] = (decl[key] as number) * k;
  }
  return { doc: d, params };
}

const backend = new CpuBackend();

describe('every golden style at pixel ratio 2 = the style with doubled pixel sizes', () => {
  for (const name of readdirSync(GOLDEN).sort()) {
    const dir = path.join(GOLDEN, name);
    if (!existsSync(path.join(dir, 'case.json'))) continue;
    const text = readFileSync(path.join(dir, 'style.json'), 'utf8');
    const reason = EXCEPTIONS[name];
    const run = reason || (text.includes('shared/fixtures') && !fixturesPresent) ? test.skip : test;
    run(
      `${name}${reason ? ` (skipped: ${reason})` : ''}`,
      async () => {
        const spec = JSON.parse(readFileSync(path.join(dir, 'case.json'), 'utf8')) as {
          tile?: string;
          window?: Omit<Window, 'tileSize'>;
          tileSize?: number;
          params?: Record<string, string>;
          tolerance?: { channel?: number; fraction?: number };
        };
        const T = spec.tileSize ?? 256;
        const [z, x, y] = (spec.tile ?? '0/0/0').split('/').map(Number) as [number, number, number];
        const w: Window = spec.window ? { ...spec.window, tileSize: T } : tileWindow({ z, x, y }, T);
        const w2: Window = { z: w.z, x0: w.x0 * 2, y0: w.y0 * 2, width: w.width * 2, height: w.height * 2, tileSize: T * 2 };
        const doc = JSON.parse(text) as Doc;
        const twice = doubled(doc, 2);
        const loader = new NodeLoader({ baseDir: dir, allowOutside: true });
        const base = Renderer.create(doc, { loader });
        const ref = Renderer.create(twice.doc, { loader });
        const given = spec.params ?? {};
        const refParams = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, twice.params.has(k) ? String(Number(v) * 2) : v]));
        const at2 = toRGBA8((await base.renderWindow({ ...w2, pixelRatio: 2 }, base.params(given), { backend })).raster);
        const expected = toRGBA8((await ref.renderWindow(w2, ref.params(refParams), { backend })).raster);
        const cmp = compareRGBA(at2, expected, w2.width, w2.height, { channel: spec.tolerance?.channel ?? 2, fraction: spec.tolerance?.fraction ?? 0.001 });
        expect({ ok: cmp.ok, badPixels: cmp.badPixels, maxDiff: cmp.maxDiff }).toEqual({
          ok: true,
          badPixels: expect.any(Number),
          maxDiff: expect.any(Number),
        });
      },
      120_000,
    );
  }
});
