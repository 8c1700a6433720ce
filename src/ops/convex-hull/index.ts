import { eachVertex, features } from '../../geometry/groups.js';
import { convexHull } from '../../geometry/measure.js';
import { wholeHull, wholeRingFeature } from '../../geometry/whole.js';
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
    // GeoJSON: the hull of every whole feature, the same in every tile.
    if (input.whole) return features(wholeRingFeature(wholeHull(input.whole.features()), ctx.canvas, CLIP_BUFFER));
    const xy: number[] = [];
    eachVertex(input.groups)((x, y) => xy.push(x, y));
    const ring = convexHull(xy);
    return features(ring ? [{ properties: {}, polygons: [[ring]], lines: [], points: new Float64Array(0) }] : []);
  },
};
