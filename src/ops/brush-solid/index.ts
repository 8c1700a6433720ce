import { color, num } from '../../style/fields.js';
import type { Brush } from '../../types.js';
import type { OpDef } from '../types.js';

/**
 * A constant-width round brush: its tip is a 1 x 1 sprite of its colour, which `stroke` draws as
 * a round dab of diameter `width-px` shaped by `hardness` and `aa` (src/ops/stroke/plan.ts
 * roundProfile). Dabs are `width-px / (2 dabs-per-radius)` apart. A brush is a value, not a
 * raster: it runs on the CPU for both backends.
 */
export const brushSolid: OpDef = {
  name: 'brush-solid',
  description: 'a constant-width round brush (for stroke)',
  output: 'brush',
  inputs: {},
  fields: {
    'width-px': num({ min: 0.4, max: 256, unit: 'px', description: 'dab diameter in pixels' }),
    color: color('brush colour'),
    hardness: num({ min: 0, max: 1, default: 1, description: 'fraction of the radius at full strength; below it the dab fades linearly to its rim' }),
    aa: num({
      min: 0,
      max: 1,
      default: 1,
      unit: 'device-px',
      description: 'anti-aliasing ramp of the rim, in device pixels (0: aliased); not scaled at a pixel ratio',
    }),
    'dabs-per-radius': num({ min: 0.5, max: 64, default: 4, description: 'dabs per radius of line; more is smoother and slower' }),
  },
  required: ['width-px', 'color'],
  cpu(ctx): Brush {
    const [r, g, b, a] = ctx.color('color');
    return {
      kind: 'brush',
      tip: { kind: 'sprite', width: 1, height: 1, data: Float32Array.of(r * a, g * a, b * a, a) },
      widthPx: ctx.num('width-px'),
      spacing: 1 / (2 * ctx.num('dabs-per-radius', 4)),
      hardness: ctx.num('hardness', 1),
      aa: ctx.num('aa', 1),
    };
  },
};
