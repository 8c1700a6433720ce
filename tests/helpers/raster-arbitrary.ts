// fast-check rasters for codec tests (issue 19): channels drawn from {0, 1, 0.5, random}, exactly
// N distinct 8-bit colours (1, 2, 4, 16, 256, 257... the encoder's form changes at 2, 4, 16 and
// 256), opaque or translucent, odd widths, laid out in runs, rows or scattered pixels, often with
// an opaque white first pixel (the packed value -1, the encoder's old run sentinel).
import fc from 'fast-check';
import { toRGBA8 } from '../../src/render/encode.js';
import type { Raster } from '../../src/types.js';

/** The distinct-colour counts the generator aims at: each side of every change of form. */
export const COLOUR_COUNTS = [1, 2, 3, 4, 5, 16, 17, 255, 256, 257, 300] as const;

export interface CodecCase {
  raster: Raster;
  /** Distinct straight 8-bit RGBA colours of toRGBA8(raster), by construction. */
  colours: number;
  /** Every pixel's alpha is 255. */
  opaque: boolean;
  layout: 'runs' | 'rows' | 'scatter';
}

const unit = fc.float({ min: 0, max: 1, noNaN: true, noDefaultInfinity: true });
const channel = fc.oneof(fc.constant(0), fc.constant(1), fc.constant(0.5), unit);
const alpha = fc.oneof(fc.constant(1), fc.constant(0), fc.constant(0.5), unit);

type Rgba = [number, number, number, number];

/** Straight RGBA8 of one straight float colour, as toRGBA8 converts its premultiplied form. */
function key(c: Rgba): number {
  const px = toRGBA8({ kind: 'raster', width: 1, height: 1, data: Float32Array.from([c[0] * c[3], c[1] * c[3], c[2] * c[3], c[3]]) });
  return (px[0]! | (px[1]! << 8) | (px[2]! << 16)) + px[3]! * 2 ** 24;
}

/** Seeded uniform numbers (mulberry32): the layout's choices, reproducible from the seed fast-check reports. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` colours whose 8-bit forms are distinct: drawn ones first, clashes replaced by index colours. */
function distinctPalette(drawn: Rgba[], count: number, translucent: boolean, whiteFirst: boolean): Rgba[] {
  const seen = new Set<number>();
  const out: Rgba[] = [];
  const take = (c: Rgba) => {
    const k = key(c);
    if (seen.has(k)) return false;
    seen.add(k);
    out.push(c);
    return true;
  };
  if (whiteFirst) take([1, 1, 1, 1]);
  for (const c of drawn) {
    if (out.length === count) break;
    // A colour under zero alpha is transparent black whatever its channels: one colour at most.
    take(translucent ? c : [c[0], c[1], c[2], 1]);
  }
  for (let j = 0; out.length < count; j++) {
    const a = translucent ? 0.25 + (j % 3) * 0.25 : 1;
    take([(j & 255) / 255, ((j >> 8) & 255) / 255, (j % 7) / 6, a]);
  }
  return out;
}

export const codecCase: fc.Arbitrary<CodecCase> = fc
  .record({
    count: fc.constantFrom(...COLOUR_COUNTS),
    translucent: fc.boolean(),
    whiteFirst: fc.boolean(),
    width: fc.integer({ min: 1, max: 67 }),
    height: fc.integer({ min: 1, max: 40 }),
    layout: fc.constantFrom('runs' as const, 'rows' as const, 'scatter' as const),
    seed: fc.integer(),
    drawn: fc.array(fc.tuple(channel, channel, channel, alpha), { minLength: 0, maxLength: 40 }),
  })
  .map(({ count, translucent, whiteFirst, width, height, layout, seed, drawn }) => {
    const palette = distinctPalette(drawn as Rgba[], count, translucent, whiteFirst);
    // Room for every colour at least once.
    height = Math.max(height, Math.ceil(count / width));
    const n = width * height;
    const rand = rng(seed);
    const index = new Uint16Array(n);
    if (layout === 'scatter') {
      for (let p = 0; p < n; p++) index[p] = p < count ? p : Math.floor(rand() * count);
    } else if (layout === 'rows') {
      // Colour by row, one row in three broken by a second colour: deflate sees repeated rows.
      for (let p = 0; p < n; p++) {
        const y = Math.floor(p / width);
        index[p] = p < count ? p : (y + (y % 3 === 0 && p % width > width / 2 ? 1 : 0)) % count;
      }
    } else {
      // Runs of 1..40 pixels in colour order, then random colours: every colour appears.
      const room = Math.max(1, Math.floor(n / count));
      for (let p = 0, k = 0; p < n; k++) {
        const run = Math.min(room, 1 + Math.floor(rand() * 40), n - p);
        const c = k < count ? k : Math.floor(rand() * count);
        index.fill(c, p, p + run);
        p += run;
      }
    }
    const data = new Float32Array(n * 4);
    for (let p = 0; p < n; p++) {
      const [r, g, b, a] = palette[index[p]!]!;
      data.set([r * a, g * a, b * a, a], p * 4);
    }
    const opaque = palette.every((c) => key(c) >= 255 * 2 ** 24);
    return { raster: { kind: 'raster' as const, width, height, data }, colours: count, opaque, layout };
  });

/** Distinct colours of straight RGBA bytes. */
export function countColours(rgba: Uint8Array | Uint8ClampedArray): number {
  const seen = new Set<number>();
  for (let i = 0; i < rgba.length; i += 4) seen.add((rgba[i]! | (rgba[i + 1]! << 8) | (rgba[i + 2]! << 16)) + rgba[i + 3]! * 2 ** 24);
  return seen.size;
}
