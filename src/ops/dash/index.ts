import { features, groupLike, nonEmpty } from '../../geometry/groups.js';
import { dashLine, lineLength, type LinePiece } from '../../geometry/lines.js';
import { RenderError } from '../../errors.js';
import { numRef } from '../../style/fields.js';
import { visitLineParts, wholeGroup, type WholeFeature } from '../../geometry/whole.js';
import { CLIP_BUFFER } from '../../sources/sample.js';
import type { Canvas, FeatureGroup, Features } from '../../types.js';
import { featuresOp } from '../declare.js';

/** Dashes per node, at most (a bound: a tiny period over long lines would otherwise exhaust memory). */
const MAX_DASHES = 1 << 20;

/** Cuts polylines into dash / gap pieces in canvas pixels; polygons and points pass through. */
export const dash = featuresOp({
  name: 'dash',
  description: 'cuts polylines into dashes; polygons and points pass through',
  fields: {
    'dash-px': numRef({ min: 0, unit: 'px', description: 'dash length, pixels' }),
    'gap-px': numRef({ min: 0, unit: 'px', description: 'gap length, pixels' }),
    'phase-px': numRef({ default: 0, unit: 'px', description: 'shifts the pattern back along each line (SVG stroke-dashoffset); may be negative' }),
  },
  required: ['dash-px', 'gap-px'],
  async cpu(ctx): Promise<Features> {
    const dashPx = ctx.num('dash-px');
    const gapPx = ctx.num('gap-px');
    const phase = ctx.num('phase-px', 0);
    const input = ctx.input<'features'>('features');
    if (input.whole) return features(dashWhole(input.whole.features(), input.groups, ctx.canvas, dashPx, gapPx, phase));
    // Tiled sources: each source tile's own piece (buffer included), dashed from its own start and
    // kept inside the tile's square, so every canvas cuts the same dashes (the seam invariant).
    if (input.pieces) return features(dashWhole(await input.pieces(ctx.signal), input.groups, ctx.canvas, dashPx, gapPx, phase));
    // The bound is checked before any dash is made: a line gives at most length / period + 1 dashes.
    let count = 0;
    for (const g of input.groups) for (const line of g.lines) count = checkDashes(count, line, dashPx + gapPx);
    const out = input.groups.map((g) => {
      if (!g.lines.length) return g;
      const pieces: LinePiece[] = [];
      g.lines.forEach((line, i) => dashLine(line, dashPx, gapPx, phase, g.cutEnds?.[i] ?? 0, 0, pieces));
      const cuts = pieces.map((p) => p.cut);
      return groupLike(g, {
        polygons: g.polygons,
        polygonCuts: g.polygonCuts,
        points: g.points,
        lines: pieces.map((p) => p.line),
        cutEnds: cuts.some((c) => c) ? Uint8Array.from(cuts) : undefined,
      });
    });
    return features(out.filter(nonEmpty));
  },
});

/**
 * GeoJSON: dash the whole lines, the pattern anchored at each line's start, so it continues
 * across tiles; only the parts inside the canvas (+ CLIP_BUFFER) are dashed, each from its distance
 * along the line. Tiled sources' pieces likewise, each within its tile's square. Polygons and
 * points of the groups pass through.
 */
function dashWhole(ws: readonly WholeFeature[], groups: readonly FeatureGroup[], canvas: Canvas, dashPx: number, gapPx: number, phase: number): FeatureGroup[] {
  const out: FeatureGroup[] = groups
    .filter((g) => g.polygons.length || g.points.length)
    .map((g) => groupLike(g, { polygons: g.polygons, polygonCuts: g.polygonCuts, points: g.points }));
  let count = 0;
  for (const w of ws) {
    const lines: Float64Array[] = [];
    const cuts: number[] = [];
    visitLineParts(w, canvas, CLIP_BUFFER, (part) => {
      count = checkDashes(count, part.line, dashPx + gapPx);
      for (const d of dashLine(part.line, dashPx, gapPx, phase, part.cut, part.s0)) {
        lines.push(d.line);
        cuts.push(d.cut);
      }
    });
    if (lines.length) out.push(wholeGroup(w, { lines, cutEnds: cuts.some((c) => c) ? Uint8Array.from(cuts) : undefined }));
  }
  return out;
}

/** Adds a line's most dashes to the count, failing past MAX_DASHES. */
function checkDashes(count: number, line: ArrayLike<number>, period: number): number {
  const n = period > 0 ? Math.ceil(lineLength(line) / period) + 1 : 1;
  if (count + n > MAX_DASHES) throw new RenderError(`dash: more than ${MAX_DASHES} dashes in one canvas; make dash-px + gap-px larger`);
  return count + n;
}
