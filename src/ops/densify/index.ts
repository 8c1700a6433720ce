import { features, groupLike } from '../../geometry/groups.js';
import { densifiedCount, densify as densifyCoords } from '../../geometry/lines.js';
import { RenderError } from '../../errors.js';
import { num } from '../../style/fields.js';
import type { Features } from '../../types.js';
import { featuresOp } from '../declare.js';

/** Vertices per node after densifying, at most. */
const MAX_VERTICES = 1 << 22;

/** Inserts vertices so that no segment of a polyline or ring is longer than `target-px`; original vertices are kept. */
export const densify = featuresOp({
  name: 'densify',
  description: 'inserts vertices so no segment of any polyline or ring exceeds target-px',
  fields: {
    'target-px': num({ min: 0, unit: 'px', description: 'longest segment, pixels; 0 leaves the geometry as it is' }),
  },
  required: ['target-px'],
  cpu(ctx): Features {
    const target = ctx.num('target-px');
    const input = ctx.input<'features'>('features');
    if (!(target > 0)) return input;
    let total = 0;
    const count = (c: ArrayLike<number>, closed: boolean) => {
      total += densifiedCount(c, target, closed);
      if (total > MAX_VERTICES) throw new RenderError(`densify: more than ${MAX_VERTICES} vertices in one canvas; make target-px larger`);
    };
    for (const g of input.groups) {
      for (const poly of g.polygons) for (const ring of poly) count(ring, true);
      for (const line of g.lines) count(line, false);
    }
    return features(
      input.groups.map((g) => {
        const cuts = g.polygonCuts?.map((p) => [...p]);
        const polygons = g.polygons.map((poly, p) =>
          poly.map((ring, r) => {
            const d = densifyCoords(ring, target, true, g.polygonCuts?.[p]?.[r]);
            if (cuts) cuts[p]![r] = d.flags;
            return d.coords;
          }),
        );
        const lines = g.lines.map((l) => densifyCoords(l, target, false).coords);
        return groupLike(g, { polygons, polygonCuts: cuts, lines, cutEnds: g.cutEnds, points: g.points });
      }),
    );
  },
});
