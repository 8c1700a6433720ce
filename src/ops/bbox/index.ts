import { eachVertex, features } from '../../geometry/groups.js';
import { boxOf, boxRing } from '../../geometry/measure.js';
import { CLIP_BUFFER } from '../../sources/sample.js';
import type { FeatureGroup } from '../../types.js';
import { wholeBox, wholeRingFeature, type WholeFeature } from '../../geometry/whole.js';
import { featuresOp } from '../declare.js';
import type { OpDef } from '../types.js';

/**
 * An op making one polygon of every input vertex (polygons, lines and points pooled): bbox and
 * convex-hull. `ring` draws it from the tile's groups; `wholeRing` from a GeoJSON source's whole
 * features, so that every tile cuts the same polygon.
 */
export function onePolygonOp(
  name: string,
  description: string,
  ring: (groups: readonly FeatureGroup[]) => Float64Array | undefined,
  wholeRing: (whole: readonly WholeFeature[]) => Float64Array | undefined,
): OpDef {
  return featuresOp({
    name,
    description,
    cpu(ctx) {
      const input = ctx.input<'features'>('features');
      if (input.whole) return features(wholeRingFeature(wholeRing(input.whole.features()), ctx.canvas, CLIP_BUFFER));
      const r = ring(input.groups);
      return features(r ? [{ properties: {}, polygons: [[r]], lines: [], points: new Float64Array(0) }] : []);
    },
  });
}

/** One rectangle: the axis-aligned box of every input vertex. */
export const bbox = onePolygonOp(
  'bbox',
  'one rectangular polygon: the box of every input vertex',
  (groups) => boxRing(boxOf(eachVertex(groups))),
  (whole) => boxRing(wholeBox(whole)),
);
