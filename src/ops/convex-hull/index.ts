import { eachVertex, features } from '../../geometry/groups.js';
import { boxOf, convexHull } from '../../geometry/measure.js';
import { eachWholeVertex, wholePolygon } from '../../geometry/whole.js';
import { nodeRef } from '../../style/fields.js';
import { CLIP_BUFFER } from '../../sources/sample.js';
import type { Features } from '../../types.js';
import type { OpDef } from '../types.js';

/** One polygon: the convex hull of every input vertex (polygons, lines and points pooled). */
export const convexHullOp: OpDef = {
  name: 'convex-hull',
  description: 'one polygon: the convex hull of every input vertex',
  output: 'features',
  inputs: { features: ['features'] },
  fields: { features: nodeRef() },
  required: ['features'],
  cpu(ctx): Features {
    const input = ctx.input<'features'>('features');
    const xy: number[] = [];
    if (input.whole) {
      // GeoJSON: the hull of every whole feature, the same in every tile.
      eachWholeVertex(input.whole.features())((x, y) => xy.push(x, y));
      const hull = convexHull(xy);
      return features(hull ? wholePolygon(hull, boxOf((v) => { for (let i = 0; i < hull.length; i += 2) v(hull[i]!, hull[i + 1]!); })!, ctx.canvas, CLIP_BUFFER) : []);
    }
    eachVertex(input.groups)((x, y) => xy.push(x, y));
    const ring = convexHull(xy);
    return features(ring ? [{ properties: {}, polygons: [[ring]], lines: [], points: new Float64Array(0) }] : []);
  },
};
