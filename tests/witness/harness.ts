// Golden cases against references we did not write (issue 19 part 3). A witness gives, for some
// pixels of a case (a mask), the premultiplied colour something outside tilegraph says they hold:
// a closed form, the W3C formulas, d3-interpolate, GDAL, Mapnik. Both the accepted image
// (expected.png) and today's render, as a user receives it (our PNG encoder, decoded by libvips),
// must lie within the case's stated bound of it. docs/testing.md lists the witness of each case.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CpuBackend, type Window } from '../../src/index.js';
import { caseWindow, readCase, type CaseSpec } from '../../src/hosts/cli/check.js';
import { openStyle } from '../../src/hosts/node/index.js';
import { encodePng } from '../../src/hosts/node/png.js';
import { decodeWithSharp, type Decoded } from '../helpers/decode.js';
import { ROOT } from '../server/fixtures.js';

export const GOLDEN = path.join(ROOT, 'golden');
export const WITNESS = path.join(ROOT, 'tests/witness');

export interface GoldenImages {
  spec: CaseSpec;
  window: Window;
  /** expected.png decoded by libvips. */
  expected: Decoded;
  /** Today's CPU render, encoded by our PNG encoder and decoded by libvips. */
  rendered: Decoded;
}

const backend = new CpuBackend();

export async function goldenImages(name: string): Promise<GoldenImages> {
  const dir = path.join(GOLDEN, name);
  const spec = readCase(dir);
  const window = caseWindow(spec);
  const renderer = await openStyle(path.join(dir, 'style.json'), { allowOutside: true });
  const { raster } = await renderer.renderWindow(window, renderer.params(spec.params ?? {}), { backend });
  return {
    spec,
    window,
    expected: await decodeWithSharp(readFileSync(path.join(dir, 'expected.png'))),
    rendered: await decodeWithSharp(await encodePng(raster)),
  };
}

/** A witness's pixels: premultiplied RGBA in [0, 1], and which pixels it speaks for. */
export interface Reference {
  width: number;
  height: number;
  /** width * height * 4, premultiplied. */
  rgba: Float64Array;
  /** width * height: 1 where the witness gives the pixel (edges it cannot place are left out). */
  mask: Uint8Array;
}

export interface WitnessComparison {
  /** Pixels compared. */
  compared: number;
  /** Largest premultiplied channel difference, in 1/255. */
  maxDiff: number;
  /** Pixels past the bound, and the first of them. */
  beyond: number;
  first?: string;
}

/** Compare a decoded image with a reference on premultiplied values, over its mask. */
export function compareWithReference(img: Decoded, ref: Reference, bound: number): WitnessComparison {
  if (img.width !== ref.width || img.height !== ref.height) throw new Error(`image ${img.width}x${img.height}, reference ${ref.width}x${ref.height}`);
  let compared = 0;
  let maxDiff = 0;
  let beyond = 0;
  let first: string | undefined;
  for (let p = 0; p < ref.mask.length; p++) {
    if (!ref.mask[p]) continue;
    compared++;
    const i = p * 4;
    const a = img.data[i + 3]! / 255;
    let m = Math.abs(img.data[i + 3]! - ref.rgba[i + 3]! * 255);
    for (let c = 0; c < 3; c++) m = Math.max(m, Math.abs(img.data[i + c]! * a - ref.rgba[i + c]! * 255));
    if (m > maxDiff) maxDiff = m;
    if (m > bound + 1e-9) {
      if (beyond++ === 0) {
        const want = [0, 1, 2, 3].map((c) => (ref.rgba[i + c]! * 255).toFixed(1)).join(',');
        first = `(${p % ref.width}, ${Math.floor(p / ref.width)}) is ${[...img.data.subarray(i, i + 4)].join(',')} (straight), witness ${want} (premultiplied)`;
      }
    }
  }
  return { compared, maxDiff, beyond, first };
}

/** Web Mercator world pixel of a longitude / latitude at zoom z and tile size T (closed form). */
export function worldX(lon: number, z: number, T: number): number {
  return ((lon + 180) / 360) * T * 2 ** z;
}
export function worldY(lat: number, z: number, T: number): number {
  const s = Math.sin((lat * Math.PI) / 180);
  return (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * T * 2 ** z;
}

/** Straight 8-bit hex (#rrggbb or #rrggbbaa) as straight [r, g, b] in [0, 1] and alpha. */
export function hexColour(hex: string): { C: [number, number, number]; a: number } {
  const v = (k: number) => Number.parseInt(hex.slice(1 + 2 * k, 3 + 2 * k), 16) / 255;
  return { C: [v(0), v(1), v(2)], a: hex.length === 9 ? v(3) : 1 };
}
