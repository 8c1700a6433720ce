import { features, groupLike, nonEmpty } from '../../geometry/groups.js';
import { dashLine, type LinePiece } from '../../geometry/lines.js';
import { RenderError } from '../../errors.js';
import { nodeRef, num, numRef } from '../../style/fields.js';
import type { Features } from '../../types.js';
import type { OpDef } from '../types.js';

/** Dashes per node, at most (a bound: a tiny period over long lines would otherwise exhaust memory). */
export const MAX_DASHES = 1 << 20;

/** Cuts polylines into dash / gap pieces in canvas pixels; polygons and points pass through. */
export const dash: OpDef = {
  name: 'dash',
  description: 'cuts polylines into dashes; polygons and points pass through',
  output: 'features',
  inputs: { features: ['features'] },
  fields: {
    features: nodeRef(),
    'dash-px': num({ min: 0, description: 'dash length, pixels' }),
    'gap-px': num({ min: 0, description: 'gap length, pixels' }),
    'phase-px': numRef({ default: 0, description: 'shifts the pattern back along each line (SVG stroke-dashoffset); may be negative' }),
  },
  required: ['features', 'dash-px', 'gap-px'],
  cpu(ctx): Features {
    const dashPx = ctx.num('dash-px');
    const gapPx = ctx.num('gap-px');
    const phase = ctx.num('phase-px', 0);
    let count = 0;
    const out = ctx.input<'features'>('features').groups.map((g) => {
      if (!g.lines.length) return g;
      const pieces: LinePiece[] = [];
      g.lines.forEach((line, i) => dashLine(line, dashPx, gapPx, phase, g.cutEnds?.[i] ?? 0, 0, pieces));
      count += pieces.length;
      if (count > MAX_DASHES) throw new RenderError(`dash: more than ${MAX_DASHES} dashes in one canvas; make dash-px + gap-px larger`);
      const cuts = pieces.map((p) => p.cut);
      return groupLike(g, { polygons: g.polygons, polygonCuts: g.polygonCuts, points: g.points, lines: pieces.map((p) => p.line), cutEnds: cuts.some((c) => c) ? Uint8Array.from(cuts) : undefined });
    });
    return features(out.filter(nonEmpty));
  },
};
