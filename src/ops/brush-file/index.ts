import { num } from '../../style/fields.js';
import { RenderError } from '../../errors.js';
import type { Brush } from '../../types.js';
import { assetField, spriteInput } from '../stamp/sprite.js';
import type { OpDef } from '../types.js';

/**
 * A brush whose tip is an image: a sprite node (`@tip`, e.g. a `circle` of kind sprite) or an
 * image asset loaded through the host (once per style). `stroke` draws the tip over a square of
 * side `width-px` (the tip's larger side by default), unrotated; its alpha is the dab's shape.
 * Runs on the CPU for both backends.
 */
export const brushFile: OpDef = {
  name: 'brush-file',
  description: 'a brush whose tip is an image asset or a sprite node (for stroke)',
  output: 'brush',
  inputs: { src: ['sprite'] },
  fields: {
    src: assetField('the tip image'),
    'width-px': num({ min: 0.4, max: 256, unit: 'px', description: "dab size in pixels (default: the tip's larger side)" }),
    'dabs-per-radius': num({ min: 0.5, max: 64, default: 2, description: 'dabs per half dab size along a line' }),
  },
  required: ['src'],
  async cpu(ctx): Promise<Brush> {
    const tip = await spriteInput(ctx, 'src');
    if (tip.kind !== 'sprite') throw new RenderError(`node '${ctx.id}' field 'src': a brush tip is a sprite, not a ${tip.kind}`);
    // Sizes in render pixels: width-px comes scaled by the pixel ratio (unit px); the default (a
    // texel per pixel) and the 256 px bound are scaled here. The rim stays one device pixel.
    const r = ctx.window.pixelRatio ?? 1;
    const width = ctx.node['width-px'] === undefined ? Math.max(tip.width, tip.height) * r : ctx.num('width-px');
    return { kind: 'brush', tip, widthPx: Math.min(256 * r, width), spacing: 1 / (2 * ctx.num('dabs-per-radius', 2)), hardness: 1, aa: 1 };
  },
};
