// Small helpers over feature groups shared by the geometry ops.
import type { FeatureGroup, Features } from '../types.js';

/** Visit every vertex of every group: polygon rings, lines and points pooled. */
export function eachVertex(groups: readonly FeatureGroup[]): (visit: (x: number, y: number) => void) => void {
  return (visit) => {
    for (const g of groups) {
      for (const poly of g.polygons) for (const ring of poly) for (let i = 0; i + 1 < ring.length; i += 2) visit(ring[i]!, ring[i + 1]!);
      for (const line of g.lines) for (let i = 0; i + 1 < line.length; i += 2) visit(line[i]!, line[i + 1]!);
      for (let i = 0; i + 1 < g.points.length; i += 2) visit(g.points[i]!, g.points[i + 1]!);
    }
  };
}

/** A new group carrying a source group's id and properties, with the given geometry. */
export function groupLike(g: FeatureGroup, geom: Partial<Pick<FeatureGroup, 'polygons' | 'lines' | 'points' | 'cutEnds' | 'polygonCuts'>>): FeatureGroup {
  const out: FeatureGroup = { properties: g.properties, polygons: geom.polygons ?? [], lines: geom.lines ?? [], points: geom.points ?? new Float64Array(0) };
  if (g.id !== undefined) out.id = g.id;
  if (geom.cutEnds) out.cutEnds = geom.cutEnds;
  if (geom.polygonCuts) out.polygonCuts = geom.polygonCuts;
  return out;
}

export const features = (groups: FeatureGroup[]): Features => ({ kind: 'features', groups });

/** True when a group holds some geometry. */
export const nonEmpty = (g: FeatureGroup): boolean => g.polygons.length > 0 || g.lines.length > 0 || g.points.length > 0;
