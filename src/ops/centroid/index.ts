import { features, groupLike, nonEmpty } from '../../geometry/groups.js';
import { lineCentroid, polygonCentroid } from '../../geometry/measure.js';
import { bool } from '../../style/fields.js';
import { CLIP_BUFFER } from '../../sources/sample.js';
import type { Canvas, FeatureGroup, Features } from '../../types.js';
import { MAX_WORLD_SHIFTS, inCanvas, wholeCentroids, wholeGroup, worldShifts, worldSize } from '../../geometry/whole.js';
import { featuresOp } from '../declare.js';

/**
 * One point per feature replaces its geometry: the area centroid of its polygons (holes
 * subtracted) and the length-weighted centroid of its polylines; points pass through.
 */
export const centroid = featuresOp({
  name: 'centroid',
  description: 'one point per polygon feature (area centroid) and per line feature (length-weighted centroid)',
  // Whole features (GeoJSON) or tile pieces (mvt, pmtiles) when the input has them: a features
  // node read only here samples no groups (a heatmap tile's buildings over its density margin).
  readsWhole: ['features'],
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
      const pts: number[] = [];
      const near = nearCanvas(canvas, W);
      for (const w of whole) {
        if (near && !near(w.box)) continue;
        const c = wholeCentroids(w);
        const o = w.owner;
        for (let i = 0; i + 1 < w.points.length; i += 2) placePoint(w.points[i]!, w.points[i + 1]!, o, canvas, W, pts);
        if (withPolygons && c.polygon) placePoint(c.polygon[0], c.polygon[1], o, canvas, W, pts);
        if (withLines && c.line) placePoint(c.line[0], c.line[1], o, canvas, W, pts);
        if (pts.length) {
          out.push(wholeGroup(w, { points: Float64Array.from(pts) }));
          pts.length = 0; // a runtime call: only for the few features placed
        }
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

/**
 * For a canvas at most a world wide: a test that a feature's box (Mercator units) comes within a
 * pixel of the canvas grown by CLIP_BUFFER at some world copy. A centroid lies in its feature's
 * box (up to rounding, far below a pixel), so placePoint places nothing of a feature failing it:
 * a tile skips the centroids of its source tiles' other thousands of pieces. Wider canvases
 * (where placePoint may throw on too many copies) take every feature.
 */
export function nearCanvas(c: Canvas, W: number): ((box: readonly number[]) => boolean) | undefined {
  if (!(c.width <= W)) return undefined;
  const g = CLIP_BUFFER + 1;
  const x0 = c.x0 - g,
    x1 = c.x0 + c.width + g,
    y0 = (c.y0 - g) / W,
    y1 = (c.y0 + c.height + g) / W;
  return (b) => {
    if (b[3]! < y0 || b[1]! > y1) return false;
    for (let k = Math.floor(x0 / W - b[2]!) - 1, k1 = Math.ceil(x1 / W - b[0]!) + 1; k <= k1; k++) {
      if ((b[0]! + k) * W <= x1 && (b[2]! + k) * W >= x0) return true;
    }
    return false;
  };
}

/**
 * The reference for placePoint (centroid.test.ts compares): a measure (Mercator units) owned by
 * the piece's tile square `o`, drawn at every world copy whose position lies in the canvas grown by
 * CLIP_BUFFER, appended to `pts` in world pixels.
 */
export function placePointReference(x: number, y: number, o: readonly number[] | undefined, canvas: Canvas, W: number, pts: number[]): void {
  if (o && !(x >= o[0]! && x < o[2]! && y >= o[1]! && y < o[3]!)) return;
  for (const dx of worldShifts(x, x, canvas, CLIP_BUFFER)) if (inCanvas(canvas, CLIP_BUFFER, x * W + dx, y * W)) pts.push(x * W + dx, y * W);
}

/**
 * placePointReference without the arrays of worldShifts and the closure per feature (a heatmap
 * tile places every building of its source tiles, thousands, to keep a few hundred): the same
 * shifts k W in the same order, the same tests and the same arithmetic, so the same points.
 */
export function placePoint(x: number, y: number, o: readonly number[] | undefined, c: Canvas, W: number, pts: number[]): void {
  if (o && !(x >= o[0]! && x < o[2]! && y >= o[1]! && y < o[3]!)) return;
  const g = CLIP_BUFFER;
  // worldShifts(x, x, c, g), its bound included
  const k0 = Math.floor((c.x0 - g) / W - x),
    k1 = Math.ceil((c.x0 + c.width + g) / W - x);
  if (!(k1 - k0 <= MAX_WORLD_SHIFTS)) worldShifts(x, x, c, g); // throws its error
  const py = y * W;
  if (!(py >= c.y0 - g && py < c.y0 + c.height + g)) return; // inCanvas's y test: no copy passes
  for (let k = k0; k <= k1; k++) {
    if (!((x + k) * W <= c.x0 + c.width + g && (x + k) * W >= c.x0 - g)) continue;
    const px = x * W + k * W;
    if (px >= c.x0 - g && px < c.x0 + c.width + g) pts.push(px, py);
  }
}
