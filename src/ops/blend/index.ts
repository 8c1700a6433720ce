import { boolRef, nodeRef, oneOfEnum, opacityRef } from '../../style/fields.js';
import { BLEND_MODES, blendRasters, type BlendMode } from './cpu.js';
import type { Raster } from '../../types.js';
import type { OpDef } from '../types.js';
import { gpu } from './gpu.js';
import { COMPOSITES, compositeOf } from './plan.js';

export { BLEND_MODES };
export { COMPOSITES };

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
    opacity: opacityRef(),
    clip: boolRef(false),
    composite: oneOfEnum(COMPOSITES, 'over'),
    mask: nodeRef('raster whose alpha modulates the source coverage'),
  },
  required: ['base', 'over'],
  fusesPaint(s) {
    const plain =
      (s.mode ?? 'normal') === 'normal' &&
      ['over', 'source-over'].includes(String(s.composite ?? 'over')) &&
      s.mask === undefined &&
      (s.opacity === undefined || s.opacity === 1) &&
      (s.clip === undefined || s.clip === false);
    return plain ? { base: 'base', paint: 'over' } : undefined;
  },
  gpu,
  cpu(ctx) {
    const base = ctx.input<'raster'>('base');
    const over = ctx.input<'raster'>('over');
    const mask = ctx.has('mask') ? ctx.input<'raster'>('mask').data : undefined;
    const composite = compositeOf(ctx);
    const data = blendRasters(base.data, over.data, {
      mode: (ctx.node.mode as BlendMode | undefined) ?? 'normal',
      composite,
      opacity: ctx.num('opacity'),
      mask,
    });
    return { kind: 'raster', width: base.width, height: base.height, data } satisfies Raster;
  },
};
