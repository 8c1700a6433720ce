import { ringArea } from '../../geometry/clip.js';
import type { FeatureGroup, Features, RGBA } from '../../types.js';
import { BLACK, clamp01, groupColor, groupNumber } from '../../expr/paint.js';
import type { OpContext } from '../types.js';

/** Every group with polygons that draws, with its straight colour and effective alpha: both backends. */
export function fillGroups(ctx: OpContext, visit: (g: FeatureGroup, paint: RGBA) => void): void {
  const features = ctx.input<'features'>('features') as Features;
  const fill = groupColor(ctx, 'fill-expr', ctx.color('fill', BLACK));
  const alpha = groupNumber(ctx, 'fill-alpha-expr', ctx.num('fill-alpha', 1));
  for (const g of features.groups) {
    if (!g.polygons.length) continue;
    const c = fill(g);
    const a = clamp01(c[3] * clamp01(alpha(g)));
    if (a > 0) visit(g, [c[0], c[1], c[2], a]);
  }
}

/** A group's rings with their winding: exteriors +1 and holes -1 whatever the ring order, so holes always cancel. */
export function addPolygonRings(g: FeatureGroup, add: (ring: Float64Array, winding: number) => void): void {
  for (const poly of g.polygons) {
    for (let k = 0; k < poly.length; k++) {
      const ring = poly[k]!;
      const a = ringArea(ring);
      if (a === 0 || !Number.isFinite(a)) continue;
      add(ring, (k === 0) === a > 0 ? 1 : -1);
    }
  }
}
