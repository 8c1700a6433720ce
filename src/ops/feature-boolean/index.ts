import { boolean, loadClipper, pieceRings, type BooleanOp } from '../../geometry/clipper.js';
import { features, groupLike } from '../../geometry/groups.js';
import { boxOfRings, overlap } from '../../geometry/measure.js';
import { nodeRef, oneOfEnum } from '../../style/fields.js';
import type { FeatureGroup, Features } from '../../types.js';
import type { OpDef } from '../types.js';

/**
 * Polygon boolean of two feature inputs (Clipper2, non-zero fill): `intersection` and `difference`
 * give one feature per `a` feature (its properties, its polygons against every `b` polygon);
 * `union` and `xor` give one feature, with no properties, over all of `a` and all of `b`.
 * Lines and points on either input are dropped.
 */
export const featureBoolean: OpDef = {
  name: 'feature-boolean',
  description: 'polygon boolean of two feature inputs: intersection (default), union, difference, xor',
  output: 'features',
  inputs: { a: ['features'], b: ['features'] },
  fields: {
    a: nodeRef('subject'),
    b: nodeRef('clip'),
    operation: oneOfEnum(['intersection', 'union', 'difference', 'xor'], 'intersection'),
  },
  required: ['a', 'b'],
  async cpu(ctx): Promise<Features> {
    const op = (ctx.node.operation as BooleanOp | undefined) ?? 'intersection';
    const a = ctx.input<'features'>('a').groups.filter((g) => g.polygons.length);
    const bGroups = ctx.input<'features'>('b').groups.filter((g) => g.polygons.length);
    if (!a.length && (op === 'intersection' || op === 'difference' || !bGroups.length)) return features([]);
    const m = await loadClipper();
    // Pieces of one feature cut apart by source tiles are made whole first (pieceRings).
    const bRings = bGroups.flatMap((g) => pieceRings(m, g));
    if (op === 'union' || op === 'xor') {
      const polygons = boolean(
        m,
        op,
        a.flatMap((g) => pieceRings(m, g)),
        bRings,
      );
      return features(polygons.length ? [{ properties: {}, polygons, lines: [], points: new Float64Array(0) }] : []);
    }
    const out: FeatureGroup[] = [];
    const bBoxes = bRings.map((r) => boxOfRings([r]));
    for (const g of a) {
      if (op === 'difference' && !bRings.length) {
        out.push(groupLike(g, { polygons: g.polygons, polygonCuts: g.polygonCuts }));
        continue;
      }
      // Only the clip rings whose box meets this feature's box take part (Clipper's cost grows with every ring it is given).
      const box = boxOfRings(g.polygons.flat());
      const near = bRings.filter((_, i) => overlap(bBoxes[i]!, box));
      if (!near.length) {
        if (op === 'difference') out.push(groupLike(g, { polygons: g.polygons, polygonCuts: g.polygonCuts }));
        continue;
      }
      const polygons = boolean(m, op, pieceRings(m, g), near);
      if (polygons.length) out.push(groupLike(g, { polygons }));
    }
    return features(out);
  },
};
