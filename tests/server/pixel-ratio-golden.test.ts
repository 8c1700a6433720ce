// Pixel ratio per op family against styles whose doubled sizes are written by hand
// (tests/pixel-ratio/<family>/style@2x.json, not derived from the ops' declared units): the case's
// tile of style.json at pixel ratio 2 equals the same 512 px tile of style@2x.json at ratio 1. An
// op that forgets to declare a size in pixels (`unit: 'px'`), or a kernel that reads one without
// the ratio, fails here: before issue 19, fill-pattern's `offset` (25,046 pixels off on the
// pattern-hatch case) and every brush's `width-px` and stroke's `width-max`; density's unset
// `radius` (its default 30 px) too.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CpuBackend, Renderer, tileWindow, type Backend, type Window } from '../../src/index.js';
import { encodePng } from '../../src/hosts/node/png.js';
import { NodeLoader } from '../../src/hosts/node/loader.js';
import { GPU, gpuDescribe } from '../gpu/harness.js';
import { compareRGBA } from '../helpers/compare.js';
import { decodeWithSharp } from '../helpers/decode.js';
import { PIXEL_RATIO_DIR } from '../helpers/pixel-ratio.js';

const backend = new CpuBackend();

/** Every folder with a case: one per op family, and any a new op adds. */
const FAMILIES = readdirSync(PIXEL_RATIO_DIR)
  .filter((d) => existsSync(path.join(PIXEL_RATIO_DIR, d, 'case.json')))
  .sort();
/** The op families issue 19 names (text comes with its op). */
const REQUIRED = ['fills-strokes', 'circles', 'brushes-stroke', 'stamp-pattern', 'raster-kernels', 'density-contour', 'geometry'];

interface Case {
  tile: string;
  tileSize?: number;
}

function load(family: string) {
  const dir = path.join(PIXEL_RATIO_DIR, family);
  const spec = JSON.parse(readFileSync(path.join(dir, 'case.json'), 'utf8')) as Case;
  const T = spec.tileSize ?? 256;
  const [z, x, y] = spec.tile.split('/').map(Number) as [number, number, number];
  const loader = new NodeLoader({ baseDir: dir, allowOutside: true });
  const base = Renderer.create(readFileSync(path.join(dir, 'style.json'), 'utf8'), { loader });
  const twice = Renderer.create(readFileSync(path.join(dir, 'style@2x.json'), 'utf8'), { loader });
  // The tile at twice the pixels: the same area, world pixels of a 2T world.
  const w2: Window = tileWindow({ z, x, y }, 2 * T);
  return { base, twice, w2 };
}

/** The window as a user receives it: our PNG encoder, decoded by libvips. */
const pixels = async (r: Renderer, w: Window, b: Backend = backend) =>
  (await decodeWithSharp(await encodePng((await r.renderWindow(w, r.params(), { backend: b })).raster))).data;

test('every family folder holds a style, its hand-doubled twin and a case', () => {
  expect(FAMILIES).toEqual(expect.arrayContaining(REQUIRED));
  for (const d of FAMILIES) for (const f of ['style.json', 'style@2x.json']) expect([d, f, existsSync(path.join(PIXEL_RATIO_DIR, d, f))]).toEqual([d, f, true]);
});

describe('each op family at pixel ratio 2 = its style with sizes doubled by hand', () => {
  for (const family of FAMILIES) {
    test(family, async () => {
      const { base, twice, w2 } = load(family);
      const at2 = await pixels(base, { ...w2, pixelRatio: 2 });
      const expected = await pixels(twice, w2);
      // Both render the same world pixels with the same sizes: equal up to float rounding.
      const cmp = compareRGBA(at2, expected, w2.width, w2.height, { channel: 1, fraction: 0 });
      expect({ family, ok: cmp.ok, badPixels: cmp.badPixels, maxDiff: cmp.maxDiff }).toEqual({ family, ok: true, badPixels: 0, maxDiff: expect.any(Number) });
      // And the sizes matter: the plain 512 px render (sizes not doubled) differs on many pixels.
      const plain = await pixels(base, w2);
      const diff = compareRGBA(plain, expected, w2.width, w2.height, { channel: 8, fraction: 0 });
      expect({ family, plainDiffers: diff.badPixels > 500 }).toEqual({ family, plainDiffers: true });
    });
  }
});

gpuDescribe('each op family at pixel ratio 2 on the GPU = its hand-doubled style on the CPU (golden tolerance)', () => {
  for (const family of FAMILIES) {
    test(family, async () => {
      const { base, twice, w2 } = load(family);
      const gpu = await pixels(base, { ...w2, pixelRatio: 2 }, GPU!);
      const expected = await pixels(twice, w2);
      const cmp = compareRGBA(gpu, expected, w2.width, w2.height, { channel: 2, fraction: 0.001 });
      expect({ family, ok: cmp.ok, badPixels: cmp.badPixels }).toEqual({ family, ok: true, badPixels: expect.any(Number) });
    }, 300_000);
  }
});
