import { eachVertex, features } from '../../geometry/groups.js';
import { boxOf, boxRing } from '../../geometry/measure.js';
import { nodeRef } from '../../style/fields.js';
import type { Features } from '../../types.js';
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
    const ring = boxRing(boxOf(eachVertex(ctx.input<'features'>('features').groups)));
    return features(ring ? [{ properties: {}, polygons: [[ring]], lines: [], points: new Float64Array(0) }] : []);
  },
};
