import { numRef, oneOfEnum, str } from '../../style/fields.js';
import type { OpDef } from '../types.js';
import { paintRaster } from './plan.js';

/**
 * Samples a raster tile source for the node's canvas and paints it as MapLibre's raster layer
 * does (plan.ts): resampling, hue rotation, saturation, contrast, brightness, opacity. A sampling
 * op like `dem`: it runs on the CPU in both backends (a GPU render uploads the result).
 */
export const raster: OpDef = {
  name: 'raster',
  description: "samples a raster tile source; hue-rotate, saturation, contrast, brightness and opacity as MapLibre's raster layer",
  output: 'raster',
  inputs: {},
  fields: {
    source: str('raster source name; optional when exactly one raster source exists'),
    resampling: oneOfEnum(['linear', 'nearest'], 'linear'),
    opacity: numRef({ min: 0, max: 1, default: 1 }),
    'brightness-min': numRef({ min: 0, max: 1, default: 0, description: 'what black becomes (a grey level)' }),
    'brightness-max': numRef({ min: 0, max: 1, default: 1, description: 'what white becomes (a grey level)' }),
    saturation: numRef({ min: -1, max: 1, default: 0, description: '-1 grey, 1 most saturated' }),
    contrast: numRef({ min: -1, max: 1, default: 0, description: '-1 flat grey, 1 a step at mid-grey' }),
    'hue-rotate': numRef({ default: 0, unit: 'deg', description: 'degrees around the colour wheel' }),
  },
  async cpu(ctx) {
    const src = ctx.sources.rasterSource(ctx.node.source as string | undefined);
    const out = await src.image(ctx.canvas, ctx.node.resampling === 'nearest' ? 'nearest' : 'linear', ctx.signal);
    paintRaster(out, {
      opacity: ctx.num('opacity'),
      brightnessMin: ctx.num('brightness-min'),
      brightnessMax: ctx.num('brightness-max'),
      saturation: ctx.num('saturation'),
      contrast: ctx.num('contrast'),
      hueRotate: ctx.num('hue-rotate'),
    });
    return out;
  },
};
