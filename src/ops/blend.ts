import { boolRef, nodeRef, numRef, oneOfEnum } from '../style/fields.js';
import type { OpDef } from './types.js';

export const BLEND_MODES = [
  'normal', 'multiply', 'screen', 'overlay', 'darken', 'lighten', 'color-dodge', 'color-burn',
  'hard-light', 'soft-light', 'difference', 'exclusion', 'hue', 'saturation', 'color', 'luminosity',
] as const;
export const COMPOSITES = ['over', 'source-over', 'destination-out', 'dest-out', 'erase'] as const;

/** Composites `over` onto `base` with a W3C blend mode. */
export const blend: OpDef = {
  name: 'blend',
  description: 'composites over onto base (W3C Compositing and Blending)',
  output: 'raster',
  inputs: { base: ['raster'], over: ['raster'], mask: ['raster'] },
  fields: {
    base: nodeRef(),
    over: nodeRef(),
    mode: oneOfEnum(BLEND_MODES, 'normal'),
    opacity: numRef({ min: 0, max: 1, default: 1 }),
    clip: boolRef(false),
    composite: oneOfEnum(COMPOSITES, 'over'),
    mask: nodeRef('raster whose alpha modulates the source coverage'),
  },
  required: ['base', 'over'],
  shader: 'blend.wgsl',
  planned: true,
};
