import { nodeRef, num, numRef } from '../style/fields.js';
import { blurFast } from '../cpu/blur.js';
import type { Raster } from '../types.js';
import type { OpDef } from './types.js';

/** Gaussian blur in premultiplied space; padding 3 sigma. */
export const blur: OpDef = {
  name: 'blur',
  description: 'Gaussian blur',
  output: 'raster',
  inputs: { input: ['raster'] },
  fields: {
    input: nodeRef(),
    sigma: numRef({ min: 0, description: 'standard deviation in pixels' }),
    'sigma-max': num({ min: 0, description: 'bound of sigma when it is an @node port' }),
  },
  required: ['input', 'sigma'],
  paddingFields: ['sigma'],
  pad: (bound) => Math.ceil(3 * (bound('sigma') ?? 0)),
  shader: 'blur.wgsl',
  cpu(ctx) {
    // ctx.num clamps a $param / @node sigma to its static bound, so ceil(3 sigma) <= pad.
    const sigma = Math.max(0, ctx.num('sigma'));
    const pad = Math.ceil(3 * ctx.bound('sigma'));
    const src = ctx.input<'raster'>('input');
    const { width, height, x0, y0 } = ctx.canvas;
    const data = blurFast(src.data, src.width, src.height, pad, pad, width, height, sigma, x0 - pad, y0 - pad);
    return { kind: 'raster', width, height, data } satisfies Raster;
  },
};
