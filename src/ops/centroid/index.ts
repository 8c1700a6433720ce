import { features, groupLike, nonEmpty } from '../../geometry/groups.js';
import { lineCentroid, polygonCentroid } from '../../geometry/measure.js';
import { bool } from '../../style/fields.js';
import { CLIP_BUFFER } from '../../sources/sample.js';
import type { FeatureGroup, Features } from '../../types.js';
import { inCanvas, wholeCentroids, wholeGroup, worldShifts, worldSize } from '../../geometry/whole.js';
import { featuresOp } from '../declare.js';

/**
 * One point per feature replaces its geometry: the area centroid of its polygons (holes
 * subtracted) and the length-weighted centroid of its polylines; points pass through.
 */
export const centroid = featuresOp({
  name: 'centroid',
  description: 'one point per polygon feature (area centroid) and per line feature (length-weighted centroid)',
  fields: {
    'include-lines': bool(true),
    'include-polygons': bool(true),
  },
  async cpu(ctx): Promise<Features> {
    const withLines = ctx.bool('include-lines', true);
    const withPolygons = ctx.bool('include-polygons', true);
    const input = ctx.input<'features'>('features');
    // GeoJSON: whole features. Tiled sources: each source tile's own pieces, counted by the tile
    // whose square holds the centroid (src/sources/pieces.ts). Either way the same points in every
    // canvas, drawn by every tile whose canvas holds them.
    const whole = input.whole ? input.whole.features() : input.pieces ? await input.pieces(ctx.signal) : undefined;
    if (whole) {
      const { canvas } = ctx;
      const W = worldSize(canvas);
      const out: FeatureGroup[] = [];
      for (const w of whole) {
        const c = wholeCentroids(w);
        const pts: number[] = [];
        const o = w.owner;
        const at = (p: [number, number] | undefined) => {
          if (!p) return;
          if (o && !(p[0] >= o[0] && p[0] < o[2] && p[1] >= o[1] && p[1] < o[3])) return;
          for (const dx of worldShifts(p[0], p[0], canvas, CLIP_BUFFER))
            if (inCanvas(canvas, CLIP_BUFFER, p[0] * W + dx, p[1] * W)) pts.push(p[0] * W + dx, p[1] * W);
        };
        for (let i = 0; i + 1 < w.points.length; i += 2) at([w.points[i]!, w.points[i + 1]!]);
        if (withPolygons) at(c.polygon);
        if (withLines) at(c.line);
        if (pts.length) out.push(wholeGroup(w, { points: Float64Array.from(pts) }));
      }
      return features(out);
    }
    const out = input.groups.map((g) => {
      const pts: number[] = Array.from(g.points);
      const pc = withPolygons && g.polygons.length ? polygonCentroid(g.polygons) : undefined;
      if (pc) pts.push(pc[0], pc[1]);
      const lc = withLines && g.lines.length ? lineCentroid(g.lines) : undefined;
      if (lc) pts.push(lc[0], lc[1]);
      return groupLike(g, { points: Float64Array.from(pts) });
    });
    return features(out.filter(nonEmpty));
  },
});
