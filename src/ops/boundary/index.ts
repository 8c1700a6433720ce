import { features, groupLike, nonEmpty } from '../../geometry/groups.js';
import { ringBoundary, type LinePiece } from '../../geometry/lines.js';
import { wholeBoundary } from '../../geometry/whole.js';
import { featuresOp } from '../declare.js';

/**
 * Polygon rings (exteriors and holes) become polylines; lines and points pass through. Edges made
 * by clipping (a source tile's square, the canvas) are not boundary: rings break there, and those
 * ends are cuts (no cap), so boundaries continue across tiles.
 */
export const boundary = featuresOp({
  name: 'boundary',
  description: 'polygon rings (exteriors and holes) as polylines; lines and points pass through',
  cpu(ctx) {
    const input = ctx.input<'features'>('features');
    const out = input.groups.map((g) => {
      const pieces: LinePiece[] = [];
      g.polygons.forEach((poly, p) => poly.forEach((ring, r) => ringBoundary(ring, g.polygonCuts?.[p]?.[r], pieces)));
      const lines = [...g.lines, ...pieces.map((q) => q.line)];
      const cuts = [...g.lines.map((_, i) => g.cutEnds?.[i] ?? 0), ...pieces.map((q) => q.cut)];
      return groupLike(g, { lines, points: g.points, cutEnds: cuts.some((c) => c) ? Uint8Array.from(cuts) : undefined });
    });
    const result = features(out.filter(nonEmpty));
    // GeoJSON: the whole features' rings as whole lines, so a dash downstream is anchored at each ring's start.
    const whole = input.whole;
    if (whole) result.whole = { features: () => whole.features().map(wholeBoundary) };
    return result;
  },
});
