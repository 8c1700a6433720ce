import { features, groupLike, nonEmpty } from '../../geometry/groups.js';
import { lineCentroid, polygonCentroid } from '../../geometry/measure.js';
import { bool, nodeRef } from '../../style/fields.js';
import type { Features } from '../../types.js';
import type { OpDef } from '../types.js';

/**
 * One point per feature replaces its geometry: the area centroid of its polygons (holes
 * subtracted) and the length-weighted centroid of its polylines; points pass through.
 */
export const centroid: OpDef = {
  name: 'centroid',
  description: 'one point per polygon feature (area centroid) and per line feature (length-weighted centroid)',
  output: 'features',
  inputs: { features: ['features'] },
  fields: {
    features: nodeRef(),
    'include-lines': bool(true),
    'include-polygons': bool(true),
  },
  required: ['features'],
  cpu(ctx): Features {
    const withLines = ctx.bool('include-lines', true);
    const withPolygons = ctx.bool('include-polygons', true);
    const out = ctx.input<'features'>('features').groups.map((g) => {
      const pts: number[] = Array.from(g.points);
      const pc = withPolygons && g.polygons.length ? polygonCentroid(g.polygons) : undefined;
      if (pc) pts.push(pc[0], pc[1]);
      const lc = withLines && g.lines.length ? lineCentroid(g.lines) : undefined;
      if (lc) pts.push(lc[0], lc[1]);
      return groupLike(g, { points: Float64Array.from(pts) });
    });
    return features(out.filter(nonEmpty));
  },
};
