// Pixel ratio (MapLibre's @2x): a window with `pixelRatio: r` (an integer 1..4) draws the same
// map at r times the pixel density, so every size given in pixels is multiplied by r. This table
// names those fields per op; the render context (src/render/render.ts) scales them when an op
// reads them (ctx.num, ctx.bound, ctx.expr), and margins and paddings scale with them.
// Not scaled: brushes (`width-px` of brush-solid/brush-file: a stroke's dab sizes are bounded by
// its own `width-max`), curves and sprite sizes an op reads from its spec.

/** Fields measured in pixels, by op (a `*-expr` field: its per-feature value). */
export const PIXEL_FIELDS: Readonly<Record<string, readonly string[]>> = {
  blur: ['sigma'],
  buffer: ['distance'],
  circles: ['radius', 'stroke-width', 'radius-expr', 'stroke-width-expr'],
  dash: ['dash-px', 'gap-px', 'phase-px'],
  densify: ['target-px'],
  density: ['radius', 'radius-expr'],
  dilate: ['radius-px'],
  displace: ['amp-px', 'amp-x-px', 'amp-y-px'],
  'dot-density': ['spacing-px'],
  erode: ['radius-px'],
  'fill-pattern': ['scale'],
  noise: ['scale-px'],
  stamp: ['scale', 'scale-expr'],
  stroke: ['scatter-px'],
  'stroke-solid': ['width', 'offset', 'width-expr'],
};

export const MAX_PIXEL_RATIO = 4;

/** Whether `field` of `op` is a size in pixels. */
export function isPixelField(op: string, field: string): boolean {
  return PIXEL_FIELDS[op]?.includes(field) ?? false;
}
