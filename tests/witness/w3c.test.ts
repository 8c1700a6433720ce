// Golden cases of flat colours blended together, against the W3C Compositing and Blending Level 1
// formulas written out (tests/helpers/w3c-compositing.ts) over the cases' own rectangles placed by
// the Web Mercator closed form: every pixel that lies wholly inside one rectangle of each layer
// (anti-aliased edges left out) holds the formula's colour.
// Bound: 1/255 on premultiplied 8-bit values. The inputs are 8-bit colours; our float32 pipeline and
// the formula in doubles differ by well under 0.5/255 before the 8-bit rounding of the output, and
// un-premultiplying then re-premultiplying an 8-bit pixel moves it by at most 0.5/255 more.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { reference, type W3cBlendMode, type W3cComposite } from '../helpers/w3c-compositing.js';
import { compareWithReference, GOLDEN, goldenImages, hexColour, worldX, worldY, type Reference } from './harness.js';

type Rect = [number, number, number, number];
interface Feature {
  properties: Record<string, unknown>;
  geometry: { coordinates: number[][][] };
}

/** The axis-aligned rectangles of a case's GeoJSON source, in world pixels, with their properties. */
function rects(style: { sources: Record<string, { data: { features: Feature[] } }> }, source: string, z: number, T: number) {
  return style.sources[source]!.data.features.map((f) => {
    const ring = f.geometry.coordinates[0]!;
    const xs = ring.map((c) => worldX(c[0]!, z, T));
    const ys = ring.map((c) => worldY(c[1]!, z, T));
    return { rect: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] as Rect, properties: f.properties };
  });
}

const EPS = 1e-3; // px: a rectangle edge this close to a pixel edge counts as on it
/** 1: the pixel square lies inside r; 0: outside it; -1: an edge crosses it. */
function cover(r: Rect, x: number, y: number): 1 | 0 | -1 {
  if (x >= r[0] - EPS && x + 1 <= r[2] + EPS && y >= r[1] - EPS && y + 1 <= r[3] + EPS) return 1;
  if (x + 1 <= r[0] + EPS || x >= r[2] - EPS || y + 1 <= r[1] + EPS || y >= r[3] - EPS) return 0;
  return -1;
}

/** A layer at one pixel: the straight colour of the rectangle covering it (alpha 0 if none), or undefined on an edge. */
function layerAt(layer: { rect: Rect; colour: string }[], x: number, y: number): { C: [number, number, number]; a: number } | undefined {
  let hit: { C: [number, number, number]; a: number } = { C: [0, 0, 0], a: 0 };
  for (const l of layer) {
    const c = cover(l.rect, x, y);
    if (c === -1) return undefined;
    if (c === 1) hit = hexColour(l.colour);
  }
  return hit;
}

interface Step {
  over: { rect: Rect; colour: string }[];
  mode: W3cBlendMode;
  composite: W3cComposite;
  opacity?: number;
  mask?: { rect: Rect; colour: string }[];
}

/** Blend steps over a base layer, pixel by pixel (premultiplied result of the last step). */
function blended(width: number, height: number, x0: number, y0: number, base: { rect: Rect; colour: string }[], steps: Step[]): Reference {
  const rgba = new Float64Array(width * height * 4);
  const mask = new Uint8Array(width * height);
  for (let py = 0; py < height; py++)
    for (let px = 0; px < width; px++) {
      const x = x0 + px;
      const y = y0 + py;
      const b = layerAt(base, x, y);
      if (!b) continue;
      let pre = [b.C[0] * b.a, b.C[1] * b.a, b.C[2] * b.a, b.a];
      let ok = true;
      for (const s of steps) {
        const o = layerAt(s.over, x, y);
        const m = s.mask ? layerAt(s.mask, x, y) : { C: [0, 0, 0], a: 1 };
        if (!o || !m) {
          ok = false;
          break;
        }
        const ab = pre[3]!;
        const Cb: [number, number, number] = ab > 0 ? [pre[0]! / ab, pre[1]! / ab, pre[2]! / ab] : [0, 0, 0];
        pre = reference(s.mode, Cb, ab, o.C, o.a, s.composite, s.opacity ?? 1, m.a);
      }
      if (!ok) continue;
      const p = py * width + px;
      mask[p] = 1;
      rgba.set(pre, p * 4);
    }
  return { width, height, rgba, mask };
}

function style(name: string) {
  return JSON.parse(readFileSync(path.join(GOLDEN, name, 'style.json'), 'utf8'));
}

async function expectWithin(name: string, ref: Reference, bound: number, minCompared: number) {
  const g = await goldenImages(name);
  for (const [which, img] of [
    ['expected.png', g.expected],
    ['render', g.rendered],
  ] as const) {
    const c = compareWithReference(img, ref, bound);
    expect({ name, which, compared: c.compared >= minCompared, beyond: c.beyond, first: c.first }).toEqual({
      name,
      which,
      compared: true,
      beyond: 0,
      first: undefined,
    });
  }
}

test('blend-modes: all 16 modes over 7 bands, every interior pixel the W3C formula (1/255)', async () => {
  const s = style('blend-modes');
  const [z, tx, ty] = [4, 8, 5];
  const T = 256;
  const base = rects(s, 'bands', z, T).map((r) => ({ rect: r.rect, colour: r.properties.color as string }));
  const cols = rects(s, 'cols', z, T);
  const steps: Step[] = [];
  for (let k = 0; k < 16; k++) {
    const node = s.nodes[`m${k}`] as { mode: W3cBlendMode };
    const over = cols.filter((c) => c.properties.col === k).map((c) => ({ rect: c.rect, colour: c.properties.color as string }));
    steps.push({ over, mode: node.mode, composite: 'over' });
  }
  expect(new Set(steps.map((x) => x.mode)).size).toBe(16);
  const ref = blended(T, T, tx * T, ty * T, base, steps);
  // Columns are 16 px, bands ~19-27 px: most of the tile is interior.
  await expectWithin('blend-modes', ref, 1, 30_000);
});

test('blend-composite: opacity through a mask, multiply clipped (source-atop), erase (destination-out), against the W3C formulas (1/255)', async () => {
  const s = style('blend-composite');
  const spec = JSON.parse(readFileSync(path.join(GOLDEN, 'blend-composite', 'case.json'), 'utf8'));
  expect(spec.params).toEqual({ op: '0.7', clip: 'true' });
  const [z, tx, ty] = [4, 8, 5];
  const T = 256;
  const layer = (source: string, colour: string, row?: number) =>
    rects(s, source, z, T)
      .filter((r) => row === undefined || r.properties.row === row)
      .map((r) => ({ rect: r.rect, colour }));
  expect(s.nodes.basefill).toMatchObject({ fill: '#3366cc', 'fill-alpha': 0.8 });
  const base = layer('base', '#3366cccc'); // #3366cc at fill-alpha 0.8 = 204/255
  const ref = blended(T, T, tx * T, ty * T, base, [
    { over: layer('over', '#ff9900', 0), mode: 'normal', composite: 'over', opacity: 0.7, mask: layer('stripes', '#000000') },
    { over: layer('over', '#ff9900', 1), mode: 'multiply', composite: 'atop' },
    { over: layer('over', '#ff9900', 2), mode: 'normal', composite: 'erase' },
  ]);
  await expectWithin('blend-composite', ref, 1, 30_000);
});

test('solid-param: one colour, the param override #cc884480, everywhere (closed form, exact)', async () => {
  const { C, a } = hexColour('#cc884480');
  const n = 256 * 256;
  const rgba = new Float64Array(n * 4);
  for (let p = 0; p < n; p++) rgba.set([C[0] * a, C[1] * a, C[2] * a, a], p * 4);
  // Straight 8-bit #cc8844 at alpha 128 is exactly what a PNG can hold: premultiplied values agree to rounding.
  await expectWithin('solid-param', { width: 256, height: 256, rgba, mask: new Uint8Array(n).fill(1) }, 0.5, n);
});
