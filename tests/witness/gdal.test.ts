// Golden cases on elevation data against GDAL (issue 19 part 3). CI has no GDAL: its outputs are
// committed under tests/witness/<case>/ by scripts/witness/gdal-references.py (GDAL's version in
// tests/witness/gdal-versions.json). The render half of each test needs ../shared/fixtures.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fixturesPresent } from '../helpers/fixtures.js';
import { decodeWithSharp } from '../helpers/decode.js';
import { reference } from '../helpers/w3c-compositing.js';
import { compareWithReference, GOLDEN, goldenImages, hexColour, WITNESS, type Reference } from './harness.js';

async function expectWithin(name: string, ref: Reference, bound: number, fraction: number) {
  const g = await goldenImages(name).catch((e: Error) => {
    // Without the fixtures the case cannot render: its expected image is still compared.
    if (fixturesPresent) throw e;
    return undefined;
  });
  const images: [string, Parameters<typeof compareWithReference>[0]][] = g
    ? [
        ['expected.png', g.expected],
        ['render', g.rendered],
      ]
    : [['expected.png', await decodeWithSharp(readFileSync(path.join(GOLDEN, name, 'expected.png')))]];
  for (const [which, img] of images) {
    const c = compareWithReference(img, ref, bound);
    expect({ name, which, within: c.beyond <= fraction * c.compared, first: c.beyond > fraction * c.compared ? c.first : undefined }).toEqual({
      name,
      which,
      within: true,
      first: undefined,
    });
  }
}

test('source-dem-relief: gdaldem color-relief of the same tile with the same table (1/255)', async () => {
  // Bound 1/255: GDAL rounds each interpolated channel to an integer, the op rounds its float result;
  // the two roundings of one value differ by at most one level.
  const gdal = await decodeWithSharp(readFileSync(path.join(WITNESS, 'source-dem-relief', 'gdal-color-relief.png')));
  const n = gdal.width * gdal.height;
  const rgba = new Float64Array(n * 4);
  for (let i = 0; i < n * 4; i++) rgba[i] = gdal.data[i]! / 255;
  await expectWithin('source-dem-relief', { width: gdal.width, height: gdal.height, rgba, mask: new Uint8Array(n).fill(1) }, 1, 0);
});

test('terrain-hillshade: GDAL hillshade (z 1.5) soft-lit (W3C) by GDAL multidirectional hillshade (alt 40) coloured, with the accent on GDAL slope (2/255)', async () => {
  // The op's documented colouring: shadow + (highlight - shadow) v / 255 for GDAL's value v, the
  // accent laid over with coverage sin(slope); then the style's soft-light blend (W3C formula).
  // Bound 2/255 on every pixel (measured 1.14): GDAL stores v as an 8-bit integer where the op keeps
  // the float, half a level in v moves the grey by 0.5/255 and the tint by under that (|highlight -
  // shadow| < 1), soft-light's slope in the backdrop is at most 2 here, and the output rounds by 0.5.
  const dir = path.join(WITNESS, 'terrain-hillshade');
  const grey = await decodeWithSharp(readFileSync(path.join(dir, 'gdal-hillshade-z1.5.png')));
  const multi = await decodeWithSharp(readFileSync(path.join(dir, 'gdal-hillshade-multi-alt40.png')));
  const slopeBytes = readFileSync(path.join(dir, 'gdal-slope.f32'));
  const slope = new Float32Array(slopeBytes.buffer, slopeBytes.byteOffset, slopeBytes.byteLength / 4);
  const style = JSON.parse(readFileSync(path.join(GOLDEN, 'terrain-hillshade', 'style.json'), 'utf8'));
  const tint = style.nodes.tint as Record<string, string>;
  expect(style.nodes.grey).toMatchObject({ 'z-factor': 1.5 });
  expect(tint).toMatchObject({ multidirectional: true, altitude: 40 });
  expect(style.nodes.out).toMatchObject({ mode: 'soft-light', base: '@grey', over: '@tint' });
  const shadow = hexColour(tint['shadow-color']!);
  const highlight = hexColour(tint['highlight-color']!);
  const accent = hexColour(tint['accent-color']!);
  const W = grey.width;
  const n = W * grey.height;
  const rgba = new Float64Array(n * 4);
  for (let p = 0; p < n; p++) {
    const g = grey.data[p * 4]! / 255;
    const v = multi.data[p * 4]! / 255;
    const k = Math.sin((slope[p]! * Math.PI) / 180);
    // Tint, premultiplied (shadow and highlight opaque): the ramp, then the accent over it with alpha a k.
    const t = [0, 1, 2].map((c) => shadow.C[c]! + (highlight.C[c]! - shadow.C[c]!) * v);
    const ak = accent.a * k;
    const tc = [0, 1, 2].map((c) => accent.C[c]! * ak + t[c]! * (1 - ak)) as [number, number, number];
    rgba.set(reference('soft-light', [g, g, g], 1, tc, 1, 'over'), p * 4);
  }
  await expectWithin('terrain-hillshade', { width: W, height: grey.height, rgba, mask: new Uint8Array(n).fill(1) }, 2, 0);
});
