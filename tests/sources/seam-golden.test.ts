// The seam invariant over every golden case (DESIGN §3): the 2x2 block of tiles around the case's
// tile (or window), rendered one tile at a time, equals the block rendered as one window, within
// the case's own tolerance, at pixel ratio 1 and 2. The golden suite checks what each style draws;
// this checks that its tiles continue each other.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { CpuBackend, Renderer } from '../../src/index.js';
import { NodeLoader } from '../../src/hosts/node/loader.js';
import type { Tolerance } from '../helpers/compare.js';
import { seam } from '../helpers/seam.js';
import { fixturesPresent } from '../helpers/fixtures.js';

const GOLDEN = path.resolve('golden');

/** Cases whose tiles are not meant to continue each other, or whose fixtures hold too few tiles. */
const EXCEPTIONS: Record<string, string> = {
  'circle-raster': 'a raster circle centred on each canvas (a vignette): per tile by design',
  'dither-floyd-steinberg': 'error diffusion runs over each canvas in raster order (docs/format.md): not seamless by design',
  'source-mvt-street': '../shared/fixtures holds only the case tile of the Berlin street block',
  'terrain-example': '../shared/fixtures holds only the Terrarium tiles the case reads',
  'terrain-hillshade': '../shared/fixtures holds only the Terrarium tiles the case reads',
};

/** Cases checked at pixel ratio 1 only, and why. */
const RATIO_1_ONLY: Record<string, string> = {
  'source-dem-relief': 'at pixel ratio 2 the block reads a Terrain-RGB tile ../shared/fixtures does not hold',
};

interface Case {
  name: string;
  dir: string;
  style: string;
  z: number;
  tx: number;
  ty: number;
  tileSize: number;
  params: Record<string, string>;
  tolerance: Tolerance;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const name of readdirSync(GOLDEN).sort()) {
    const dir = path.join(GOLDEN, name);
    if (!existsSync(path.join(dir, 'case.json'))) continue;
    const spec = JSON.parse(readFileSync(path.join(dir, 'case.json'), 'utf8')) as {
      tile?: string;
      window?: { z: number; x0: number; y0: number; width: number; height: number };
      tileSize?: number;
      params?: Record<string, string>;
      tolerance?: Partial<Tolerance>;
    };
    const T = spec.tileSize ?? 256;
    let [z, tx, ty] = (spec.tile ?? '0/0/0').split('/').map(Number) as [number, number, number];
    if (spec.window) {
      // The block whose centre is nearest the window's centre.
      z = spec.window.z;
      tx = Math.floor((spec.window.x0 + spec.window.width / 2) / T - 0.5);
      ty = Math.floor((spec.window.y0 + spec.window.height / 2) / T - 0.5);
    }
    const n = 2 ** z;
    if (n < 2) continue;
    tx = Math.max(0, Math.min(n - 2, tx));
    ty = Math.max(0, Math.min(n - 2, ty));
    const style = readFileSync(path.join(dir, 'style.json'), 'utf8');
    const tolerance: Tolerance = { channel: spec.tolerance?.channel ?? 2, fraction: spec.tolerance?.fraction ?? 0.001 };
    out.push({ name, dir, style, z, tx, ty, tileSize: T, params: spec.params ?? {}, tolerance });
  }
  return out;
}

const backend = new CpuBackend();

async function seamOf(c: Case, ratio: number) {
  const r = Renderer.create(c.style, { loader: new NodeLoader({ baseDir: c.dir, allowOutside: true }) });
  return seam(r, c.z, c.tx, c.ty, c.tileSize * ratio, { backend, params: r.params(c.params), pixelRatio: ratio, tolerance: c.tolerance });
}

describe('every golden style: 2x2 tiles = the same block as one window', () => {
  for (const c of cases()) {
    const reason = EXCEPTIONS[c.name];
    const needsShared = c.style.includes('shared/fixtures');
    const run = reason || (needsShared && !fixturesPresent) ? test.skip : test;
    const only1 = RATIO_1_ONLY[c.name];
    const ratios = only1 ? [1] : [1, 2];
    const what = `pixel ratio ${only1 ? `1 (${only1})` : '1 and 2'}`;
    run(
      `${c.name}: z${c.z} tiles ${c.tx}..${c.tx + 1} x ${c.ty}..${c.ty + 1}, ${what}${reason ? ` (skipped: ${reason})` : ''}`,
      async () => {
        for (const ratio of ratios) {
          const cmp = await seamOf(c, ratio);
          expect({ ratio, ok: cmp.ok, badPixels: cmp.badPixels, maxDiff: cmp.maxDiff }).toEqual({
            ratio,
            ok: true,
            badPixels: expect.any(Number),
            maxDiff: expect.any(Number),
          });
        }
      },
      120_000,
    );
  }
});
