import { boolRef, nodeRef, oneOfEnum, opacityRef } from '../../style/fields.js';
import { BLEND_MODES, blendRasters, type BlendMode, type BlendOptions } from './cpu.js';
import { acquire } from '../../backends/cpu/pool.js';
import { fillPixel, isZeroPixel, markUniform, uniformOf } from '../../backends/cpu/uniform.js';
import type { Raster } from '../../types.js';
import type { OpDef } from '../types.js';
import { gpu } from './gpu.js';
import { COMPOSITES, compositeOf } from './plan.js';

export { BLEND_MODES };
export { COMPOSITES };

/**
 * The blend of rasters each marked one value everywhere (src/backends/cpu/uniform.ts; the mask
 * too, when there is one): blendRasters on one pixel of each, its own per-pixel arithmetic (every
 * blend is per pixel), filled into the output and marked; or of a base marked +0 under clip or
 * erase, whatever the source (+0, marked). undefined otherwise.
 */
function uniformBlend(base: Float32Array, over: Float32Array, o: BlendOptions): Float32Array | undefined {
  const b = uniformOf(base);
  // A base marked transparent +0 (watercolour's land layers on open sea) under `clip` (atop) or
  // `erase`, whatever the source and mask: blendRasters gives +0 at every pixel. Atop keeps the
  // base's alpha (+0) and scales the source by it (fa = as ab = +0 for the finite as in [0, 1]),
  // erase scales the base by 1 - as >= 0, and each channel is then +0 x s + k x (+0) = +0 (s and
  // k clamped to [0, 1], never -0 or NaN); a pixel the source does not cover keeps the base's +0.
  if (b && isZeroPixel(b) && (o.composite === 'atop' || o.composite === 'erase')) {
    const data = acquire(base.length); // zeroed
    markUniform(data, b);
    return data;
  }
  const s = b && uniformOf(over);
  const m = o.mask && uniformOf(o.mask);
  if (!s || (o.mask && !m)) return undefined;
  const one = blendRasters(Float32Array.from(b), Float32Array.from(s), { ...o, mask: m ? Float32Array.from(m) : undefined });
  // The base's very bits at every pixel (open sea under a shadow that is +0 everywhere): the base's
  // own array, marked already, is the result; no canvas is filled. render.ts neither releases an
  // input whose storage a node's output holds nor paints onto storage another result holds.
  if (sameBits(one, b)) return base;
  const zero = isZeroPixel(one);
  const data = acquire(base.length, zero); // zero: handed out zeroed (often without a fill); else every value is written below
  if (!zero) fillPixel(data, one);
  markUniform(data, one);
  return data;
}

/** Whether two pixels (4 floats each) have the same bits (-0 and +0 differ). */
function sameBits(a: Float32Array, b: Float32Array): boolean {
  const x = new Int32Array(a.buffer, a.byteOffset, 4);
  const y = new Int32Array(b.buffer, b.byteOffset, 4);
  return x[0] === y[0] && x[1] === y[1] && x[2] === y[2] && x[3] === y[3];
}

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
    const options = { mode: (ctx.node.mode as BlendMode | undefined) ?? 'normal', composite, opacity: ctx.num('opacity'), mask };
    // Every pixel reads base, over and mask at that pixel only, so the output may be the base's own
    // array where nothing else reads it (ctx.takeInput): no copy of it, and pixels the source does not
    // cover are not written. Not over a one-value base (its mark would go stale; uniformBlend and
    // the kernels take it once).
    const data =
      uniformBlend(base.data, over.data, options) ??
      blendRasters(base.data, over.data, options, { into: uniformOf(base.data) ? undefined : ctx.takeInput?.('base', base)?.data });
    return { kind: 'raster', width: base.width, height: base.height, data } satisfies Raster;
  },
};
