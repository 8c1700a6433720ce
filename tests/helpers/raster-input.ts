// A seeded random raster for the colour ops' tests: overlapping polygons with per-feature colours
// (translucent and anti-aliased, or opaque and aliased so every straight colour is an exact 8-bit
// value), optionally blurred into smooth gradients. Returns the style's `sources` and `nodes`; the
// raster is node `in`.
import type { Window } from '../../src/index.js';
import { randomColor, randomFeatures } from '../gpu/harness.js';
import { rng } from './random.js';

export interface RasterInputOptions {
  polygons?: number;
  /** Opaque colours and no anti-aliasing: every pixel is transparent or an exact 8-bit colour. */
  flat?: boolean;
  /** Gaussian blur sigma applied to the polygons (smooth gradients of colour and alpha). */
  blur?: number;
}

export function rasterInput(seed: number, w: Window, o: RasterInputOptions = {}): { sources: object; nodes: Record<string, object> } {
  const r = rng(seed);
  const colors = Array.from({ length: 5 }, () => (o.flat ? randomColor(r, 1).slice(0, 7) : randomColor(r, 0.15)));
  const fill = {
    op: 'fill-solid',
    features: '@shapes',
    antialias: !o.flat,
    'fill-expr': ['match', ['get', 'k'], 0, colors[0], 1, colors[1], 2, colors[2], 3, colors[3], colors[4]],
    ...(o.flat ? {} : { 'fill-alpha-expr': ['get', 'v'] }),
  };
  const nodes: Record<string, object> = { shapes: { op: 'features', source: 'shapes' } };
  if (o.blur) {
    nodes.sharp = fill;
    nodes.in = { op: 'blur', input: '@sharp', sigma: o.blur };
  } else nodes.in = fill;
  return { sources: { shapes: { type: 'geojson', data: randomFeatures(seed, w, { polygons: o.polygons ?? 12 }, 24) } }, nodes };
}
