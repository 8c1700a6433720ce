import { eachVertex, features } from '../../geometry/groups.js';
import { boxOf, boxRing } from '../../geometry/measure.js';
import { nodeRef } from '../../style/fields.js';
import { CLIP_BUFFER } from '../../sources/sample.js';
import type { Features } from '../../types.js';
import { wholeBox, wholeRingFeature } from '../../geometry/whole.js';
import type { OpDef } from '../types.js';

/** One rectangle: the axis-aligned box of every input vertex (polygons, lines and points pooled). */
export const bbox: OpDef = {
  name: 'bbox',
  description: 'one rectangular polygon: the box of every input vertex',
  output: 'features',
  inputs: { features: ['features'] },
  fields: { features: nodeRef() },
  required: ['features'],
  cpu(ctx): Features {
    const input = ctx.input<'features'>('features');
    // GeoJSON: the box of every whole feature, the same in every tile.
    if (input.whole) return features(wholeRingFeature(boxRing(wholeBox(input.whole.features())), ctx.canvas, CLIP_BUFFER));
    const ring = boxRing(boxOf(eachVertex(input.groups)));
    return features(ring ? [{ properties: {}, polygons: [[ring]], lines: [], points: new Float64Array(0) }] : []);
  },
};
