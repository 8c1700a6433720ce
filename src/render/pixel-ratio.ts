// Pixel ratio (MapLibre's @2x): a window with `pixelRatio: r` (an integer 1..4) draws the same
// map at r times the pixel density, so every size given in pixels is multiplied by r. Which
// fields are sizes in pixels is declared on the fields themselves (`unit: 'px'` in the helpers of
// src/style/fields.ts; `x-unit` in the JSON Schema): the render context (src/render/render.ts)
// scales them when an op reads them (ctx.num with its defaults, ctx.bound, ctx.expr, ctx.nums),
// and margins and paddings scale with them. A size an op computes itself from something that is
// not a field (a brush tip's own size) is scaled by the op (ctx.window.pixelRatio).
import type { Schema } from '../style/fields.js';
import { unitOf } from '../style/fields.js';

export const MAX_PIXEL_RATIO = 4;

/** Whether `field` of an op is a size in pixels (its declaration says `unit: 'px'`). */
export function isPixelField(op: { fields: Record<string, Schema> }, field: string): boolean {
  return unitOf(op.fields[field]) === 'px';
}
