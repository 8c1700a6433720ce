import { color, expr, int, nodeRef, num, numRef, opacityRef } from '../../style/fields.js';
import type { Brush } from '../../types.js';
import { newRaster } from '../../backends/cpu/raster.js';
import { paintedNothing } from '../../backends/cpu/uniform.js';
import { paintOp } from '../declare.js';
import { drawDabs } from './cpu.js';
import { gpu } from './gpu.js';
import { DEFAULT_WIDTH_MAX, dabReach, strokeDabs } from './plan.js';

/**
 * Dabs of a brush stamped along lines and polygon rings (a hand-drawn line). Dab positions come
 * from a world-anchored arc-length lattice, jitter from a hash of the feature and the dab's world
 * position (src/ops/stroke/plan.ts), so a line looks the same in every tile. Within one feature
 * the dabs combine by maximum alpha (a stroke does not darken where its dabs overlap); features
 * composite source-over in order.
 */
export const stroke = paintOp({
  name: 'stroke',
  description: 'stamps brush dabs along lines and polygon rings',
  inputs: { brush: ['brush'] },
  fields: {
    brush: nodeRef('a brush-solid or brush-file node'),
    color: color('paints the dabs (an image tip keeps only its alpha); default: the brush colours'),
    'width-scale': numRef({ min: 0, default: 1, description: "multiplies the brush's width" }),
    'spacing-scale': numRef({ exclusiveMin: 0, default: 1, description: "multiplies the brush's dab spacing" }),
    'pressure-curve': {
      type: 'array',
      items: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
      description: '[[t, w], ...]: width multiplier w at fraction t of each line (piecewise linear)',
      'x-expect': 'an array of [t, w] pairs',
    },
    seed: int({ min: 0, default: 0, description: 'reshuffles the jitter' }),
    'scatter-px': numRef({
      min: 0,
      max: 64,
      default: 0,
      unit: 'px',
      description: 'dabs move up to this far across the line (hashed per dab); sets the padding, so a $param needs a max',
    }),
    'scatter-px-max': num({ min: 0, max: 64, unit: 'px', description: 'bound of scatter-px when it is an @node port' }),
    'size-jitter': numRef({ min: 0, max: 1, default: 0, description: 'dab widths vary by up to this fraction' }),
    'opacity-jitter': numRef({ min: 0, max: 1, default: 0, description: 'dab strengths drop by up to this fraction' }),
    opacity: opacityRef(),
    'width-scale-expr': expr('number', 'per-feature width-scale'),
    'color-expr': expr('color', 'per-feature colour (as color)'),
    'width-max': num({
      min: 0,
      max: 512,
      default: DEFAULT_WIDTH_MAX,
      unit: 'px',
      description: 'bound of a dab width in pixels (sets the padding); wider dabs clamp to it',
    }),
  },
  required: ['brush'],
  paddingFields: ['scatter-px'],
  pad(bound) {
    const wmax = bound('width-max') ?? DEFAULT_WIDTH_MAX;
    const scatter = bound('scatter-px') ?? 0;
    return Math.ceil(dabReach(wmax / 2, false, 1) + scatter);
  },
  paintsOnto: true,
  // Dabs are placed in canvas coordinates: a canvas with another origin rounds them otherwise
  // (last bits), so the canvas keeps the plan's margin (src/graph/margins.ts).
  keepsCanvas: () => true,
  gpu,
  cpu(ctx) {
    const brush = ctx.input<'brush'>('brush') as Brush;
    const d = strokeDabs(ctx, brush, { borrow: true });
    const { width: W, height: H } = ctx.canvas;
    if (d.count === 0 && d.runCount === 0) {
      // No dab reaches the canvas (open sea): the canvas as it was, or transparent, reported so
      // (src/backends/cpu/uniform.ts) that the kernels reading it take their one-value shortcut.
      const out = ctx.target ?? newRaster(W, H);
      paintedNothing(out.data, !!ctx.target);
      return out;
    }
    return drawDabs(d, W, H, ctx.target);
  },
});
