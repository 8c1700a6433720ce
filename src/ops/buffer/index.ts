import { loadClipper, offsetMany, pieceRings, type Join } from '../../geometry/clipper.js';
import { features, groupLike } from '../../geometry/groups.js';
import { num, numRef, oneOfEnum } from '../../style/fields.js';
import type { FeatureGroup, Features } from '../../types.js';
import { featuresOp } from '../declare.js';

/**
 * Disk offset of each feature (Clipper2): positive `distance` inflates polygons, lines and points;
 * negative erodes polygons only (lines and points inflate by |distance|). Features outside the
 * canvas by up to |distance| reach into it, so the canvas is padded by the distance's bound.
 */
export const buffer = featuresOp({
  name: 'buffer',
  description: 'disk offset: positive inflates, negative erodes polygons (lines and points inflate by |distance|)',
  fields: {
    distance: numRef({ unit: 'px', description: 'tile pixels; negative erodes polygons' }),
    'distance-max': num({ min: 0, unit: 'px', description: 'bound of |distance| when it is an @node port; larger values clamp to it' }),
    join: oneOfEnum(['miter', 'round', 'bevel'], 'miter'),
  },
  required: ['distance'],
  paddingFields: ['distance'],
  pad: (bound) => Math.abs(bound('distance') ?? 0),
  async cpu(ctx): Promise<Features> {
    // Positive port and param values clamp to the padding bound (ctx.num); erosion needs no pad.
    const d = ctx.num('distance');
    const join = (ctx.node.join as Join | undefined) ?? 'miter';
    const input = ctx.input<'features'>('features').groups;
    if (!input.length) return features([]);
    const m = await loadClipper();
    const results = offsetMany(
      m,
      input.map((g) => ({
        rings: pieceRings(m, g),
        lines: g.lines,
        points: g.points,
        simple: g.polygons.length === 1 && !g.polygonCuts?.some((p) => p.some((c) => c)),
      })),
      d,
      join,
    );
    const out: FeatureGroup[] = [];
    input.forEach((g, i) => {
      if (results[i]!.length) out.push(groupLike(g, { polygons: results[i]! }));
    });
    return features(out);
  },
});
