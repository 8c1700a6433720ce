import { color, int, numRef, oneOfEnum } from '../../style/fields.js';
import { newRasterUninit } from '../../backends/cpu/raster.js';
import type { Sprite } from '../../types.js';
import type { NodeSpec, OpDef } from '../types.js';
import { disk, MAX_SPRITE_PX, rasterDisk, spriteDisk } from './cpu.js';
import { gpu } from './gpu.js';

/** A centred disk: a canvas-sized raster (centred on the window) or a small sprite (docs/format.md). */
export const circle: OpDef = {
  name: 'circle',
  description:
    "a centred disk: kind 'raster' at canvas size, centred on the window, radius = radius-frac x tile size; kind 'sprite' at width-px x height-px, radius = radius-frac x min(width, height)",
  output: (n: NodeSpec) => (n.kind === 'sprite' ? 'sprite' : 'raster'),
  inputs: {},
  fields: {
    color: color('the disk colour'),
    'radius-frac': numRef({ min: 0, max: 1, description: 'radius as a fraction of the tile size (raster) or of min(width, height) (sprite)' }),
    hardness: numRef({
      min: 0,
      max: 1,
      default: 1,
      description: 'fraction of the radius that is fully opaque; the rest falls off linearly to 0 at the radius',
    }),
    kind: oneOfEnum(['raster', 'sprite'], 'raster'),
    'width-px': int({ min: 1, max: MAX_SPRITE_PX, unit: 'texel', description: 'sprite width (kind sprite)' }),
    'height-px': int({ min: 1, max: MAX_SPRITE_PX, unit: 'texel', description: 'sprite height (kind sprite)' }),
  },
  required: ['color', 'radius-frac'],
  check: (node) =>
    node.kind === 'sprite'
      ? (['width-px', 'height-px'] as const)
          .filter((f) => node[f] === undefined)
          .map((field) => ({ field, message: `'${field}' is required when kind is 'sprite'` }))
      : [],
  gpu,
  cpu(ctx) {
    const d = disk(ctx);
    if (ctx.node.kind === 'sprite') return spriteDisk(d, ctx.node['width-px'] as number, ctx.node['height-px'] as number) satisfies Sprite;
    const { width, height } = ctx.canvas;
    const out = newRasterUninit(width, height);
    rasterDisk(out.data, width, height, d, ctx);
    return out;
  },
};
